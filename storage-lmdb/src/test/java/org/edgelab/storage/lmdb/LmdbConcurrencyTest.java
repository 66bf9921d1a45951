package org.edgelab.storage.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * Many readers and one writer on a store small enough to evict all the time: every read of every
 * version is byte-exact (never torn between versions or chunks), through read() and view().
 */
class LmdbConcurrencyTest {

    /** Live bodies average about 200 KB: 24 keys hold about 4.8 MB, more than the 4 MiB capacity, so every run evicts. */
    private static final int KEYS = 24;
    private static final int READERS = 12;

    @Test
    void manyReadersAndOneWriterNeverSeeTornData(@TempDir Path dir) throws Exception {
        try (ObjectStore store = StorageEngines.open("lmdb", PluginSettings.of(
                "path", dir.toString(), "capacity", "4MiB", "chunk-size", "16KiB", "sync", "nosync"))) {
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            AtomicLong verifiedReads = new AtomicLong();
            AtomicLong commits = new AtomicLong();
            AtomicLong refused = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            threads.add(new Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                try {
                    for (long version = 1; !stop.get(); version++) {
                        CacheKey k = CacheKey.of("key-" + r.nextInt(KEYS));
                        long size = r.nextLong(1, 400_000);
                        long seed = TestContent.seed(k.value(), version);
                        try (ObjectWriter w = store.begin(k, StoreFixtures.versioned(size, version))) {
                            StoreFixtures.writeBody(w, seed, 0, size, r.nextInt(1000, 100_000));
                            w.commit();
                            commits.incrementAndGet();
                        } catch (StorageFullException e) {
                            // Legitimate when the readers happen to pin most of the budget.
                            refused.incrementAndGet();
                        }
                        if (version % 17 == 0) {
                            store.remove(CacheKey.of("key-" + r.nextInt(KEYS)));
                        }
                    }
                } catch (Throwable t) {
                    errors.add(t);
                }
            }, "writer"));
            for (int i = 0; i < READERS; i++) {
                boolean useViews = i % 3 == 0;
                threads.add(new Thread(() -> {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    try {
                        while (!stop.get()) {
                            CacheKey k = CacheKey.of("key-" + r.nextInt(KEYS));
                            Optional<StoredObject> found = store.lookup(k);
                            if (found.isEmpty()) {
                                continue;
                            }
                            try (StoredObject o = found.get()) {
                                long version = Long.parseLong(o.metadata().header("X-Version").orElseThrow());
                                long seed = TestContent.seed(k.value(), version);
                                long size = o.metadata().length();
                                assertThat(o.availableLength()).isEqualTo(size);
                                if (useViews && size > 0) {
                                    assertThat(StoreFixtures.verifyViews(o, seed, 0, size, 40_000)).isTrue();
                                } else {
                                    StoreFixtures.verifyRead(o, seed, 0, size, r.nextInt(1, 200_000));
                                    assertThat(o.read(size, ByteBuffer.allocate(8))).isEqualTo(-1);
                                }
                                verifiedReads.incrementAndGet();
                            }
                        }
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                }, "reader-" + i));
            }
            threads.forEach(Thread::start);
            long deadline = System.nanoTime() + 10_000_000_000L;
            Thread.sleep(1000);
            while (System.nanoTime() < deadline && errors.isEmpty()
                    && (store.stats().evictions() < 5 || commits.get() < 40 || verifiedReads.get() < 100)) {
                Thread.sleep(50);
            }
            stop.set(true);
            for (Thread t : threads) {
                t.join(20_000);
                assertThat(t.isAlive()).as("%s still running", t.getName()).isFalse();
            }
            assertThat(errors).isEmpty();
            assertThat(commits.get()).as("commits (%d refused while readers pinned the budget)", refused.get())
                    .isGreaterThanOrEqualTo(40);
            assertThat(verifiedReads.get()).isGreaterThanOrEqualTo(100);
            assertThat(store.usage().usedBytes()).isLessThanOrEqualTo(store.usage().capacityBytes());
            assertThat(store.stats().evictions()).isGreaterThanOrEqualTo(5);
            assertThat(store.stats().extra()).containsEntry("readTxnsInUse", 0);
        }
    }
}
