package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.verified;

import java.nio.ByteBuffer;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.content.SyntheticContent;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.storage.contract.DamagedFileScenario;
import org.junit.jupiter.api.Test;

/**
 * raw-log, whose every extent is checked against its CRC32C as it is read: an object's bytes damaged on disk while
 * the cache serves it are found once its reply has begun, and the reply ends whole and byte-exact with the origin's
 * bytes (a GET for the rest, {@code Range} and {@code If-Range} on the stored ETag), as a HIT counted in
 * {@code hits_resumed_from_origin}; the object is dropped and refetched on the next request. (lmdb's
 * {@code verify=always}: {@link LmdbVerifyAlwaysTest}.)
 */
class HitResumedFromOriginTest {

    private static final long SIZE = 2_600_000;

    @Test
    void aStoredBodyDamagedPastItsHeadEndsWholeWithTheOriginsBytes() throws Exception {
        try (CacheFixture f = new CacheFixture("raw-log", OriginConfig.builder().port(0).build(), "64m", b -> { })) {
            String path = SyntheticPaths.path("resumed", SIZE);
            try (RawHttp raw = new RawHttp(f.cache.port())) {
                assertThat(exact(raw, path, "fill")).isEqualTo("MISS");
                assertThat(exact(raw, path, "stored")).isEqualTo("HIT");
            }
            byte[] pattern = new byte[64];
            SyntheticContent.fill(SyntheticContent.seed("resumed"), 2_300_000, ByteBuffer.wrap(pattern));
            DamagedFileScenario.flipBytes(f.storeDir(), pattern);
            long originBefore = f.origin.stats().requests();
            try (RawHttp raw = new RawHttp(f.cache.port())) {
                assertThat(exact(raw, path, "the reply that meets the damage")).isEqualTo("HIT");
                CacheStats.Snapshot s = f.cache.stats().snapshot(f.store);
                assertThat(s.hitsResumedFromOrigin()).isEqualTo(1);
                assertThat(s.truncatedResponses()).isZero();
                assertThat(f.store.stats().corruptObjectsDropped()).isEqualTo(1);
                assertThat(f.origin.stats().requests() - originBefore).as("the range request for the rest").isEqualTo(1);
                assertThat(exact(raw, path, "the next request, same connection")).isEqualTo("MISS");
                assertThat(exact(raw, path, "stored again")).isEqualTo("HIT");
            }
        }
    }

    private static String exact(RawHttp raw, String path, String what) throws Exception {
        raw.send("GET " + path + " HTTP/1.1\r\nHost: edge.example\r\n\r\n");
        RawHttp.Response r = raw.read(false);
        assertThat(r).as("%s: an empty reply", what).isNotNull();
        assertThat(r.status()).as(what).isEqualTo(200);
        assertThat(r.complete()).as("%s: cut, %d bytes", what, r.body().length).isTrue();
        assertThat(r.body().length).as(what).isEqualTo(SIZE);
        assertThat(verified("resumed", 0, r.body())).as("%s: every byte right", what).isTrue();
        return r.header("x-cache");
    }
}
