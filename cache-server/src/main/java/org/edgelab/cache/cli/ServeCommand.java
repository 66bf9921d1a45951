package org.edgelab.cache.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.edgelab.cache.server.CacheServer;
import org.edgelab.cache.server.CacheServerConfig;
import org.edgelab.cache.store.StoreExecutor;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.cli.CommandLines;
import org.edgelab.origin.cli.Converters;
import org.edgelab.storage.api.EngineSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngine;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.units.ByteSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code edgelab serve}: runs the edge cache in front of an origin until interrupted, printing
 * {@code edgelab cache on http://HOST:PORT ...} (and {@code admin on http://127.0.0.1:APORT/stats and /metrics}
 * with {@code --admin-port}) once it listens. Without {@code --origin} it starts an embedded synthetic
 * origin on a loopback port, so the cache can be tried with nothing else running. Also a program of its
 * own ({@link #main}) so targets can run the cache in its own JVM. Not reusable: one instance serves one
 * invocation.
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
            description = "Origin to fetch misses from, e.g. http://127.0.0.1:8081. Default: an embedded synthetic origin on a free loopback port.")
    private URI origin;

    @Option(names = {"-e", "--engine"}, defaultValue = "memory",
            description = "Storage engine by name (default: ${DEFAULT-VALUE}); `edgelab engines` lists them and their settings.")
    private String engine;

    @Option(names = {"-m", "--memory"}, paramLabel = "SIZE", converter = Converters.Bytes.class,
            description = "Memory budget for cached objects, e.g. 512m or 4GiB: the memory engine's capacity, or a tiered engine's memory tier.")
    private Long memory;

    @Option(names = {"-o", "--engine-opt"}, paramLabel = "NAME=VALUE",
            description = "An engine setting, repeatable (e.g. -o disks=/var/cache/edgelab -o capacity=100g).")
    private List<String> engineOptions = new ArrayList<>();

    @Option(names = "--admin-port", defaultValue = "-1",
            description = "Loopback port for /stats (JSON), /metrics (Prometheus) and /health; 0 picks a free one, -1 disables (default: ${DEFAULT-VALUE}).")
    private int adminPort;

    @Option(names = "--io-threads", defaultValue = "0", description = "Event-loop threads; 0 means one per core (default).")
    private int ioThreads;

    @Option(names = "--idle-timeout", defaultValue = "60s", converter = Converters.Time.class,
            description = "Close client connections idle this long (default: ${DEFAULT-VALUE}).")
    private Duration idleTimeout;

    @Option(names = "--origin-timeout", defaultValue = "30s", converter = Converters.Time.class,
            description = "Give up on an origin response (504) after this long (default: ${DEFAULT-VALUE}).")
    private Duration originTimeout;

    @Option(names = "--max-ranges", defaultValue = "16",
            description = "Most ranges served in one multipart/byteranges response; more are answered with the whole object (default: ${DEFAULT-VALUE}).")
    private int maxRanges;

    @Option(names = "--store-threads", paramLabel = "N", defaultValue = "" + StoreExecutor.DEFAULT_THREADS,
            description = "Threads that make the store's blocking calls (lookups, reads, writes, commits of disk "
                    + "engines), like nginx's thread_pool; no event loop waits on storage (default: ${DEFAULT-VALUE}).")
    private int storeThreads;

    @Option(names = "--store-queue", paramLabel = "N", defaultValue = "" + StoreExecutor.DEFAULT_QUEUE,
            description = "Store calls that may wait for a thread; past that a connection waits its turn "
                    + "(back-pressure, never an unbounded queue) (default: ${DEFAULT-VALUE}).")
    private int storeQueue;

    /** A running cache (and its embedded origin, if any); closing stops both and closes the store. */
    record Running(CacheServer server, ObjectStore store, OriginServer embeddedOrigin, URI baseUri) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            try {
                server.close();
                store.close();
            } finally {
                if (embeddedOrigin != null) {
                    embeddedOrigin.close();
                }
            }
        }
    }

    /** Runs the cache in this JVM until it is stopped (SIGTERM or Ctrl-C), then exits. */
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

    /** Opens the store, starts the origin if none was given, starts the cache and prints where it listens. */
    Running start() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        EngineSettings settings = engineSettings();
        ObjectStore store = StorageEngines.open(engine, settings);
        OriginServer embedded = null;
        URI originUri = origin;
        CacheServer server;
        try {
            if (originUri == null) {
                embedded = OriginServer.start(OriginConfig.builder().host("127.0.0.1").port(0).build());
                originUri = embedded.baseUri();
                out.println("embedded synthetic origin on " + originUri + " (objects at /objects/{size}/{id})");
            }
            server = CacheServer.start(CacheServerConfig.builder()
                    .bindHost(bind)
                    .port(port)
                    .adminPort(adminPort)
                    .origin(originUri)
                    .ioThreads(ioThreads)
                    .idleTimeout(idleTimeout)
                    .originResponseTimeout(originTimeout)
                    .maxRanges(maxRanges)
                    .storeThreads(storeThreads)
                    .storeQueue(storeQueue)
                    .build(), store);
        } catch (Exception e) {
            store.close();
            if (embedded != null) {
                embedded.close();
            }
            throw e;
        }
        URI base = URI.create("http://" + hostForUrl(bind) + ":" + server.port());
        out.println("edgelab cache on " + base + " -> " + originUri + ", engine " + engine + " "
                + settings.asMap() + ", capacity " + ByteSize.format(store.usage().capacityBytes()));
        if (server.adminPort() > 0) {
            out.println("admin on http://127.0.0.1:" + server.adminPort() + "/stats and /metrics");
        }
        if (embedded != null) {
            out.println("try: curl -sv -o /dev/null " + base + "/objects/1MiB/hello   (twice: MISS, then HIT)");
        }
        out.flush();
        return new Running(server, store, embedded, base);
    }

    private EngineSettings engineSettings() {
        EngineSettings settings = EngineSettings.parse(engineOptions);
        if (memory == null) {
            return settings;
        }
        StorageEngine plugin = StorageEngines.get(engine);
        String key = plugin.settings().stream().map(EngineSettings.Spec::name)
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
