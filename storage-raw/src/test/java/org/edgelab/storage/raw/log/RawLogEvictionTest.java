package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.StoreUsage;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eviction a segment at a time: under FIFO what survives is exactly the newest objects (space is
 * reclaimed whole, in write order, never fragmented); under reinsertion an object read between
 * reclaims survives a stream of new writes that FIFO would have evicted it under.
 */
class RawLogEvictionTest {

    private static final long SIZE = 100_000;

    @TempDir
    Path dir;

    @Test
    void fifoKeepsExactlyTheNewestObjects() throws Exception {
        RawLogConfig config = RawLogFixtures.config(dir, 2, 8L << 20, 1L << 20, RawLogConfig.Policy.FIFO);
        try (RawLogStore store = RawLogFixtures.open(config)) {
            List<CacheKey> order = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                CacheKey k = CacheKey.of("o-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), SIZE, 32_768);
                order.add(k);
                StoreUsage u = store.usage();
                assertThat(u.usedBytes()).isLessThanOrEqualTo(u.capacityBytes());
            }
            int firstPresent = -1;
            for (int i = 0; i < order.size(); i++) {
                RawLogFixtures.Outcome o = RawLogFixtures.check(store, order.get(i), SIZE);
                if (o == RawLogFixtures.Outcome.EXACT && firstPresent < 0) {
                    firstPresent = i;
                }
                if (firstPresent >= 0) {
                    assertThat(o).as("object %d after the oldest survivor %d", i, firstPresent)
                            .isEqualTo(RawLogFixtures.Outcome.EXACT);
                }
            }
            System.out.printf("raw-log fifo: %d of 200 objects of 100 KB kept in 8 MiB; %s%n", 200 - firstPresent,
                    store.usage());
            assertThat(firstPresent).isPositive();
            assertThat(store.stats().evictions()).isEqualTo(firstPresent);
            assertThat(store.usage().objectCount()).isEqualTo(200 - firstPresent);
        }
    }

    @Test
    void reinsertionKeepsAnObjectThatIsReadWhileFifoLosesIt() throws Exception {
        assertThat(hotObjectSurvives(RawLogConfig.Policy.FIFO, dir.resolve("fifo"))).isFalse();
        assertThat(hotObjectSurvives(RawLogConfig.Policy.REINSERT, dir.resolve("reinsert"))).isTrue();
    }

    private boolean hotObjectSurvives(RawLogConfig.Policy policy, Path where) throws Exception {
        RawLogConfig config = RawLogFixtures.config(where, 1, 8L << 20, 1L << 20, policy);
        try (RawLogStore store = RawLogFixtures.open(config)) {
            CacheKey hot = CacheKey.of("hot");
            StoreFixtures.put(store, hot, TestContent.seed(hot.value()), SIZE, 32_768);
            boolean alive = true;
            for (int i = 0; i < 300 && alive; i++) {
                CacheKey k = CacheKey.of("cold-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), SIZE, 32_768);
                if (i % 5 == 0) {
                    alive = RawLogFixtures.check(store, hot, SIZE) == RawLogFixtures.Outcome.EXACT;
                }
            }
            System.out.printf("raw-log %s: hot object %s after 30 MB of cold writes into 8 MiB; reinserted %s%n",
                    policy, alive ? "kept" : "evicted", store.stats().extra().get("reinsertedObjects"));
            if (policy == RawLogConfig.Policy.REINSERT) {
                assertThat((Long) store.stats().extra().get("reinsertedObjects")).isPositive();
            }
            return alive;
        }
    }
}
