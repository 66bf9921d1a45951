package org.edgelab.cache.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.edgelab.hashing.HashRing;
import org.edgelab.cache.server.CacheServer;
import org.edgelab.cache.server.CacheServerConfig;
import org.edgelab.cache.store.StoreExecutor;
import org.edgelab.commandline.CommandLines;
import org.edgelab.commandline.Converters;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngine;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoreDirectories;
import org.edgelab.units.ByteSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code edgelab serve}: runs the edge cache in front of an origin (or of several upstreams, {@code --upstream}, chosen
 * per path by a consistent-hash ring) until interrupted, printing
 * {@code edgelab cache on http://HOST:PORT ...} (and {@code admin on http://127.0.0.1:APORT/stats and /metrics}
 * with {@code --admin-port}) once it listens. Without {@code --origin} it starts the {@link EmbeddedOrigin}
 * it was given ({@code edgelab serve} gives it the synthetic origin, so the cache can be tried with nothing
 * else running); on its own ({@link #main}, how targets run the cache in its own JVM) {@code --origin} is
 * required. Not reusable: one instance serves one invocation.
 */
@Command(name = "serve",
        mixinStandardHelpOptions = true,
        description = {"Run the edge cache server in front of an origin.",
            "Options can also come from a properties file given with --config (keys are the long option names without dashes)."})
public final class ServeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Properties file with defaults for these options (e.g. port=8080, engine=memory); flags given on the command line win.")
    private java.nio.file.Path config;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String bind;

    @Option(names = {"-p", "--port"}, defaultValue = "8080", description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--origin", paramLabel = "URL",
            description = "Origin to fetch misses from, e.g. http://127.0.0.1:8081. Default under edgelab serve: an embedded synthetic origin on a free loopback port; required when the cache runs on its own.")
    private URI origin;

    @Option(names = "--upstream", paramLabel = "URL", split = ",",
            description = "An upstream to fetch misses from (a parent cache, or a replica of the origin), repeatable or "
                    + "comma-separated, instead of --origin: each request goes to the one a consistent-hash ring of its "
                    + "path names, and one that is down is skipped until it answers again.")
    private List<URI> upstreams = new ArrayList<>();

    @Option(names = "--upstream-vnodes", paramLabel = "N", defaultValue = "" + HashRing.DEFAULT_VIRTUAL_NODES,
            description = "Points of each upstream on the ring (default: ${DEFAULT-VALUE}).")
    private int upstreamVirtualNodes;

    @Option(names = "--upstream-probe-interval", paramLabel = "TIME", defaultValue = "1s", converter = Converters.Time.class,
            description = "How often an upstream that is down is probed with a connection (default: ${DEFAULT-VALUE}).")
    private Duration upstreamProbeInterval;

    @Option(names = "--preserve-host",
            description = "Send the client's Host to the origin or upstreams (as Varnish does, and Traffic Server with "
                    + "pristine_host_hdr) instead of theirs; edges in front of EdgeLab parents need it, so that the "
                    + "parents keep each host's objects apart.")
    private boolean preserveHost;

    @Option(names = {"-e", "--engine"}, defaultValue = "memory",
            description = "Storage engine by name (default: ${DEFAULT-VALUE}); `edgelab engines` lists them and their settings.")
    private String engine;

    @Option(names = {"-m", "--memory"}, paramLabel = "SIZE", converter = Converters.Bytes.class,
            description = "Memory budget for cached objects, e.g. 512m or 4GiB: the memory engine's capacity, or a tiered engine's memory tier.")
    private Long memory;

    @Option(names = {"-o", "--engine-opt"}, paramLabel = "NAME=VALUE",
            description = "An engine setting, repeatable (e.g. -o disks=/var/cache/edgelab -o capacity=100g).")
    private List<String> engineOptions = new ArrayList<>();

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "edgelab-data",
            description = "Where a disk engine (lmdb, raw-log, raw-files, tiered) keeps its data when its settings name no "
                    + "directory: DIR/ENGINE, printed at start (default: ${DEFAULT-VALUE} under the current folder).")
    private java.nio.file.Path dataDir;

    @Option(names = "--admin-port", defaultValue = "-1",
            description = "Loopback port for /stats (JSON), /metrics (Prometheus) and /health; 0 picks a free one, -1 disables (default: ${DEFAULT-VALUE}).")
    private int adminPort;

    @Option(names = "--io-threads", defaultValue = "0", description = "Event-loop threads; 0 means one per core (default: ${DEFAULT-VALUE}).")
    private int ioThreads;

    @Option(names = "--idle-timeout", defaultValue = "60s", converter = Converters.Time.class,
            description = "Close client connections idle this long (default: ${DEFAULT-VALUE}).")
    private Duration idleTimeout;

    @Option(names = "--header-timeout", defaultValue = "10s", converter = Converters.Time.class,
            description = "Close a client connection whose request headers take longer than this to arrive, "
                    + "like nginx's client_header_timeout (default: ${DEFAULT-VALUE}).")
    private Duration headerTimeout;

    @Option(names = "--origin-timeout", defaultValue = "30s", converter = Converters.Time.class,
            description = "Give up on an origin response (504) after this long (default: ${DEFAULT-VALUE}).")
    private Duration originTimeout;

    @Option(names = "--max-ranges", defaultValue = "16",
            description = "Most ranges served in one multipart/byteranges response; more are answered with the whole object (default: ${DEFAULT-VALUE}).")
    private int maxRanges;

    @Option(names = "--store-threads", paramLabel = "N", defaultValue = "" + StoreExecutor.DEFAULT_THREADS,
            description = "Threads that make the store's blocking reads (lookups, reads, releases of disk "
                    + "engines), like nginx's thread_pool; no event loop waits on storage (default: ${DEFAULT-VALUE}).")
    private int storeThreads;

    @Option(names = "--store-write-threads", paramLabel = "N", defaultValue = "" + StoreExecutor.DEFAULT_WRITE_THREADS,
            description = "Threads that make the store's blocking writes (writes, commits, aborts, removals of disk "
                    + "engines), apart from --store-threads so that writes the device throttles never hold the "
                    + "threads hits need (default: ${DEFAULT-VALUE}).")
    private int storeWriteThreads;

    @Option(names = "--store-write-shed-after", paramLabel = "TIME", defaultValue = "0", converter = Converters.Time.class,
            description = "When every --store-write-threads thread has been busy this long without finishing a write "
                    + "(the device has stopped taking writes), pass new fills through from the origin unstored instead "
                    + "of making their clients wait, as Traffic Server and CacheLib drop writes past their backlog; "
                    + "0 never sheds (default: ${DEFAULT-VALUE}).")
    private Duration storeWriteShedAfter;

    @Option(names = "--store-queue", paramLabel = "N", defaultValue = "" + StoreExecutor.DEFAULT_QUEUE,
            description = "Store calls that may wait for a thread, in each of the read and write lanes; past that "
                    + "a connection waits its turn (back-pressure, never an unbounded queue) (default: ${DEFAULT-VALUE}).")
    private int storeQueue;

    private final EmbeddedOrigin embeddedOrigin;

    /**
     * An origin that {@code serve} starts for itself when given no {@code --origin}, and stops when it
     * stops; {@code edgelab serve} passes the synthetic origin (the cli module), so that cache-server
     * does not depend on the origin module.
     */
    @FunctionalInterface
    public interface EmbeddedOrigin {
        /** Starts the origin on a free loopback port and returns it running; may block while it binds. */
        Started start() throws Exception;
    }

    /**
     * An embedded origin that is running.
     *
     * @param baseUri     where it listens, e.g. {@code http://127.0.0.1:40123}
     * @param description what it is, printed once it listens, e.g. {@code embedded synthetic origin on ...}
     * @param examplePath a path worth fetching twice through the cache (a MISS, then a HIT), e.g. {@code /objects/1MiB/hello}
     * @param stopper     stops it
     */
    public record Started(URI baseUri, String description, String examplePath, AutoCloseable stopper) {
    }

    /**
     * A running cache (and its embedded origin, if any); closing stops both and closes the store.
     *
     * @param embeddedOrigin the origin started for it, or null when {@code --origin} named one
     */
    public record Running(CacheServer server, ObjectStore store, Started embeddedOrigin, URI baseUri) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            try {
                server.close();
                store.close();
            } finally {
                if (embeddedOrigin != null) {
                    embeddedOrigin.stopper().close();
                }
            }
        }
    }

    /** A serve command that needs {@code --origin} (how targets run it, in a JVM of its own). */
    public ServeCommand() {
        this(null);
    }

    /** A serve command that starts {@code embeddedOrigin} when given no {@code --origin} (null: {@code --origin} is required). */
    public ServeCommand(EmbeddedOrigin embeddedOrigin) {
        this.embeddedOrigin = embeddedOrigin;
    }

    /** Runs the cache in this JVM until it is stopped (SIGTERM or Ctrl-C), then exits; {@code --origin} is required. */
    public static void main(String[] args) {
        System.exit(CommandLines.execute(new ServeCommand(), args));
    }

    @Override
    public Integer call() throws Exception {
        Running running = start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                running.close();
            } catch (Exception e) {
                System.err.println("edgelab serve: error while stopping: " + e);
            } finally {
                stopped.countDown();
            }
        }, "edgelab-shutdown"));
        stopped.await();
        return 0;
    }

    /**
     * Opens the store (in the data directory when the engine needs one and its settings name none), starts the
     * embedded origin if no {@code --origin} was given, starts the cache and prints where it listens; the caller
     * closes what it returns. Blocks while the listeners bind.
     *
     * @throws IllegalArgumentException for bad options, or no {@code --origin} and no embedded origin
     */
    public Running start() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (origin != null && !upstreams.isEmpty()) {
            throw new IllegalArgumentException("give --origin URL or --upstream URL,..., not both"
                    + " (one origin is a list of one upstream)");
        }
        if (origin == null && upstreams.isEmpty() && embeddedOrigin == null) {
            throw new IllegalArgumentException("--origin URL is required when the cache runs on its own (or --upstream URL,... for several)"
                    + " (edgelab serve starts an embedded synthetic origin without it)");
        }
        PluginSettings settings = engineSettings();
        if (!StoreDirectories.missing(engine, settings).isEmpty()) {
            java.nio.file.Path dir = dataDir.resolve(engine).toAbsolutePath();
            java.nio.file.Files.createDirectories(dir);
            settings = StoreDirectories.fill(engine, settings, dir);
            out.println("data directory " + dir + " (--data-dir " + dataDir + ")");
        }
        ObjectStore store = StorageEngines.open(engine, settings);
        Started embedded = null;
        URI originUri = origin;
        CacheServer server;
        try {
            if (originUri == null && upstreams.isEmpty()) {
                embedded = embeddedOrigin.start();
                originUri = embedded.baseUri();
                out.println(embedded.description());
            }
            CacheServerConfig.Builder config = CacheServerConfig.builder();
            if (upstreams.isEmpty()) {
                config.origin(originUri);
            } else {
                config.upstreams(upstreams);
            }
            server = CacheServer.start(config
                    .bindHost(bind)
                    .port(port)
                    .adminPort(adminPort)
                    .upstreamVirtualNodes(upstreamVirtualNodes)
                    .upstreamProbeInterval(upstreamProbeInterval)
                    .preserveHost(preserveHost)
                    .ioThreads(ioThreads)
                    .idleTimeout(idleTimeout)
                    .requestHeaderTimeout(headerTimeout)
                    .originResponseTimeout(originTimeout)
                    .maxRanges(maxRanges)
                    .storeThreads(storeThreads)
                    .storeWriteThreads(storeWriteThreads)
                    .storeWriteShedAfter(storeWriteShedAfter)
                    .storeQueue(storeQueue)
                    .build(), store);
        } catch (Exception e) {
            store.close();
            if (embedded != null) {
                embedded.stopper().close();
            }
            throw e;
        }
        URI base = URI.create("http://" + hostForUrl(bind) + ":" + server.port());
        out.println("edgelab cache on " + base + " -> " + (upstreams.isEmpty() ? originUri
                : "upstreams " + upstreams + " (consistent hash of the path)") + ", engine " + engine + " "
                + settings.asMap() + ", capacity " + ByteSize.format(store.usage().capacityBytes()));
        if (server.adminPort() > 0) {
            out.println("admin on http://127.0.0.1:" + server.adminPort() + "/stats and /metrics");
        }
        if (embedded != null) {
            out.println("try: curl -sv -o /dev/null " + base + embedded.examplePath() + "   (twice: MISS, then HIT)");
        }
        out.flush();
        return new Running(server, store, embedded, base);
    }

    private PluginSettings engineSettings() {
        PluginSettings settings = PluginSettings.parse(engineOptions);
        if (memory == null) {
            return settings;
        }
        StorageEngine plugin = StorageEngines.get(engine);
        String key = plugin.settings().stream().map(Setting::name)
                .filter(n -> n.equals("memory-capacity")).findFirst()
                .orElse(engine.equals("memory") ? "capacity" : null);
        if (key == null) {
            throw new IllegalArgumentException("engine '" + engine + "' keeps no objects in memory, so --memory does not apply;"
                    + " use --engine-opt to size it, or --engine tiered for a memory tier in front of a disk engine");
        }
        return settings.with(key, Long.toString(memory));
    }

    private static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
