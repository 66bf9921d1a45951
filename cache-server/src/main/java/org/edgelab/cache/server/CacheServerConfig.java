package org.edgelab.cache.server;

import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.edgelab.hashing.HashRing;
import org.edgelab.cache.store.StoreExecutor;

/**
 * Settings of a {@link CacheServer}: where it listens, which origin (or upstreams) it fronts, the HTTP
 * limits and the timeouts. Build with {@link #builder()}; every setting has a default except the origin
 * or the upstreams. Immutable and thread-safe.
 *
 * @param bindHost              address the HTTP listener binds (default {@code 127.0.0.1})
 * @param port                  HTTP port, 0 for an ephemeral one
 * @param adminPort             admin listener port on loopback, 0 for an ephemeral one, -1 for none
 * @param upstreams             where misses are fetched, each an {@code http://host[:port]} URI, required: one
 *                              origin, or several upstreams (parent caches, or replicas of an origin), each
 *                              request going to the one a consistent-hash ring of its path names, skipping
 *                              those that are down ({@link org.edgelab.cache.origin.OriginClient})
 * @param upstreamVirtualNodes  points of each upstream on the ring (default
 *                              {@link org.edgelab.hashing.HashRing#DEFAULT_VIRTUAL_NODES})
 * @param upstreamProbeInterval how often an upstream that is down is probed (default 1 s; several upstreams only)
 * @param preserveHost          whether requests to upstreams keep the client's (normalised) authority in Host,
 *                              as Varnish does and Traffic Server's {@code pristine_host_hdr}, instead of the
 *                              upstream's {@code host:port} (default false, as nginx's {@code proxy_pass}); a
 *                              parent tier of EdgeLab caches then keys each host's objects apart
 * @param ioThreads             event-loop threads, 0 for one per core
 * @param maxInitialLineLength  longest request line accepted (longer gets 414)
 * @param maxHeaderSize         largest header block accepted (larger gets 431)
 * @param idleTimeout           a connection without traffic for this long is closed
 * @param requestHeaderTimeout  a request whose headers take longer than this to arrive is dropped
 * @param originConnectTimeout  connecting to the origin fails after this long (502)
 * @param originResponseTimeout the origin must send data at least this often (else 504, or truncation)
 * @param maxRanges             most ranges served in one multipart/byteranges response
 * @param maxRequestBody        largest request body forwarded for unsafe methods (larger gets 413)
 * @param storeThreads          threads of the store's read lane, which makes every lookup, read and release
 *                              the engine declares blocking (default {@link StoreExecutor#DEFAULT_THREADS})
 * @param storeQueue            calls that may wait for a thread of each lane before connections wait in line
 *                              (default {@link StoreExecutor#DEFAULT_QUEUE})
 * @param storeWriteThreads     threads of the store's write lane, which makes every write, commit, abort and
 *                              removal the engine declares blocking, apart from the read lane so that writes
 *                              the device throttles never hold the threads hits need (default
 *                              {@link StoreExecutor#DEFAULT_WRITE_THREADS}: fewer, as a throttled write waits
 *                              for the device however many threads wait with it)
 * @param storeWriteShedAfter   when every thread of the write lane has been busy this long without finishing a call
 *                              (the device has stopped taking writes: throttled dirty pages, a failing disk), a new
 *                              fill is not stored but passed through from the origin, so its clients do not wait
 *                              for the device (as Traffic Server drops cache writes past its write backlog and
 *                              CacheLib's Navy rejects inserts when its queue is full); zero (the default) never
 *                              sheds: every storable fill waits for the store, as Varnish and nginx do
 * @param clock                 the wall clock that request and response times, freshness and {@code Age} are taken
 *                              from (default {@link InstantSource#system()}; tests pass one they move forward)
 */
