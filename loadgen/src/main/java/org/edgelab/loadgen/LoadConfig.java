package org.edgelab.loadgen;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.workload.FixedUrlWorkload;
import org.edgelab.loadgen.workload.Workload;

/**
 * One load run, with wrk's options where they mean the same: {@link Builder#url} (URL),
 * {@link Builder#connections} ({@code -c}), {@link Builder#threads} ({@code -t}, event loops),
 * {@link Builder#duration} ({@code -d}), {@link Builder#timeout} ({@code --timeout}),
 * {@link Builder#latency} ({@code --latency}), {@link Builder#header} ({@code -H}); plus {@link Builder#rate} ({@code --rate}, open loop),
 * {@link Builder#requests} ({@code --requests}, a bound), the {@link Workload}, link emulation and
 * output options. Every run is bounded by its duration and stops by itself.
 *
 * <p>Immutable and thread-safe.
 */
public final class LoadConfig {
    private final URI url;
    private final int connections;
    private final int threads;
    private final Duration duration;
    private final long requests;
    private final Duration timeout;
    private final boolean latency;
    private final Schedule rate;
    private final Workload workload;
    private final LinkEmulation link;
    private final boolean verify;
    private final long seed;
    private final Duration reportInterval;
    private final Duration lateThreshold;
    private final Duration warmUp;
    private final IntervalListener onInterval;
    private final List<String> headers;
    private final String hostHeader;
    private final Segment segment;
    private final Instant startAt;
    private final StopSignal stopSignal;
    private final Shards shards;

    private LoadConfig(Builder b) {
        this.url = b.url;
        this.connections = b.connections;
        this.threads = b.threads;
        this.duration = b.duration;
        this.requests = b.requests;
        this.timeout = b.timeout;
        this.latency = b.latency;
        this.rate = b.rate;
        this.workload = b.workload != null ? b.workload : FixedUrlWorkload.of(pathAndQuery(b.url));
        this.link = b.link;
        this.verify = b.verify;
        this.seed = b.seed;
        this.reportInterval = b.reportInterval;
        this.lateThreshold = b.lateThreshold;
        this.warmUp = b.warmUp;
        this.onInterval = b.onInterval;
        this.headers = List.copyOf(b.headers);
        this.hostHeader = b.hostHeader;
        this.segment = b.segment;
        this.startAt = b.startAt;
        this.stopSignal = b.stopSignal;
        this.shards = b.shards;
    }

    private LoadConfig(LoadConfig o, Segment segment, Instant startAt, IntervalListener onInterval) {
        this.url = o.url;
        this.connections = o.connections;
        this.threads = o.threads;
        this.duration = o.duration;
        this.requests = o.requests;
        this.timeout = o.timeout;
        this.latency = o.latency;
        this.rate = o.rate;
        this.workload = o.workload;
        this.link = o.link;
        this.verify = o.verify;
        this.seed = o.seed;
        this.reportInterval = o.reportInterval;
        this.lateThreshold = o.lateThreshold;
        this.warmUp = o.warmUp;
        this.onInterval = onInterval;
        this.headers = o.headers;
        this.hostHeader = o.hostHeader;
        Segment.checkConnections(segment.count(), connections);
        this.segment = segment;
        this.startAt = startAt;
        this.stopSignal = o.stopSignal;
        this.shards = o.shards;
    }

    /**
     * This load as worker {@code segment} sends it, its measured run starting at {@code startAt} (null: at once);
     * throws IllegalArgumentException when there are fewer connections than workers.
     */
    public LoadConfig withSegment(Segment segment, Instant startAt) {
        return new LoadConfig(this, Objects.requireNonNull(segment, "segment"), startAt, onInterval);
    }

    /** {@link #withSegment(Segment, Instant)} whose report intervals go to {@code listener} instead (null: nobody). */
    public LoadConfig withSegment(Segment segment, Instant startAt, IntervalListener listener) {
        return new LoadConfig(this, Objects.requireNonNull(segment, "segment"), startAt,
                listener == null ? IntervalListener.NONE : listener);
    }

