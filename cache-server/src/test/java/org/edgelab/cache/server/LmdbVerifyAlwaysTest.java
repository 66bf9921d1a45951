package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.getWhole;
import static org.edgelab.cache.server.CacheFixture.verified;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.SyntheticContent;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.DamagedFileScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lmdb with {@code verify=always}, a real store whose value bytes in {@code data.mdb} are damaged
 * while the cache serves from it (or while it is stopped): damage found after the head and some
 * bytes went out ends the reply with the origin's bytes (a range request conditional on the stored
 * ETag), or cuts it where the origin cannot give them (never a wrong byte completed);
 * damage found before the head is sent (at the lookup, or in the body's first bytes) is a clean
 * MISS on the same request. Either way the object is dropped and refetched from the origin.
 */
class LmdbVerifyAlwaysTest {

    private static final long SIZE = 2_600_000;

    private static ObjectStore open(Path dir) throws Exception {
        return StorageEngines.open("lmdb", PluginSettings.of("path", dir.toString(), "capacity", "64m",
                "map-size", "256m", "chunk-size", "64KiB", "verify", "always"));
    }

    private static CacheServer start(OriginServer origin, ObjectStore store) throws Exception {
        return CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).adminPort(0).ioThreads(2).build(),
                store);
    }

    /** An origin, the store in {@code dir} and a cache in front of them; closing closes all three. */
    private record Served(OriginServer origin, ObjectStore store, CacheServer cache) implements AutoCloseable {
        static Served in(Path dir) throws Exception {
            OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).build());
            ObjectStore store = open(dir);
            return new Served(origin, store, start(origin, store));
        }

        @Override
        public void close() throws Exception {
            try (origin; store; cache) {
                // closed in reverse order: cache, store, origin
            }
        }
    }

    private static RawHttp.Response get(RawHttp raw, String id) throws Exception {
        raw.send("GET " + SyntheticPaths.path(id, SIZE) + " HTTP/1.1\r\nHost: edge.example\r\n\r\n");
        return raw.read(false);
    }

    /** Requests {@code id} on {@code raw}; fails unless the answer is a whole, byte-exact 200; returns its X-Cache. */
    private static String exact(RawHttp raw, String id, String what) throws Exception {
        return getWhole(raw, SyntheticPaths.path(id, SIZE), id, SIZE, what);
    }

    /** Inverts 64 bytes of {@code id}'s body at {@code offset} in the store's files. */
    private static void damage(Path dir, String id, long offset) throws Exception {
        byte[] pattern = new byte[64];
        SyntheticContent.fill(SyntheticContent.seed(id), offset, ByteBuffer.wrap(pattern));
        DamagedFileScenario.flipBytes(dir, pattern);
    }

    private static void fill(CacheServer cache, String id) throws Exception {
        try (RawHttp raw = new RawHttp(cache.port())) {
            assertThat(exact(raw, id, "fill")).isEqualTo("MISS");
            assertThat(exact(raw, id, "stored")).isEqualTo("HIT");
        }
    }

    @Test
    void damageFoundMidBodyEndsTheReplyWithTheOriginsBytesDropsTheObjectAndTheNextRequestRefetchesIt(@TempDir Path dir)
            throws Exception {
        try (Served s = Served.in(dir)) {
            OriginServer origin = s.origin();
            CacheServer cache = s.cache();
            fill(cache, "mid");
            damage(dir, "mid", 2_300_000);
            long originBefore = origin.stats().requests();
            try (RawHttp raw = new RawHttp(cache.port())) {
                assertThat(exact(raw, "mid", "the reply that finds the damage after its head")).isEqualTo("HIT");
            }
            assertThat(cache.stats().snapshot(s.store()).hitsResumedFromOrigin()).isEqualTo(1);
            assertThat(cache.stats().snapshot(s.store()).truncatedResponses()).isZero();
            assertThat(s.store().stats().corruptObjectsDropped()).isEqualTo(1);
            try (RawHttp raw = new RawHttp(cache.port())) {
                assertThat(exact(raw, "mid", "the request after the damage")).isEqualTo("MISS");
                assertThat(exact(raw, "mid", "stored again")).isEqualTo("HIT");
            }
            assertThat(origin.stats().requests() - originBefore)
                    .as("origin requests after the damage: the rest of the damaged reply, then the refetch").isEqualTo(2);
        }
    }

    @Test
    void damageFoundMidBodyCutsTheReplyWhenTheOriginCannotGiveTheRest(@TempDir Path dir) throws Exception {
        try (Served s = Served.in(dir)) {
            fill(s.cache(), "gone");
            damage(dir, "gone", 2_300_000);
            s.origin().close();
            try (RawHttp raw = new RawHttp(s.cache().port())) {
                RawHttp.Response cut = get(raw, "gone");
                assertThat(cut).as("the head went out before the damage was found").isNotNull();
                assertThat(cut.status()).isEqualTo(200);
                assertThat(cut.complete()).as("the reply is cut, never completed").isFalse();
                assertThat(cut.body().length).isLessThan(2_300_000).isGreaterThan(0);
                assertThat(verified("gone", 0, cut.body())).as("every byte sent is right").isTrue();
            }
            // the server counts the cut once the connection's close completes, which the client may see first
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (s.cache().stats().snapshot(s.store()).truncatedResponses() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(s.cache().stats().snapshot(s.store()).truncatedResponses()).isEqualTo(1);
        }
    }

    @Test
    void damageInTheFirstBytesIsACleanMissOnTheSameRequestNotA200CutBeforeItsFirstByte(@TempDir Path dir)
            throws Exception {
        try (Served s = Served.in(dir)) {
            fill(s.cache(), "first");
            damage(dir, "first", 1000);
            long originBefore = s.origin().stats().requests();
            try (RawHttp raw = new RawHttp(s.cache().port())) {
                assertThat(exact(raw, "first", "the request that finds the damage")).isEqualTo("MISS");
                assertThat(exact(raw, "first", "the next one, same connection")).isEqualTo("HIT");
            }
            assertThat(s.store().stats().corruptObjectsDropped()).isEqualTo(1);
            assertThat(s.origin().stats().requests() - originBefore).as("origin requests after the damage")
                    .isEqualTo(1);
        }
    }

    @Test
    void damageFoundAtTheFirstLookupAfterARestartIsACleanMiss(@TempDir Path dir) throws Exception {
        try (OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).build())) {
            try (ObjectStore store = open(dir); CacheServer cache = start(origin, store)) {
                fill(cache, "restart");
            }
            damage(dir, "restart", 2_300_000);
            long originBefore = origin.stats().requests();
            try (ObjectStore store = open(dir); CacheServer cache = start(origin, store);
                 RawHttp raw = new RawHttp(cache.port())) {
                assertThat(exact(raw, "restart", "the first request after the restart")).isEqualTo("MISS");
                assertThat(exact(raw, "restart", "the next one, same connection")).isEqualTo("HIT");
                assertThat(store.stats().corruptObjectsDropped()).isEqualTo(1);
            }
            assertThat(origin.stats().requests() - originBefore).as("origin requests after the damage").isEqualTo(1);
        }
    }
}