public record CacheServerConfig(
        String bindHost,
        int port,
        int adminPort,
        List<URI> upstreams,
        int upstreamVirtualNodes,
        Duration upstreamProbeInterval,
        boolean preserveHost,
        int ioThreads,
        int maxInitialLineLength,
        int maxHeaderSize,
        Duration idleTimeout,
        Duration requestHeaderTimeout,
        Duration originConnectTimeout,
        Duration originResponseTimeout,
        int maxRanges,
        int maxRequestBody,
        int storeThreads,
        int storeQueue,
        int storeWriteThreads,
        Duration storeWriteShedAfter,
        InstantSource clock) {

    public CacheServerConfig {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(storeWriteShedAfter, "storeWriteShedAfter");
        if (storeWriteShedAfter.isNegative()) {
            throw new IllegalArgumentException("storeWriteShedAfter must be zero (never) or positive, got " + storeWriteShedAfter);
        }
        Objects.requireNonNull(bindHost, "bindHost");
        upstreams = checkedUpstreams(upstreams);
        Objects.requireNonNull(upstreamProbeInterval, "upstreamProbeInterval");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(requestHeaderTimeout, "requestHeaderTimeout");
        Objects.requireNonNull(originConnectTimeout, "originConnectTimeout");
        Objects.requireNonNull(originResponseTimeout, "originResponseTimeout");
        requireRange("port", port, 0, 65535);
        requireRange("adminPort", adminPort, -1, 65535);
        requireRange("ioThreads", ioThreads, 0, 1024);
        requireRange("maxInitialLineLength", maxInitialLineLength, 64, 1 << 20);
        requireRange("maxHeaderSize", maxHeaderSize, 256, 1 << 22);
        requireRange("maxRanges", maxRanges, 1, 1000);
        requireRange("maxRequestBody", maxRequestBody, 0, Integer.MAX_VALUE);
        requireRange("storeThreads", storeThreads, 1, 1024);
        requireRange("storeQueue", storeQueue, 0, 1 << 20);
        requireRange("storeWriteThreads", storeWriteThreads, 1, 1024);
        requirePositive("idleTimeout", idleTimeout);
        requirePositive("requestHeaderTimeout", requestHeaderTimeout);
        requirePositive("originConnectTimeout", originConnectTimeout);
        requirePositive("originResponseTimeout", originResponseTimeout);
        requireRange("upstreamVirtualNodes", upstreamVirtualNodes, 1, 10_000);
        requirePositive("upstreamProbeInterval", upstreamProbeInterval);
    }

    /** Returns the origin: the first upstream (the only one when the cache fronts one origin). */
    public URI origin() {
        return upstreams.get(0);
    }

    /** Returns the origin's port, defaulting to 80. */
    public int originPort() {
        return origin().getPort() > 0 ? origin().getPort() : 80;
    }

    /** Returns the origin's authority, {@code host[:port]} (the Host of HTTP/1.0 requests that name none). */
    public String originAuthority() {
        return authority(origin());
    }

    /**
     * Returns the Host for requests to the origin: its authority, or null when the client's is kept
     * ({@link #preserveHost}; with several upstreams each request gets its upstream's unless kept).
     */
    public String upstreamHost() {
        return preserveHost ? null : originAuthority();
    }

    private static String authority(URI u) {
        return u.getPort() > 0 ? u.getHost() + ":" + u.getPort() : u.getHost();
    }

    /**
     * Checks the upstreams: at least one, each {@code http://host[:port]} with no user, path (but "/"), query or
     * fragment, none twice (by host, case aside, and port, 80 when unstated).
     */
    private static List<URI> checkedUpstreams(List<URI> upstreams) {
        if (upstreams == null || upstreams.isEmpty()) {
            throw new IllegalArgumentException("no origin: set the origin (http://host[:port]) or a list of upstreams");
        }
        boolean one = upstreams.size() == 1;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < upstreams.size(); i++) {
            URI u = upstreams.get(i);
            String which = one ? "origin" : "upstream " + (i + 1) + " of " + upstreams.size();
            if (u == null) {
                throw new IllegalArgumentException(which + " is missing");
            }
            String path = u.getRawPath();
            if (!"http".equalsIgnoreCase(u.getScheme()) || u.getHost() == null || u.getRawUserInfo() != null
                    || (path != null && !path.isEmpty() && !path.equals("/")) || u.getRawQuery() != null
                    || u.getRawFragment() != null) {
                throw new IllegalArgumentException(which + " must be an http://host[:port] URI (no user, path or query), got '"
                        + u + "'");
            }
            String key = u.getHost().toLowerCase(Locale.ROOT) + ":" + (u.getPort() > 0 ? u.getPort() : 80);
            if (!seen.add(key)) {
                throw new IllegalArgumentException("upstream " + u + " is listed twice (" + key + "): each upstream once");
            }
        }
        return List.copyOf(upstreams);
    }

    /** Returns a builder with every default set and no origin. */
    public static Builder builder() {
        return new Builder();
    }

    private static void requireRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], got " + value);
        }
    }

    private static void requirePositive(String name, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
    }

    /** Builds a {@link CacheServerConfig}. Not thread-safe. */
    public static final class Builder {
        private String bindHost = "127.0.0.1";
        private int port;
        private int adminPort = -1;
        private List<URI> upstreams;
        private int upstreamVirtualNodes = HashRing.DEFAULT_VIRTUAL_NODES;
        private Duration upstreamProbeInterval = Duration.ofSeconds(1);
        private boolean preserveHost;
        private int ioThreads;
        private int maxInitialLineLength = 8192;
        private int maxHeaderSize = 16384;
        private Duration idleTimeout = Duration.ofSeconds(60);
        private Duration requestHeaderTimeout = Duration.ofSeconds(10);
        private Duration originConnectTimeout = Duration.ofSeconds(5);
        private Duration originResponseTimeout = Duration.ofSeconds(30);
        private int maxRanges = 16;
        private int storeThreads = StoreExecutor.DEFAULT_THREADS;
        private int storeQueue = StoreExecutor.DEFAULT_QUEUE;
        private int storeWriteThreads = StoreExecutor.DEFAULT_WRITE_THREADS;
        private int maxRequestBody = 8 << 20;
        private Duration storeWriteShedAfter = Duration.ZERO;
        private InstantSource clock = InstantSource.system();

        private Builder() {
        }

        public Builder bindHost(String v) { this.bindHost = v; return this; }
        public Builder port(int v) { this.port = v; return this; }
        public Builder adminPort(int v) { this.adminPort = v; return this; }
        /** Fronts one origin (replacing any upstreams set before). */
        public Builder origin(URI v) { this.upstreams = v == null ? null : List.of(v); return this; }
        public Builder origin(String v) { return origin(uri(v)); }
        /** Fronts these upstreams, chosen per request by a consistent-hash ring of the path (replacing the origin). */
        public Builder upstreams(List<URI> v) { this.upstreams = v == null ? null : new ArrayList<>(v); return this; }
        public Builder upstreams(String... v) {
            List<URI> list = new ArrayList<>();
            for (String s : v) {
                list.add(uri(s));
            }
            return upstreams(list);
        }
        public Builder upstreamVirtualNodes(int v) { this.upstreamVirtualNodes = v; return this; }
        public Builder upstreamProbeInterval(Duration v) { this.upstreamProbeInterval = v; return this; }
        public Builder preserveHost(boolean v) { this.preserveHost = v; return this; }
        public Builder ioThreads(int v) { this.ioThreads = v; return this; }
        public Builder maxInitialLineLength(int v) { this.maxInitialLineLength = v; return this; }
        public Builder maxHeaderSize(int v) { this.maxHeaderSize = v; return this; }
        public Builder idleTimeout(Duration v) { this.idleTimeout = v; return this; }
        public Builder requestHeaderTimeout(Duration v) { this.requestHeaderTimeout = v; return this; }
        public Builder originConnectTimeout(Duration v) { this.originConnectTimeout = v; return this; }
        public Builder originResponseTimeout(Duration v) { this.originResponseTimeout = v; return this; }
        public Builder maxRanges(int v) { this.maxRanges = v; return this; }
        public Builder maxRequestBody(int v) { this.maxRequestBody = v; return this; }
        public Builder storeThreads(int v) { this.storeThreads = v; return this; }
        public Builder storeQueue(int v) { this.storeQueue = v; return this; }
        public Builder storeWriteThreads(int v) { this.storeWriteThreads = v; return this; }
        public Builder storeWriteShedAfter(Duration v) { this.storeWriteShedAfter = v; return this; }
        public Builder clock(InstantSource v) { this.clock = v; return this; }

        private static URI uri(String s) {
            try {
                return new URI(s);
            } catch (java.net.URISyntaxException e) {
                throw new IllegalArgumentException("not a URI: '" + s + "' (" + e.getReason() + "): expected http://host[:port]");
            }
        }

        /** Returns the configuration, failing with a message naming the first invalid setting. */
        public CacheServerConfig build() {
            return new CacheServerConfig(bindHost, port, adminPort, upstreams, upstreamVirtualNodes,
                    upstreamProbeInterval, preserveHost, ioThreads, maxInitialLineLength,
                    maxHeaderSize, idleTimeout, requestHeaderTimeout, originConnectTimeout, originResponseTimeout,
                    maxRanges, maxRequestBody, storeThreads, storeQueue, storeWriteThreads,
                    storeWriteShedAfter, clock);
        }
    }
}