    /**
     * Which part of the load this process sends ({@link Segment#WHOLE} unless it is one of several workers):
     * {@link #connections()}, {@link #requests()}, {@link #seed()} and the schedule stay the whole load's, the
     * runner takes this worker's share of each.
     */
    public Segment segment() {
        return segment;
    }

    /**
     * The start barrier: the wall-clock instant the measured run starts at, the same for every worker (they
     * connect beforehand and wait); empty to start as soon as connected.
     */
    public Optional<Instant> startAt() {
        return Optional.ofNullable(startAt);
    }

    /** What ends the measured run before its duration when given; empty: only the duration and the bound end it. */
    public Optional<StopSignal> stopSignal() {
        return Optional.ofNullable(stopSignal);
    }

    /**
     * The servers the load is spread over by request path, each request to the one the router names (their Host header
     * the load's, from {@link #url()} or {@code -H}); empty when every request goes to {@link #url()}.
     */
    public Optional<Shards> shards() {
        return Optional.ofNullable(shards);
    }

    /** Told the requests completed in each report interval of every phase (default: nobody). */
    public IntervalListener onInterval() {
        return onInterval;
    }

    private static final Set<String> NOT_SETTABLE = Set.of("content-length", "transfer-encoding", "range");

    /** A builder with wrk's defaults: 10 connections, 2 threads, 10 s, 2 s timeout, closed loop. */
    public static Builder builder() {
        return new Builder();
    }

    /** The path and query of {@code url} ("/" when empty). */
    public static String pathAndQuery(URI url) {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    }

    /** Target URL (http only); its host and port receive every request. */
    public URI url() {
        return url;
    }

    /** Number of connections kept open ({@code -c}). */
    public int connections() {
        return connections;
    }

    /** Number of event-loop threads ({@code -t}). */
    public int threads() {
        return threads;
    }

    /** Upper bound on the measured run's length ({@code -d}). */
    public Duration duration() {
        return duration;
    }

    /** Upper bound on the number of requests, 0 for none ({@code --requests}). */
    public long requests() {
        return requests;
    }

    /** A response not complete this long after its request was sent counts as a timeout ({@code --timeout}). */
    public Duration timeout() {
        return timeout;
    }

    /** Print the latency distribution in the summary ({@code --latency}). */
    public boolean latency() {
        return latency;
    }

    /** The open-loop schedule ({@code --rate}, or a timed trace's timestamps), or null for closed loop. */
    public Schedule schedule() {
        return rate != null ? rate : workload.schedule();
    }

    /** Which requests are sent. */
    public Workload workload() {
        return workload;
    }

    /** The link every connection of the load shares. */
    public LinkEmulation link() {
        return link;
    }

    /** Verify synthetic bodies byte by byte (on by default). */
    public boolean verify() {
        return verify;
    }

    /** Seed of the per-connection random sources. */
    public long seed() {
        return seed;
    }

    /** Interval of the histogram log ({@code .hlog}). */
    public Duration reportInterval() {
        return reportInterval;
    }

    /** An open-loop request sent later than this after its intended start counts as a late start. */
    public Duration lateThreshold() {
        return lateThreshold;
    }

    /**
     * Load sent before the measured run and not recorded (like wrk2's calibration period): the same
     * connections, rate and workload, so the client's and server's JIT and caches are warm. Zero for none.
     */
    public Duration warmUp() {
        return warmUp;
    }

    /** The request headers given with {@code -H} other than Host, as "Name: value", in order. */
    public List<String> headers() {
        return headers;
    }

    /** The Host header given with {@code -H}, which replaces the one taken from the URL; empty when none was. */
    public Optional<String> hostHeader() {
        return Optional.ofNullable(hostHeader);
    }

    /** A one-line description: "12 connections, 2 threads, 10s, closed loop". */
    public String describe() {
        Schedule s = schedule();
        return String.format(Locale.ROOT, "%d connections%s, %d threads, %ss%s%s, %s, timeout %sms, link %s",
                connections, segment.whole() ? "" : " (worker " + segment + ": " + segment.connections(connections) + " of them)", threads, duration.toMillis() / 1000.0,
                warmUp.isZero() ? "" : " after an unrecorded " + warmUp.toMillis() / 1000.0 + "s warm-up",
                requests > 0 ? ", at most " + requests + " requests" : "",
                s == null ? "closed loop" : "open loop (" + s.describe() + ")", timeout.toMillis(), link.describe());
    }

