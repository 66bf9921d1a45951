package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.verified;

import java.util.concurrent.CountDownLatch;
import org.edgelab.cache.store.StoreLane;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.StorageEngines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A fill's body pieces that queue behind a write in progress are written in one call on the write lane, not one call
 * (and one thread wake-up) each; the object stored is the origin's, byte for byte; and a write that fails inside such
 * a batch still ends the client's response whole, from the origin, storing nothing.
 */
class WriteBatchingTest {

    private static final int SIZE = 1_000_000; // under the fill's write-ahead (1 MiB): the origin is never paused

    private OriginServer origin;
    private FaultyStore store;
    private CacheServer cache;

    @BeforeEach
    void start() throws Exception {
        origin = OriginServer.start(OriginConfig.builder().port(0).build());
        store = new FaultyStore(StorageEngines.open("memory", PluginSettings.of("capacity", "32m")));
        cache = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).ioThreads(2).storeThreads(2)
                .build(), store);
    }

    @AfterEach
    void stop() throws Exception {
        cache.close();
        origin.close();
        store.close();
    }

    /** Sends a GET for a fill whose first write is held until the whole body came from the origin; returns the answer. */
    private RawHttp.Response fillWithItsFirstWriteHeld(RawHttp raw, String path) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        store.firstWriteGate = gate;
        raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (cache.stats().snapshot(store).bytesFromOrigin() < SIZE) {
            assertThat(System.nanoTime()).as("the origin's whole body reached the cache").isLessThan(deadline);
            Thread.sleep(5);
        }
        gate.countDown();
        store.firstWriteGate = null;
        return raw.read(false);
    }

    @Test
    void piecesQueuedBehindAWriteAreWrittenInOneCallAndTheObjectIsStoredWhole() throws Exception {
        String path = SyntheticPaths.path("batched", SIZE);
        long callsBefore = cache.storeExecutor(StoreLane.WRITE).totals()[0];
        try (RawHttp raw = new RawHttp(cache.port())) {
            RawHttp.Response r = fillWithItsFirstWriteHeld(raw, path);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("x-cache")).isEqualTo("MISS");
            assertThat(r.complete()).isTrue();
            assertThat(verified("batched", 0, r.body())).isTrue();
            long calls = cache.storeExecutor(StoreLane.WRITE).totals()[0] - callsBefore;
            assertThat(store.writes.get()).as("the body came in many pieces").isGreaterThanOrEqualTo(8);
            // begin, the held first write, one batch for every piece queued behind it, the commit
            assertThat(calls).as("write-lane calls for %d writes", store.writes.get()).isLessThanOrEqualTo(4);

            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response hit = raw.read(false);
            assertThat(hit.header("x-cache")).isEqualTo("HIT");
            assertThat(hit.body()).hasSize(SIZE);
            assertThat(verified("batched", 0, hit.body())).isTrue();
        }
    }

    @Test
    void aWriteThatFailsInsideABatchEndsTheResponseWholeFromTheOriginAndStoresNothing() throws Exception {
        store.failWriteAt = 600_000;
        String path = SyntheticPaths.path("batch-fails", SIZE);
        try (RawHttp raw = new RawHttp(cache.port())) {
            RawHttp.Response r = fillWithItsFirstWriteHeld(raw, path);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("x-cache")).isEqualTo("MISS");
            assertThat(r.complete()).as("the pieces after the failed one were passed on").isTrue();
            assertThat(r.body()).hasSize(SIZE);
            assertThat(verified("batch-fails", 0, r.body())).isTrue();

            store.failWriteAt = -1;
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response again = raw.read(false);
            assertThat(again.header("x-cache")).as("nothing was stored").isEqualTo("MISS");
            assertThat(verified("batch-fails", 0, again.body())).isTrue();
        }
        assertThat(cache.stats().snapshot(store).storePassThroughs()).isEqualTo(1);
    }
}
