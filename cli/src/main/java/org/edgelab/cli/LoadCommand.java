package org.edgelab.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.edgelab.cache.server.CacheServer;
import org.edgelab.cache.server.CacheServerConfig;
import org.edgelab.link.Endpoint;
import org.edgelab.link.HostEndpoint;
import org.edgelab.link.LinkShape;
import org.edgelab.link.NetworkLink;
import org.edgelab.link.NetworkLinks;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.RateSchedule;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.loadgen.video.SearchPlan;
import org.edgelab.loadgen.video.VideoConfig;
import org.edgelab.loadgen.video.VideoResult;
import org.edgelab.loadgen.video.VideoRunner;
import org.edgelab.loadgen.workload.FixedUrlWorkload;
import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.loadgen.workload.TraceWorkload;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.commandline.Converters;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.units.DataRate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code edgelab load}: drives HTTP load like wrk (same flags where they mean the same) and
 * reports what a CDN client sees. Without a URL it starts an embedded origin and cache (memory
 * engine) on loopback and loads the cache, so a first result needs nothing else running.
 * Not reusable: one instance runs one invocation.
 */
@Command(name = "load",
        mixinStandardHelpOptions = true,
        description = {"Drive HTTP load and measure TTFB, TTLB, throughput, goodput, errors and hit ratio, verifying every byte of synthetic objects.",
            "Without URL: an embedded origin + cache (memory engine) on loopback is started and loaded."})