    /** Builds a {@link LoadConfig}; not thread-safe. Setters validate their argument at once. */
    public static final class Builder {
        private URI url;
        private int connections = 10;
        private int threads = 2;
        private Duration duration = Duration.ofSeconds(10);
        private long requests;
        private Duration timeout = Duration.ofSeconds(2);
        private boolean latency;
        private Schedule rate;
        private Workload workload;
        private LinkEmulation link = LinkEmulation.NONE;
        private boolean verify = true;
        private long seed = 42;
        private Duration reportInterval = Duration.ofSeconds(1);
        private Duration lateThreshold = Duration.ofMillis(1);
        private Duration warmUp = Duration.ZERO;
        private IntervalListener onInterval = IntervalListener.NONE;
        private final List<String> headers = new ArrayList<>();
        private String hostHeader;
        private Segment segment = Segment.WHOLE;
        private Instant startAt;
        private StopSignal stopSignal;
        private Shards shards;

        private Builder() {
        }

        /**
         * Spreads the load over {@code shards}' servers by request path (null: every request to the URL); the URL, if
         * not set, becomes the first server's, and gives the Host header of every request unless {@code -H} gives one.
         */
        public Builder shards(Shards shards) {
            this.shards = shards;
            if (shards != null && url == null) {
                url(shards.servers().get(0));
            }
            return this;
        }

        /**
         * Ends the measured run when {@code signal} is given, before its duration (null: none), e.g. once a listener
         * of {@link #onInterval} has seen a steady rate; the warm-ups are not ended by it.
         */
        public Builder stopSignal(StopSignal signal) {
            this.stopSignal = signal;
            return this;
        }

        /** Tells {@code listener} the requests completed in each report interval (for a live rate; it must not block). */
        public Builder onInterval(IntervalListener listener) {
            this.onInterval = listener == null ? IntervalListener.NONE : listener;
            return this;
        }

        /**
         * {@code -H}: adds a request header, "Name: value" (a Host header replaces the URL's). Refused: a name
         * that is not an HTTP token, a value with control or non-ASCII characters, and the headers loadgen
         * writes itself for framing (Content-Length, Transfer-Encoding) or ranges (Range: use a range workload).
         */
        public Builder header(String header) {
            Objects.requireNonNull(header, "header");
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("header '" + header + "' is not of the form 'Name: value'");
            }
            String name = header.substring(0, colon).trim();
            String value = header.substring(colon + 1).trim();
            if (!name.chars().allMatch(c -> c < 127 && c > 32 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
                throw new IllegalArgumentException("header '" + header + "': '" + name + "' is not a header name");
            }
            if (!value.chars().allMatch(c -> c == '\t' || (c >= 32 && c < 127))) {
                throw new IllegalArgumentException("header '" + header + "': the value may hold only printable ASCII");
            }
            String lower = name.toLowerCase(Locale.ROOT);
            if (NOT_SETTABLE.contains(lower)) {
                throw new IllegalArgumentException("header '" + name + "' cannot be set with -H: "
                        + (lower.equals("range") ? "use --range (or a range workload) so responses are checked against it"
                        : "loadgen sends GETs without a body"));
            }
            if (lower.equals("host")) {
                if (value.isEmpty()) {
                    throw new IllegalArgumentException("header 'Host' needs a value");
                }
                hostHeader = value;
            } else {
                headers.add(name + ": " + value);
            }
            return this;
        }

        /** Target URL, e.g. http://127.0.0.1:8080/objects/100KB/a. */
        public Builder url(String url) {
            try {
                return url(URI.create(url));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + url + "' is not a URL: " + e.getMessage());
            }
        }

