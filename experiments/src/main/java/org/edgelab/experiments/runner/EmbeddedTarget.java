package org.edgelab.experiments.runner;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.cache.server.CacheServer;
import org.edgelab.cache.server.CacheServerConfig;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.Descriptor.ServerBuild;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.OriginStats;
import org.edgelab.storage.api.EngineSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;

/**
 * The {@code embedded} target: a synthetic origin, a store of the build's engine and a cache server in
 * front of it, all in this JVM on ephemeral loopback ports (for the {@code none} baseline, the origin
 * alone). {@link #close()} stops them in reverse order. Not thread-safe to start or close;
 * {@link #counters()} may be called from any thread.
 */
public final class EmbeddedTarget implements AutoCloseable {

    /** The setting value that stands for the build's own store directory. */
    public static final String STORE_PLACEHOLDER = "${store}";
    private static final Set<String> DIRECTORY_SETTINGS = Set.of("dir", "disks", "path");

    /**
     * Counters of whatever answers the clients, since it started.
     *
     * @param requests        requests answered
     * @param hits            cache hits (HIT* responses), -1 without a cache
     * @param misses          cache misses, -1 without a cache
     * @param bytesToClients  body bytes sent to clients
     * @param bytesFromOrigin body bytes fetched from the origin
     */
    public record Counters(long requests, long hits, long misses, long bytesToClients, long bytesFromOrigin) {
    }

    private final OriginServer origin;
    private final ObjectStore store;
    private final CacheServer cache;

    private EmbeddedTarget(OriginServer origin, ObjectStore store, CacheServer cache) {
        this.origin = origin;
        this.store = store;
        this.cache = cache;
    }

    /** Starts origin, store and cache for {@code build}; engine files go under {@code storeDir}. */
    public static EmbeddedTarget start(ServerBuild build, Path storeDir) throws IOException {
        OriginServer origin = OriginServer.start(OriginConfig.builder().host("127.0.0.1").port(0).build());
        if (build.engine().equals(Descriptor.NO_CACHE)) {
            return new EmbeddedTarget(origin, null, null);
        }
        ObjectStore store = null;
        try {
            Files.createDirectories(storeDir);
            store = StorageEngines.open(build.engine(), EngineSettings.of(storeSettings(build, storeDir)));
            CacheServer cache = CacheServer.start(CacheServerConfig.builder().bindHost("127.0.0.1").port(0)
                    .origin(origin.baseUri()).build(), store);
            return new EmbeddedTarget(origin, store, cache);
        } catch (IOException | RuntimeException e) {
            if (store != null) {
                store.close();
            }
            origin.close();
            throw e;
        }
    }

    /**
     * The build's settings with {@code ${store}} replaced by {@code storeDir}, and the engine's required
     * directory setting ({@code dir}, {@code disks} or {@code path}; {@code disk.*} for the tiered engine's
     * disk engine) set to it when the descriptor leaves it out.
     */
    static Map<String, String> storeSettings(ServerBuild build, Path storeDir) {
        String dir = storeDir.toAbsolutePath().toString();
        Map<String, String> out = new LinkedHashMap<>();
        build.settings().forEach((k, v) -> out.put(k, v.replace(STORE_PLACEHOLDER, dir)));
        fillDirectory(StorageEngines.get(build.engine()).settings(), "", out, dir);
        if (build.engine().equals("tiered")) {
            String diskEngine = out.getOrDefault("disk-engine", "raw-log");
            if (StorageEngines.names().contains(diskEngine)) {
                fillDirectory(StorageEngines.get(diskEngine).settings(), "disk.", out, dir);
            }
        }
        return out;
    }

    private static void fillDirectory(List<EngineSettings.Spec> specs, String prefix, Map<String, String> settings, String dir) {
        for (EngineSettings.Spec spec : specs) {
            if (spec.defaultValue() == null && DIRECTORY_SETTINGS.contains(spec.name())) {
                settings.putIfAbsent(prefix + spec.name(), dir);
            }
        }
    }

    /** Whether the build keeps objects on disk (the power model counts its disks as active). */
    public static boolean usesDisk(ServerBuild build) {
        return !build.engine().equals("memory") && !build.engine().equals(Descriptor.NO_CACHE);
    }

    /** The base URI clients send requests to: the cache, or the origin for the no-cache baseline. */
    public URI clientUri() {
        return cache == null ? origin.baseUri() : URI.create("http://127.0.0.1:" + cache.port());
    }

    /** A snapshot of the counters of whatever answers the clients. */
    public Counters counters() {
        if (cache == null) {
            OriginStats stats = origin.stats();
            return new Counters(stats.requests(), -1, -1, stats.bytesSent(), 0);
        }
        CacheStats.Snapshot s = cache.stats().snapshot(store);
        return new Counters(s.requests(), s.hits(), s.misses(), s.bytesToClients(), s.bytesFromOrigin());
    }

    @Override
    public void close() {
        try {
            if (cache != null) {
                cache.close();
            }
        } finally {
            try {
                if (store != null) {
                    store.close();
                }
            } catch (IOException e) {
                System.getLogger(EmbeddedTarget.class.getName()).log(System.Logger.Level.WARNING, "closing the store: " + e.getMessage());
            } finally {
                origin.close();
            }
        }
    }
}