final class LoadCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "URL", description = "Target, e.g. http://127.0.0.1:8080 (a path of /objects/{size}/{id} fetches that object).")
    private URI url;

    @Option(names = {"-c", "--connections"}, defaultValue = "100", description = "Connections to keep open (default: ${DEFAULT-VALUE}).")
    private int connections;

    @Option(names = {"-t", "--threads"}, defaultValue = "2", description = "Event-loop threads (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = {"-d", "--duration"}, defaultValue = "10s", converter = Converters.Seconds.class, description = "Duration of the measured run: 30 (seconds, as wrk), 30s, 2m (default: ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--timeout", defaultValue = "2s", converter = Converters.Seconds.class, description = "A response not complete after this long is a timeout: 2 (seconds), 500ms (default: ${DEFAULT-VALUE}).")
    private Duration timeout;

    @Option(names = {"-H", "--header"}, paramLabel = "HEADER", description = "Add a request header, e.g. -H 'Accept-Encoding: gzip' (repeatable; a Host header replaces the URL's).")
    private java.util.List<String> headers = new java.util.ArrayList<>();

    @Option(names = "--warmup", defaultValue = "0s", converter = Converters.Time.class,
            description = "Send the same load for this long before the measured run, unrecorded (like wrk2's calibration; default: none).")
    private Duration warmup;

    @Option(names = "--latency", description = "Print the latency distribution.")
    private boolean latency;

    @Option(names = {"-R", "--rate"}, paramLabel = "RATE", description = "Open loop: requests per second, constant (2000) or ramping (100..2000, 100..2000/30s).")
    private String rate;

    @Option(names = "--requests", defaultValue = "0", description = "Stop after this many requests (0: no bound but the duration).")
    private long requests;

    @Option(names = "--sizes", paramLabel = "SPEC", description = "Synthetic object sizes: 100KB, 100KB:9,10MiB:1, uniform:1KB-10MB, lognormal:1MB:1.5[:50MB]. Default: the URL's object, or 100KB without URL.")
    private String sizes;

    @Option(names = "--objects", defaultValue = "1000", description = "Number of distinct objects when --sizes is given (default: ${DEFAULT-VALUE}).")
    private long objects;

    @Option(names = "--popularity", defaultValue = "uniform", description = "uniform or zipf:ALPHA (default: ${DEFAULT-VALUE}).")
    private String popularity;

    @Option(names = "--hit-ratio", paramLabel = "RATIO", description = "Target hit ratio, e.g. 0.92: a share 1-RATIO of requests goes to never-seen objects, after a warm-up fetch of the set.")
    private Double hitRatio;

    @Option(names = "--range", paramLabel = "SIZE", converter = Converters.Bytes.class, description = "Request ranges of this size at random offsets instead of whole objects.")
    private Long range;

    @Option(names = "--trace", paramLabel = "CSV", description = "Replay a trace: timestamp,key,size[,range] per line.")
    private Path trace;

    @Option(names = "--trace-timed", description = "Send trace requests at their timestamps (open loop) instead of back to back.")
    private boolean traceTimed;

    @Option(names = "--link", paramLabel = "RATE", converter = Converters.Rate.class, description = "Emulated link shared by every connection, a rate cap each way, e.g. 1Gbit/s or 10gbit (user space).")
    private DataRate link;

    @Option(names = "--link-latency", defaultValue = "0ms", converter = Converters.Time.class, description = "Emulated one-way latency of the link, e.g. 40ms.")
    private Duration linkLatency;

    @Option(names = "--link-emulation", defaultValue = "user-space", paramLabel = "KIND",
            description = "How the link is emulated: user-space (the load's sockets, the default) or kernel (namespaces, tbf and a"
                    + " delay line TCP sees; root; only without a URL: the embedded origin and cache run behind it).")
    private String linkEmulation;

    @Option(names = "--no-verify", description = "Do not verify synthetic bodies byte by byte.")
    private boolean noVerify;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the request randomness (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--segment", paramLabel = "I/N", description = "Send only worker I's share of a load divided among N"
            + " workers (0/3, 1/3, 2/3): connections, rate and --requests are the whole load's; worker 0 runs the warm-ups.")
    private String segment;

    @Option(names = "--start-at", paramLabel = "EPOCH_MS|stdin", converter = StartBarrier.Converter.class,
            description = "Start barrier: connect, then start the measured run at"
            + " this wall-clock time (milliseconds since the epoch), the same for every worker of a divided load. 'stdin': print"
            + " '" + START_READY + "' once started, then read the barrier (epoch ms) as one line from standard input.")
    private StartBarrier startAt;

    /**
     * {@code --start-at}: a wall-clock barrier given on the command line, or ({@code at} null) one to read from standard
     * input. The converter refuses anything else as the command line is parsed, before any server starts.
     */
    record StartBarrier(java.time.Instant at) {
        static final StartBarrier STDIN = new StartBarrier(null);

        /** Parses {@code text} as milliseconds since the epoch; {@code source} names where it came from in the message. */
        static java.time.Instant epochMillis(String text, String source) {
            try {
                return java.time.Instant.ofEpochMilli(Long.parseLong(text.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(source + ": '" + text.trim()
                        + "' is not a time in milliseconds since the epoch (e.g. " + System.currentTimeMillis() + ")");
            }
        }

        /** picocli's converter: {@code stdin} or milliseconds since the epoch. */
        static final class Converter implements picocli.CommandLine.ITypeConverter<StartBarrier> {
            @Override
            public StartBarrier convert(String value) {
                if ("stdin".equals(value)) {
                    return STDIN;
                }
                try {
                    return new StartBarrier(epochMillis(value, "--start-at"));
                } catch (IllegalArgumentException e) {
                    throw new picocli.CommandLine.TypeConversionException(e.getMessage() + " or 'stdin'");
                }
            }
        }
    }

    /** The line {@code --start-at stdin} prints when the worker is up and waits for its barrier on standard input. */
    static final String START_READY = "ready for --start-at";

    /** Where {@code --start-at stdin} reads its barrier: standard input (a test gives its own). */
    java.io.InputStream stdin = System.in;

    @Option(names = "--out", paramLabel = "DIR", description = "Write result.csv, result.json, ttfb.hlog and ttlb.hlog here.")
    private Path out;

    @Option(names = "--video-streams", paramLabel = "N", description = "Video playback: N streams fetching consecutive frames of synthetic objects.")
    private Integer videoStreams;

    @Option(names = "--video-search", paramLabel = "MAX", description = "Video playback: add streams (from --video-streams, default 1) until the health rule breaks, up to MAX.")
    private Integer videoSearch;

    @Option(names = "--bitrate", defaultValue = "70MB/s", converter = Converters.Rate.class, description = "Video bitrate per stream, e.g. 70MB/s or 560Mbit/s (default: ${DEFAULT-VALUE}).")
    private DataRate bitrate;

    @Option(names = "--fps", defaultValue = "30", description = "Video frames per second (default: ${DEFAULT-VALUE}).")
    private int fps;

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        try (NetworkLink kernel = openKernelLink(stdout);
             Embedded embedded = url == null ? on(server(kernel), () -> Embedded.start(stdout, server(kernel).address().getHostAddress())) : null) {
            URI target = url == null ? embedded.cacheUri : url;
            Endpoint client = kernel == null ? HostEndpoint.LOOPBACK : kernel.client();
            if (videoStreams != null || videoSearch != null) {
                return on(client, () -> runVideo(target, stdout));
            }
            LoadConfig loadConfig = config(target, embedded != null);
            LoadResult result = on(client, () -> LoadRunner.run(loadConfig));
            result.printSummary(stdout);
            if (embedded != null) {
                var s = embedded.cache.stats().snapshot(embedded.store);
                stdout.printf(java.util.Locale.ROOT, "Cache server (whole run incl. warm-up): %d requests, %d hits (%.2f%%), %d misses, %d coalesced, %d origin requests, %s%n",
                        s.requests(), s.hits(), s.requests() == 0 ? 0.0 : 100.0 * s.hits() / s.requests(), s.misses(),
                        s.coalesced(), s.originRequests(), s.byResult());
            }
            if (out != null) {
                Files.createDirectories(out);
                result.writeCsv(out.resolve("result.csv"));
                result.writeJson(out.resolve("result.json"));
                result.writeHlog(out.resolve("ttfb.hlog"), LatencyLog.Kind.TTFB);
                result.writeHlog(out.resolve("ttlb.hlog"), LatencyLog.Kind.TTLB);
                org.edgelab.loadgen.workers.WorkerReport.of(result).write(out.resolve(org.edgelab.loadgen.workers.WorkerReport.FILE));
                stdout.println("wrote " + out.toAbsolutePath() + "/{result.csv,result.json,ttfb.hlog,ttlb.hlog,"
                        + org.edgelab.loadgen.workers.WorkerReport.FILE + "}");
            }
            return 0;
        }
    }

    /**
     * The {@code --start-at} instant. With {@code stdin} the coordinator that started this worker as a process picks it
     * once every worker said it is up, so no worker misses a barrier guessed before its JVM started; blocks until
     * the line arrives.
     */
    private java.time.Instant startBarrier() throws java.io.IOException {
        if (startAt.at() != null) {
            return startAt.at();
        }
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.println(START_READY);
        stdout.flush();
        String line = new java.io.BufferedReader(new java.io.InputStreamReader(stdin, java.nio.charset.StandardCharsets.US_ASCII)).readLine();
        if (line == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--start-at stdin: standard input ended before a start time (epoch ms) arrived");
        }
        try {
            return StartBarrier.epochMillis(line, "--start-at stdin");
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private LoadConfig config(URI target, boolean embedded) throws java.io.IOException {
        LoadConfig.Builder b = LoadConfig.builder()
                .url(target)
                .connections(connections)
                .threads(threads)
                .duration(duration)
                .warmUp(warmup)
                .timeout(timeout)
                .latency(latency)
                .requests(requests)
                .verify(!noVerify)
                .seed(seed)
                .link(linkEmulation());
        if (segment != null) {
            try {
                b.segment(org.edgelab.loadgen.Segment.parse(segment));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--segment: " + e.getMessage());
            }
        }
        if (startAt != null) {
            b.startAt(startBarrier());
        }
        headers.forEach(b::header);
        if (rate != null) {
            b.rate(RateSchedule.parse(rate, duration));
        }
        String prefix = target.getRawPath() == null ? "" : target.getRawPath();
        if (trace != null) {
            b.workload(TraceWorkload.load(trace, prefix, 1.0, traceTimed));
        } else if (range != null && sizes == null && hitRatio == null && !embedded
                && SyntheticPaths.parse(prefix).isPresent()) {
            // ranges of the URL's own object (its size is in its path)
            String query = target.getRawQuery() == null ? "" : "?" + target.getRawQuery();
            b.workload(FixedUrlWorkload.randomRanges(prefix + query, range));
        } else if (sizes != null || embedded || hitRatio != null || range != null) {
            ObjectWorkload.Builder w = ObjectWorkload.builder()
                    .pathPrefix(prefix)
                    .sizes(sizes == null ? "100KB" : sizes)
                    .objects(objects)
                    .popularity(popularity)
                    .namespace("s" + seed);
            if (hitRatio != null) {
                w.targetHitRatio(hitRatio);
            }
            if (range != null) {
                w.rangeSize(range);
            }
            b.workload(w.build());
        }
        return b.build();
    }

    /**
     * The kernel link asked for by {@code --link-emulation kernel}, or null: the link is then the load's own (user
     * space) or none. The embedded servers run on its server side and the load on its client side.
     */
    private NetworkLink openKernelLink(PrintWriter stdout) {
        String kind;
        try {
            kind = NetworkLinks.checkEmulation(linkEmulation);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--link-emulation: " + e.getMessage());
        }
        if (!kind.equals("kernel")) {
            return null;
        }
        if (url != null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--link-emulation kernel needs the server inside"
                    + " the link's server namespace: leave out the URL (the embedded origin and cache then run there), or use"
                    + " 'edgelab run' with a kernel link in the descriptor");
        }
        if (link == null && linkLatency.isZero()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--link-emulation kernel needs --link and/or --link-latency");
        }
        NetworkLink opened = NetworkLinks.open(new LinkShape(link == null ? 0 : link.bitsPerSecond(), linkLatency), kind, false,
                java.util.Optional.empty());
        try {
            stdout.println(opened.describe());
            opened.probe(5).ifPresent(rtt -> stdout.println("probed round trip across the link: " + rtt.describe()));
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
        return opened;
    }

    private static Endpoint server(NetworkLink kernel) {
        return kernel == null ? HostEndpoint.LOOPBACK : kernel.server();
    }

    /** Runs {@code task} on {@code side} (a thread in its namespace behind a kernel link); its exceptions pass through. */
    private static <T> T on(Endpoint side, Callable<T> task) throws Exception {
        return side.call(task);
    }

    private LinkEmulation linkEmulation() {
        if (!linkEmulation.equalsIgnoreCase("user-space") || link == null && linkLatency.isZero()) {
            return LinkEmulation.NONE;
        }
        return new LinkEmulation(link == null ? 0 : link.bitsPerSecond(), linkLatency);
    }

    private int runVideo(URI target, PrintWriter stdout) throws InterruptedException, java.io.IOException {
        VideoConfig config = VideoConfig.builder()
                .url(target.toString())
                .streams(videoStreams == null ? 1 : videoStreams)
                .threads(threads)
                .bitrateBytesPerSecond(bitrate.wholeBytesPerSecond())
                .fps(fps)
                .duration(duration)
                .timeout(timeout)
                .link(linkEmulation())
                .verify(!noVerify)
                .build();
        VideoResult result = videoSearch == null
                ? VideoRunner.run(config)
                : VideoRunner.search(config, new SearchPlan(videoStreams == null ? 1 : videoStreams, 1, videoSearch,
                        Duration.ofSeconds(2), duration));
        result.printSummary(stdout);
        if (out != null) {
            Files.createDirectories(out);
            result.writeJson(out.resolve("video.json"));
        }
        return 0;
    }

    /** An origin and a memory-engine cache in this JVM, for a load run with nothing else installed. */
    private static final class Embedded implements AutoCloseable {
        final OriginServer origin;
        final ObjectStore store;
        final CacheServer cache;
        final URI cacheUri;

        private Embedded(OriginServer origin, ObjectStore store, CacheServer cache, String host) {
            this.origin = origin;
            this.store = store;
            this.cache = cache;
            this.cacheUri = URI.create("http://" + host + ":" + cache.port());
        }

        /** Starts them with the cache listening on {@code host} (loopback, or a kernel link's server side). */
        static Embedded start(PrintWriter out, String host) throws Exception {
            OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).build());
            ObjectStore store = StorageEngines.open("memory", PluginSettings.of("capacity", "512m"));
            CacheServer cache = CacheServer.start(CacheServerConfig.builder().bindHost(host).port(0).origin(origin.baseUri()).build(), store);
            out.println("embedded: origin " + origin.baseUri() + ", cache http://" + host + ":" + cache.port()
                    + " (memory engine, 512 MiB), all in this JVM: client and servers share its cores");
            return new Embedded(origin, store, cache, host);
        }

        @Override
        public void close() throws Exception {
            cache.close();
            store.close();
            origin.close();
        }
    }
}