        /** Target URL (scheme http, with a host). */
        public Builder url(URI url) {
            Objects.requireNonNull(url, "url");
            if (!"http".equalsIgnoreCase(url.getScheme())) {
                throw new IllegalArgumentException("'" + url + "': only http:// URLs are supported");
            }
            if (url.getHost() == null) {
                throw new IllegalArgumentException("'" + url + "' has no host");
            }
            this.url = url;
            return this;
        }

        /** {@code -c}: connections (>= 1). */
        public Builder connections(int connections) {
            if (connections < 1) {
                throw new IllegalArgumentException("connections must be >= 1, got " + connections);
            }
            this.connections = connections;
            return this;
        }

        /** {@code -t}: event-loop threads (>= 1). */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be >= 1, got " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** {@code -d}: the run's maximum length (> 0). */
        public Builder duration(Duration duration) {
            if (duration == null || duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("duration must be > 0, got " + duration);
            }
            this.duration = duration;
            return this;
        }

        /** {@code --warmup}: unrecorded load of the same shape before the measured run (zero for none). */
        public Builder warmUp(Duration warmUp) {
            if (warmUp == null || warmUp.isNegative()) {
                throw new IllegalArgumentException("warm-up must be >= 0, got " + warmUp);
            }
            this.warmUp = warmUp;
            return this;
        }

        /** {@code --requests}: stop after this many requests (0 = only the duration bounds the run). */
        public Builder requests(long requests) {
            if (requests < 0) {
                throw new IllegalArgumentException("requests must be >= 0, got " + requests);
            }
            this.requests = requests;
            return this;
        }

        /** {@code --timeout}: per-request timeout (> 0). */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be > 0, got " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /** {@code --latency}: print the latency distribution. */
        public Builder latency(boolean latency) {
            this.latency = latency;
            return this;
        }

        /** {@code --rate}: open loop at this schedule (see {@link RateSchedule}); null for closed loop. */
        public Builder rate(Schedule rate) {
            this.rate = rate;
            return this;
        }

        /** What to request; default: the URL's path for every request. */
        public Builder workload(Workload workload) {
            this.workload = workload;
            return this;
        }

        /** The link every connection of the load shares (one rate cap per direction, a one-way delay). */
        public Builder link(LinkEmulation link) {
            this.link = Objects.requireNonNull(link, "link");
            return this;
        }

        /** Verify synthetic bodies byte by byte (default true). */
        public Builder verify(boolean verify) {
            this.verify = verify;
            return this;
        }

        /** Seed for random choices. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Histogram log interval (>= 10 ms). */
        public Builder reportInterval(Duration interval) {
            if (interval == null || interval.toMillis() < 10) {
                throw new IllegalArgumentException("report interval must be >= 10ms, got " + interval);
            }
            this.reportInterval = interval;
            return this;
        }

        /** Open-loop starts later than this are counted as late (default 1 ms). */
        public Builder lateThreshold(Duration threshold) {
            if (threshold == null || threshold.isNegative()) {
                throw new IllegalArgumentException("late threshold must be >= 0, got " + threshold);
            }
            this.lateThreshold = threshold;
            return this;
        }

        /** {@code --segment}: send only this worker's part of the load (default: all of it). */
        public Builder segment(Segment segment) {
            this.segment = Objects.requireNonNull(segment, "segment");
            return this;
        }

        /** {@code --start-at}: start the measured run at this wall-clock instant (null: as soon as connected). */
        public Builder startAt(Instant startAt) {
            this.startAt = startAt;
            return this;
        }

        /** The config; throws IllegalArgumentException when the URL is missing or options conflict. */
        public LoadConfig build() {
            if (url == null) {
                throw new IllegalArgumentException("a target URL is required");
            }
            Segment.checkConnections(segment.count(), connections);
            if (threads > connections) {
                throw new IllegalArgumentException("connections (" + connections + ") must be >= threads (" + threads + ")");
            }
            if (rate != null && workload != null && workload.schedule() != null) {
                throw new IllegalArgumentException("a timed trace sets its own request times; do not also set a rate "
                        + "(replay it untimed to use a rate)");
            }
            return new LoadConfig(this);
        }
    }
}
