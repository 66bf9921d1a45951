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
        try (RawLogShards store = RawLogFixtures.open(config)) {
            List<CacheKey> order = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                CacheKey k = CacheKey.of("o-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), SIZE, 32_768);
                order.add(k);
                StoreUsage u = store.usage();
                assertThat(u.usedBytes()).isLessThanOrEqualTo(u.capacityBytes());
            }
            // each disk keeps a log of its own: on each, the objects kept are exactly its newest ones
            int evicted = 0;
            for (int disk = 0; disk < 2; disk++) {
                int firstPresent = -1;
                int ofDisk = 0;
                for (int i = 0; i < order.size(); i++) {
                    if (store.homeDiskOf(order.get(i)) != disk) {
                        continue;
                    }
                    RawLogFixtures.Outcome o = RawLogFixtures.check(store, order.get(i), SIZE);
                    if (o == RawLogFixtures.Outcome.EXACT && firstPresent < 0) {
                        firstPresent = ofDisk;
                    }
                    if (firstPresent >= 0) {
                        assertThat(o).as("disk %d's object %d after its oldest survivor %d", disk, ofDisk, firstPresent)
                                .isEqualTo(RawLogFixtures.Outcome.EXACT);
                    }
                    ofDisk++;
                }
                System.out.printf("raw-log fifo, disk %d: %d of its %d objects of 100 KB kept in 4 MiB%n", disk,
                        ofDisk - firstPresent, ofDisk);
                assertThat(firstPresent).as("objects evicted from disk %d", disk).isPositive();
                evicted += firstPresent;
            }
            assertThat(store.stats().evictions()).isEqualTo(evicted);
            assertThat(store.usage().objectCount()).isEqualTo(200 - evicted);
        }
    }

    @Test
    void reinsertionKeepsAnObjectThatIsReadWhileFifoLosesIt() throws Exception {
        assertThat(hotObjectSurvives(RawLogConfig.Policy.FIFO, dir.resolve("fifo"))).isFalse();
        assertThat(hotObjectSurvives(RawLogConfig.Policy.REINSERT, dir.resolve("reinsert"))).isTrue();
    }

    private boolean hotObjectSurvives(RawLogConfig.Policy policy, Path where) throws Exception {
        RawLogConfig config = RawLogFixtures.config(where, 1, 8L << 20, 1L << 20, policy);
        try (RawLogShards store = RawLogFixtures.open(config)) {
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
