package org.edgelab.storage.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.storage.contract.StoreFixtures.put;
import static org.edgelab.storage.contract.StoreFixtures.verifyViews;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How long a reader holds LMDB snapshots: a reference that lent views and stays open (a slow
 * client) holds no read transaction, its views stay byte-exact while the writer reuses freed
 * pages, and the map does not grow under a write-heavy load the way it does under a held snapshot.
 */
class LmdbViewHoldTest {

    private static final int CHUNK_PAYLOAD = 16 * 1024 - 16 - Layout.CHUNK_TRAILER_BYTES;
    private static final int CHURN_OBJECT = 1 << 20;
    private static final int CHURN_WRITES = 24;

    @TempDir
    Path dir;

    private ObjectStore open(Path path, String... extra) throws IOException {
        return StorageEngines.open("lmdb", PluginSettings.of("path", path.toString(), "sync", "nosync")
                .withAll(PluginSettings.of(extra)));
    }

    private static long seed(CacheKey k) {
        return TestContent.seed(k.value());
    }

    private static Map<String, Object> extra(ObjectStore s) {
        return s.stats().extra();
    }

    /** Takes every view of {@code o} (pieces of at most {@code maxView}) and keeps them. */
    private static List<ByteBuffer> takeViews(StoredObject o, int maxView) {
        List<ByteBuffer> views = new ArrayList<>();
        for (long pos = 0; pos < o.availableLength(); ) {
            ByteBuffer v = o.view(pos, maxView).orElseThrow(() -> new AssertionError("no view of " + o.key()));
            views.add(v);
            pos += v.remaining();
        }
        return views;
    }

    private static void assertViewsMatch(CacheKey k, List<ByteBuffer> views) {
        long pos = 0;
        for (ByteBuffer v : views) {
            TestContent.assertMatches("'" + k + "' view kept open", seed(k), pos, v.duplicate());
            pos += v.remaining();
        }
    }

    /** Overwrites a few keys with 1 MiB objects, {@code writes} times: every overwrite frees the previous version's pages. */
    private static void churn(ObjectStore s, int writes) throws IOException {
        for (int i = 0; i < writes; i++) {
            CacheKey k = CacheKey.of("churn-" + (i % 3));
            put(s, k, seed(k), CHURN_OBJECT, 65_536);
        }
    }

    private static long mapHighWater(ObjectStore s) {
        return (Long) extra(s).get("mapHighWaterBytes");
    }

    @Test
    void aReferenceThatLentViewsHoldsNoReadTransactionUntilItCloses() throws IOException {
        try (ObjectStore s = open(dir, "capacity", "16MiB", "chunk-size", "16KiB")) {
            CacheKey k = CacheKey.of("viewed");
            long size = 3L * CHUNK_PAYLOAD + 100;
            put(s, k, seed(k), size, 65_536);
            try (StoredObject o = s.lookup(k).orElseThrow()) {
                assertThat(verifyViews(o, seed(k), 0, size, 5_000)).isTrue();
                assertThat(o.view(size, 10)).isEmpty();
                assertThat(extra(s)).containsEntry("readTxnsInUse", 0).containsEntry("viewLeases", 1)
                        // three full chunks lent from the map, the 100-byte tail (a leaf-page value) copied
                        .containsEntry("viewChunksLent", 3L).containsEntry("viewChunksCopied", 1L);
                assertThat(verifyViews(o, seed(k), 2 * CHUNK_PAYLOAD - 7, CHUNK_PAYLOAD + 107, 40_000)).isTrue();
                assertThat(extra(s)).containsEntry("readTxnsInUse", 0).containsEntry("viewChunksLent", 5L);
            }
            assertThat(extra(s)).containsEntry("readTxnsInUse", 0).containsEntry("viewLeases", 0);
        }
    }

    @Test
    void viewsKeptOpenStayByteExactWhileTheWriterReusesFreedPages() throws IOException {
        try (ObjectStore s = open(dir, "map-size", "32MiB", "chunk-size", "64KiB")) {
            CacheKey k = CacheKey.of("lingering");
            long size = 5L * (64 * 1024 - 16 - Layout.CHUNK_TRAILER_BYTES) + 1_000;
            put(s, k, seed(k), size, 65_536);
            churn(s, 12);
            try (StoredObject o = s.lookup(k).orElseThrow()) {
                List<ByteBuffer> views = takeViews(o, 20_000);
                // Removed while read: its chunks are deleted only once this reference closes.
                assertThat(s.remove(k)).isTrue();
                long before = mapHighWater(s);
                for (int round = 0; round < 4; round++) {
                    churn(s, CHURN_WRITES / 4);
                    // The reader keeps taking views, as a slow client's response goes on.
                    assertViewsMatch(k, takeViews(o, 64 * 1024));
                    assertThat(extra(s)).containsEntry("readTxnsInUse", 0);
                }
                long grown = mapHighWater(s) - before;
                assertThat(grown).as("map growth while a reference with views stays open")
                        .isLessThan(2L * CHURN_OBJECT);
                assertViewsMatch(k, views);
            }
        }
    }

