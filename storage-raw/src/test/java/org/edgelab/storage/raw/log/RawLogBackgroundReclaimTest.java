package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reclaim re-appends the read objects of the oldest segment. It ran in the writer whose rotation found the log short
 * of free slots, with the store's lock held across the copy, so every other writer waited for it: under a uniform 1 GB
 * set in a 4 GB store, every miss stopped for 1-2 s per reclaim (docs/BENCHMARKS.md, 2026-12-07). Now a background
 * thread copies, and writers go on while a free slot is left for them. Here the copy is held on its first read of the
 * victim (as a slow device would hold it) while objects are written; they must complete, no writer waiting, before it
 * is let go, and the warm set must survive the reclaim.
 */
class RawLogBackgroundReclaimTest {

    private static final long SEGMENT = 256 * 1024;
    private static final int SEGMENTS = 16;
    private static final long SIZE = 20_000; // twelve a segment
    private static final int WARM = 12; // the first segment
    /** Objects written while the copy is held: a third of the fresh segment the reclaim's rotation activated. */
    private static final int DURING_COPY = 4;

    @TempDir
    Path dir;

    @Test
    void writersGoOnWhileAReclaimsCopyIsHeldOnTheDevice() throws Exception {
        CountDownLatch copyStarted = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        SegmentChannels hooked = (disk, file) -> {
            boolean first = file.getFileName().toString().equals(Segment.fileName(0));
            return new FaultyChannel(SegmentChannels.FILES.open(disk, file), () -> {
                if (first && Thread.currentThread().getName().startsWith("raw-log-reclaim")) {
                    copyStarted.countDown();
                    try {
                        letGo.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return false; // never fails: the hook only holds the reclaim's reads of the oldest segment
            });
        };
        RawLogConfig config = RawLogFixtures.config(dir, 1, SEGMENTS * SEGMENT, SEGMENT, RawLogConfig.Policy.REINSERT);
        try (RawLogShards store = RawLogShards.open("raw-log", config, hooked)) {
            for (int i = 0; i < WARM; i++) {
                put(store, "warm-" + i);
                assertThat(RawLogFixtures.check(store, CacheKey.of("warm-" + i), SIZE))
                        .isEqualTo(RawLogFixtures.Outcome.EXACT);
            }
            int cold = 0;
            while ((Long) store.stats().extra().get("segmentsReclaimedInBackground") == 0
                    && ((Number) store.stats().extra().get("segmentsBeingReclaimed")).intValue() == 0) {
                assertThat(cold).as("cold objects written before the first reclaim").isLessThan(SEGMENTS * 12 + 12);
                put(store, "cold-" + cold++);
            }
            // the rotation that chose the oldest segment activated a fresh one; its copy is now held on the device
            assertThat(copyStarted.await(20, TimeUnit.SECONDS)).as("the reclaim's copy began").isTrue();
            int from = cold;
            CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                for (int i = from; i < from + DURING_COPY; i++) {
                    try {
                        put(store, "cold-" + i);
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }
            });
            try {
                writes.get(30, TimeUnit.SECONDS);
                assertThat(copyStarted.getCount()).isZero();
                assertThat(letGo.getCount()).as("the copy was held while they were written").isOne();
                assertThat((Long) store.stats().extra().get("writersWaitedForReclaim"))
                        .as("writers that waited for the reclaim").isZero();
            } finally {
                letGo.countDown();
            }
            awaitReclaimed(store);
            assertThat((Long) store.stats().extra().get("evictedAfterRead")).as("read objects evicted").isZero();
            assertThat((Long) store.stats().extra().get("segmentsEvictedInline")).as("reclaims done by writers").isZero();
            for (int i = 0; i < WARM; i++) {
                assertThat(RawLogFixtures.check(store, CacheKey.of("warm-" + i), SIZE)).as("warm-%d, re-appended", i)
                        .isEqualTo(RawLogFixtures.Outcome.EXACT);
            }
            for (int i = from; i < from + DURING_COPY; i++) {
                assertThat(RawLogFixtures.check(store, CacheKey.of("cold-" + i), SIZE)).as("cold-%d, written during the copy", i)
                        .isEqualTo(RawLogFixtures.Outcome.EXACT);
            }
        }
    }

    /** Waits until the held reclaim has re-appended the warm set and freed its victim. */
    private static void awaitReclaimed(RawLogShards store) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while ((Long) store.stats().extra().get("segmentsReclaimedInBackground") == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat((Long) store.stats().extra().get("segmentsReclaimedInBackground")).as("reclaims done").isPositive();
    }

    private static void put(RawLogShards store, String key) throws Exception {
        StoreFixtures.put(store, CacheKey.of(key), TestContent.seed(key), SIZE, 16_384);
    }
}
