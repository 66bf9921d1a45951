package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several writers interleave their extents in the same segments while readers verify whatever
 * they find and segments are reclaimed (with reinsertion) under them; then a restart brings back
 * only byte-exact objects.
 */
class RawLogConcurrencyTest {

    @TempDir
    Path dir;

    @Test
    void interleavedWritersReadersAndReclaimsNeverServeWrongBytes() throws Exception {
        RawLogConfig config = RawLogFixtures.config(dir, 2, 16L << 20, 256L << 10, RawLogConfig.Policy.REINSERT);
        int keys = 40;
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong verified = new AtomicLong();
        AtomicLong version = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try (RawLogShards store = RawLogFixtures.open(config)) {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                writers.add(pool.submit(() -> {
                    Random random = new Random(id);
                    for (int i = 0; i < 60 && errors.isEmpty(); i++) {
                        long v = version.incrementAndGet();
                        CacheKey k = CacheKey.of("k" + random.nextInt(keys));
                        long size = 1 + random.nextInt(600_000);
                        ObjectMetadata m = StoreFixtures.versioned(random.nextBoolean() ? size : ObjectMetadata.UNKNOWN_LENGTH, v);
                        try (ObjectWriter w = store.begin(k, m)) {
                            StoreFixtures.writeBody(w, TestContent.seed(k.value(), v), 0, size, 1000 + random.nextInt(70_000));
                            if (random.nextInt(10) > 0) {
                                w.commit(StoreFixtures.versioned(size, v));
                            }
                        } catch (StorageFullException e) {
                            // readers may pin every segment for a moment
                        } catch (Throwable e) {
                            errors.add(e);
                        }
                    }
                }));
            }
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int id = r;
                readers.add(pool.submit(() -> {
                    Random random = new Random(100 + id);
                    while (!done.get() && errors.isEmpty()) {
                        try {
                            verifyIfPresent(store, CacheKey.of("k" + random.nextInt(keys)), verified);
                        } catch (Throwable e) {
                            errors.add(e);
                        }
                    }
                }));
            }
            for (Future<?> f : writers) {
                f.get(60, TimeUnit.SECONDS);
            }
            done.set(true);
            for (Future<?> f : readers) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertThat(errors).as("errors").isEmpty();
            System.out.printf("raw-log concurrency: %d verified reads; %s; evictions %d, reinserted %s%n",
                    verified.get(), store.usage(), store.stats().evictions(),
                    store.stats().extra().get("reinsertedObjects"));
            assertThat(verified.get()).isPositive();
            assertThat(store.stats().evictions()).isPositive();
            assertThat(store.stats().corruptObjectsDropped()).isZero();
        } finally {
            pool.shutdownNow();
        }
        try (RawLogShards store = RawLogFixtures.open(config)) {
            AtomicLong afterRestart = new AtomicLong();
            for (int i = 0; i < keys; i++) {
                verifyIfPresent(store, CacheKey.of("k" + i), afterRestart);
            }
            assertThat(afterRestart.get()).isEqualTo(store.usage().objectCount()).isPositive();
        }
    }

    private static void verifyIfPresent(RawLogShards store, CacheKey k, AtomicLong verified) throws Exception {
        Optional<StoredObject> found = store.lookup(k);
        if (found.isEmpty()) {
            return;
        }
        try (StoredObject o = found.get()) {
            long v = Long.parseLong(o.metadata().header("X-Version").orElseThrow());
            long seed = TestContent.seed(k.value(), v);
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            long pos = 0;
            while (pos < o.availableLength()) {
                buf.clear();
                int n = o.read(pos, buf);
                assertThat(n).isPositive();
                buf.flip();
                TestContent.assertMatches(k.value(), seed, pos, buf);
                pos += n;
            }
            assertThat(pos).isEqualTo(o.metadata().length());
            verified.incrementAndGet();
        } catch (CorruptObjectException e) {
            throw new AssertionError("a healthy store reported " + k + " corrupt", e);
        }
    }
}
