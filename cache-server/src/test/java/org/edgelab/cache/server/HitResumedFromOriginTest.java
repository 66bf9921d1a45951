package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.getWhole;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.origin.content.SyntheticContent;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.storage.contract.DamagedFileScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * raw-log with {@code verify=always}, whose every extent is checked against its CRC32C as it is read: an object's bytes damaged on disk while
 * the cache serves it are found once its reply has begun, and the reply ends whole and byte-exact with the origin's
 * bytes (a GET for the rest, {@code Range} and {@code If-Range} on the stored ETag), as a HIT counted in
 * {@code hits_resumed_from_origin}; the object is dropped and refetched on the next request. (lmdb's
 * {@code verify=always}: {@link LmdbVerifyAlwaysTest}.)
 */
class HitResumedFromOriginTest {

    private static final long SIZE = 2_600_000;

    @Test
    void aStoredBodyDamagedPastItsHeadEndsWholeWithTheOriginsBytes(@TempDir Path dir) throws Exception {
        try (OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).build());
             ObjectStore store = StorageEngines.open("raw-log", PluginSettings.of("disks", dir.toString(),
                     "capacity", "64m", "verify", "always"));
             CacheServer cache = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).adminPort(0)
                     .ioThreads(2).build(), store)) {
            String path = SyntheticPaths.path("resumed", SIZE);
            try (RawHttp raw = new RawHttp(cache.port())) {
                assertThat(exact(raw, path, "fill")).isEqualTo("MISS");
                assertThat(exact(raw, path, "stored")).isEqualTo("HIT");
            }
            byte[] pattern = new byte[64];
            SyntheticContent.fill(SyntheticContent.seed("resumed"), 2_300_000, ByteBuffer.wrap(pattern));
            DamagedFileScenario.flipBytes(dir, pattern);
            long originBefore = origin.stats().requests();
            try (RawHttp raw = new RawHttp(cache.port())) {
                assertThat(exact(raw, path, "the reply that meets the damage")).isEqualTo("HIT");
                CacheStats.Snapshot s = cache.stats().snapshot(store);
                assertThat(s.hitsResumedFromOrigin()).isEqualTo(1);
                assertThat(s.truncatedResponses()).isZero();
                assertThat(store.stats().corruptObjectsDropped()).isEqualTo(1);
                assertThat(origin.stats().requests() - originBefore).as("the range request for the rest").isEqualTo(1);
                assertThat(exact(raw, path, "the next request, same connection")).isEqualTo("MISS");
                assertThat(exact(raw, path, "stored again")).isEqualTo("HIT");
            }
        }
    }

    private static String exact(RawHttp raw, String path, String what) throws Exception {
        return getWhole(raw, path, "resumed", SIZE, what);
    }
}