    @Test
    void aHeldSnapshotMakesTheSameChurnGrowTheMap() throws IOException {
        // The control for the test above: the same churn under one held read transaction (what a
        // view used to hold until close) cannot reuse pages freed after the snapshot.
        try (ObjectStore s = open(dir, "map-size", "64MiB", "chunk-size", "64KiB")) {
            churn(s, 12);
            ReadTxnPool readers = ((LmdbStore) s).readers();
            ReadTxnPool.Slot snapshot = readers.acquire();
            long before;
            long grown;
            try {
                before = mapHighWater(s);
                churn(s, CHURN_WRITES);
                grown = mapHighWater(s) - before;
            } finally {
                readers.release(snapshot);
            }
            assertThat(grown).as("map growth under a held snapshot")
                    .isGreaterThan((CHURN_WRITES - 6L) * CHURN_OBJECT);
        }
    }

    @Test
    void lingeringReadersOfEvictedObjectsSeeExactBytesUnderAWriteHeavyLoad() throws Exception {
        // Readers take every view, then linger (as a slow client does) while one writer keeps
        // overwriting and evicting, and only then check the bytes: the pages they view must not
        // have been reused although no read transaction protects them.
        try (ObjectStore s = open(dir, "capacity", "6MiB", "chunk-size", "16KiB")) {
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            AtomicLong lingeredReads = new AtomicLong();
            Thread writer = new Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                try {
                    for (long version = 1; !stop.get(); version++) {
                        CacheKey k = CacheKey.of("key-" + r.nextInt(8));
                        long size = r.nextLong(1, 300_000);
                        try (ObjectWriter w = s.begin(k, StoreFixtures.versioned(size, version))) {
                            StoreFixtures.writeBody(w, TestContent.seed(k.value(), version), 0, size, 65_536);
                            w.commit();
                        } catch (StorageFullException e) {
                            // Lingering readers may pin most of the budget.
                        }
                    }
                } catch (Throwable t) {
                    errors.add(t);
                }
            }, "writer");
            List<Thread> readers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                readers.add(new Thread(() -> {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    try {
                        while (!stop.get()) {
                            Optional<StoredObject> found = s.lookup(CacheKey.of("key-" + r.nextInt(8)));
                            if (found.isEmpty()) {
                                continue;
                            }
                            try (StoredObject o = found.get()) {
                                long version = Long.parseLong(o.metadata().header("X-Version").orElseThrow());
                                List<ByteBuffer> views = takeViews(o, r.nextInt(1_000, 70_000));
                                Thread.sleep(r.nextInt(1, 20));
                                long pos = 0;
                                for (ByteBuffer v : views) {
                                    TestContent.assertMatches("'" + o.key() + "' v" + version + " after lingering",
                                            TestContent.seed(o.key().value(), version), pos, v.duplicate());
                                    pos += v.remaining();
                                }
                                lingeredReads.incrementAndGet();
                            }
                        }
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                }, "reader-" + i));
            }
            writer.start();
            readers.forEach(Thread::start);
            long deadline = System.nanoTime() + 10_000_000_000L;
            Thread.sleep(500);
            while (System.nanoTime() < deadline && errors.isEmpty()
                    && (s.stats().evictions() + s.stats().writesCommitted() < 150 || lingeredReads.get() < 200)) {
                Thread.sleep(20);
            }
            stop.set(true);
            writer.join(20_000);
            for (Thread t : readers) {
                t.join(20_000);
            }
            assertThat(errors).isEmpty();
            assertThat(lingeredReads.get()).isGreaterThanOrEqualTo(200);
            assertThat(s.stats().writesCommitted()).isGreaterThanOrEqualTo(150);
            assertThat(extra(s)).containsEntry("readTxnsInUse", 0).containsEntry("viewLeases", 0);
        }
    }
}
