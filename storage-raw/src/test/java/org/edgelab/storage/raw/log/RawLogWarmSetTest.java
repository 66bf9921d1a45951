package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Random;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The varnish-edge workload in small, against the store alone: a warm set of half the capacity
 * read uniformly by 92.5 % of requests, and never-seen objects for the other 7.5 %, each stored
 * on its miss, until the log has wrapped several times. A store that keeps its warm set answers
 * nearly every warm request from it; FIFO by segment overwrites the warm set once per wrap.
 * Objects from a fifth of a segment to four segments long, so that objects spanning segments are
 * kept too.
 */
class RawLogWarmSetTest {

    private static final long CAPACITY = 64L << 20;
    private static final long SEGMENT = 1L << 20;
    private static final long WARM_BYTES = CAPACITY / 2;
    private static final double WARM_SHARE = 0.925;
    private static final int WRAPS = 3;

    @TempDir
    Path dir;

    /** Warm hits per warm request once the log has wrapped, and the objects re-appended. */
    private record Result(double warmHitRatio, long reinserted, long evictions, long evictedAfterRead) {
    }

    @ParameterizedTest
    @ValueSource(longs = {200_000, 1_000_000, 4_000_000})
    void theDefaultPolicyKeepsTheWarmSetWhereFifoOverwritesIt(long size) throws IOException {
        Result byDefault = run(size, null, dir.resolve("default"));
        Result fifo = run(size, "fifo", dir.resolve("fifo"));
        System.out.printf("raw-log warm set, objects of %d B: default %s, fifo %s%n", size, byDefault, fifo);
        assertThat(byDefault.warmHitRatio()).as("warm hits per warm request, default policy").isGreaterThanOrEqualTo(0.99);
        assertThat(byDefault.reinserted()).isPositive();
        assertThat(fifo.warmHitRatio()).as("fifo overwrites the warm set once per wrap").isLessThan(byDefault.warmHitRatio());
        assertThat(fifo.evictedAfterRead()).as("read objects fifo evicted").isPositive()
                .isGreaterThan(byDefault.evictedAfterRead());
    }

    private Result run(long size, String policy, Path storeDir) throws IOException {
        PluginSettings settings = PluginSettings.of("disks", storeDir.toString(), "capacity", Long.toString(CAPACITY),
                "segment-size", Long.toString(SEGMENT), "checkpoint-interval", "0");
        if (policy != null) {
            settings = settings.with("policy", policy);
        }
        int warm = (int) (WARM_BYTES / size);
        long coldBytesToWrite = WRAPS * (CAPACITY - WARM_BYTES);
        Random random = new Random(size);
        try (RawLogShards store = RawLogShards.open(RawLogEngine.NAME, RawLogConfig.from(settings), SegmentChannels.FILES)) {
            for (int i = 0; i < warm; i++) {
                put(store, CacheKey.of("warm-" + i), size);
            }
            long coldWritten = 0;
            long warmRequests = 0;
            long warmHits = 0;
            int cold = 0;
            while (coldWritten < coldBytesToWrite) {
                boolean measuring = coldWritten >= CAPACITY - WARM_BYTES; // after the first wrap
                if (random.nextDouble() < WARM_SHARE) {
                    CacheKey k = CacheKey.of("warm-" + random.nextInt(warm));
                    boolean hit = hit(store, k, size);
                    if (!hit) {
                        put(store, k, size);
                    }
                    if (measuring) {
                        warmRequests++;
                        warmHits += hit ? 1 : 0;
                    }
                } else {
                    CacheKey k = CacheKey.of("cold-" + cold++);
                    assertThat(hit(store, k, size)).isFalse();
                    put(store, k, size);
                    coldWritten += size;
                }
            }
            return new Result((double) warmHits / warmRequests, (Long) store.stats().extra().get("reinsertedObjects"),
                    store.stats().evictions(), (Long) store.stats().extra().get("evictedAfterRead"));
        }
    }

    private static void put(RawLogShards store, CacheKey k, long size) throws IOException {
        StoreFixtures.put(store, k, TestContent.seed(k.value()), size, 256 * 1024);
    }

    /** Looks the key up and, when found, reads a piece of it as a client would, checking the bytes. */
    private static boolean hit(RawLogShards store, CacheKey k, long size) throws IOException {
        Optional<StoredObject> found = store.lookup(k);
        if (found.isEmpty()) {
            return false;
        }
        try (StoredObject o = found.get()) {
            assertThat(o.availableLength()).isEqualTo(size);
            ByteBuffer b = ByteBuffer.allocate(4096);
            long at = size - b.capacity();
            o.read(at, b);
            b.flip();
            TestContent.assertMatches(k.value(), TestContent.seed(k.value()), at, b);
            return true;
        }
    }
}
