package org.edgelab.experiments.target;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.cache.server.CacheServer;
import org.edgelab.cache.server.CacheServerConfig;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.OriginStats;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;

/**
 * The {@code embedded} target, the default: a synthetic origin, a store of the build's engine and a
 * cache server in front of it, all in the runner's JVM on ephemeral loopback ports (for the {@code none}
 * baseline, the origin alone). Needs nothing installed. The server's CPU time cannot be told apart from
 * the load generator's here, so the runner derives it (JVM total minus the load generator's event
 * loops; it includes the origin). Stateless and thread-safe.
 */
public final class EmbeddedTarget implements Target {

    /** The method label of CPU figures on this target. */
    public static final String CPU_METHOD = "embedded-shared-jvm";

    @Override
    public String name() {
        return "embedded";
    }

    @Override
    public String description() {
        return "origin and cache in the runner's JVM on loopback (the default; needs nothing installed)";
    }

    @Override
    public List<Setting> settings() {
        return List.of(EdgeLabBuilds.STORE_WRITE_SHED_AFTER);
    }

    @Override
    public void validate(ServerBuild build) {
        TargetSettings.requireOnly(name(), build.targetSettings(), settings());
        EdgeLabBuilds.storeWriteShedAfter(build);
        EdgeLabBuilds.validate(build);
    }

    @Override
    public boolean listensOnAnyAddress() {
        return true;
    }

    @Override
    public Optional<String> unavailableReason(ServerBuild build) {
        return EdgeLabBuilds.unavailableReason(build);
    }

    @Override
    public RunningTarget start(ServerBuild build, TargetContext context) throws IOException {
        boolean noCache = build.engine().equals(ServerBuild.NO_CACHE);
        // without a cache the origin is the server clients reach; behind a cache it stays on loopback
        OriginServer origin = OriginServer.start(OriginConfig.builder().host(noCache ? context.listenHost() : "127.0.0.1").port(0).build());
        if (noCache) {
            return new Running(origin, null, null, context.listenHost());
        }
        ObjectStore store = null;
        try {
            Files.createDirectories(context.storeDir());
            store = StorageEngines.open(build.engine(), PluginSettings.of(EdgeLabBuilds.storeSettings(build, context.storeDir())));
            CacheServer cache = CacheServer.start(CacheServerConfig.builder().bindHost(context.listenHost()).port(0)
                    .origin(origin.baseUri()).storeWriteShedAfter(EdgeLabBuilds.storeWriteShedAfter(build)).build(), store);
            return new Running(origin, store, cache, context.listenHost());
        } catch (IOException | RuntimeException e) {
            if (store != null) {
                store.close();
            }
            origin.close();
            throw e;
        }
    }

    /** Origin, store and cache of one cell; closes them in reverse order. Counters are thread-safe. */
    private static final class Running implements RunningTarget {
        /** The names the admin port's {@code /stats} uses, so both targets' {@link #cacheStats()} read alike. */
        private static final ObjectMapper STATS_JSON = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

        private final OriginServer origin;
        private final ObjectStore store;
        private final CacheServer cache;
        private final String host;

        Running(OriginServer origin, ObjectStore store, CacheServer cache, String host) {
            this.host = host;
            this.origin = origin;
            this.store = store;
            this.cache = cache;
        }

        @Override
        public URI clientUri() {
            return cache == null ? origin.baseUri() : URI.create("http://" + host + ":" + cache.port());
        }

        @Override
        public ServerCounters counters() {
            if (cache == null) {
                OriginStats stats = origin.stats();
                return new ServerCounters(stats.requests(), -1, -1, stats.bytesSent(), 0);
            }
            CacheStats.Snapshot s = cache.stats().snapshot(store);
            return new ServerCounters(s.requests(), s.hits(), s.misses(), s.bytesToClients(), s.bytesFromOrigin());
        }

        @Override
        public Optional<JsonNode> cacheStats() {
            return cache == null ? Optional.empty() : Optional.of(STATS_JSON.valueToTree(cache.stats().snapshot(store)));
        }

        @Override
        public CpuSample cpu() {
            return new CpuSample(Double.NaN, CPU_METHOD);
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
}
