package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The index agrees with a map under random puts and removes, and costs under 64 bytes per object. */
class LogIndexTest {

    @Test
    void agreesWithAHashMapUnderRandomPutsAndRemoves() {
        LogIndex index = new LogIndex(16);
        Map<Long, long[]> model = new HashMap<>();
        Random random = new Random(1);
        for (int step = 0; step < 300_000; step++) {
            long hash = random.nextInt(20_000) * 0x9E3779B97F4A7C15L; // clustered keys stress probing
            if (random.nextInt(3) == 0) {
                int pos = index.find(hash);
                assertThat(pos >= 0).isEqualTo(model.containsKey(hash));
                if (pos >= 0) {
                    index.removeAt(pos);
                    model.remove(hash);
                }
            } else {
                long location = LogIndex.location(random.nextInt(1000), random.nextInt(1 << 20) * 8L, random.nextInt(8));
                long extent = LogIndex.extent(random.nextInt(100), random.nextInt(1 << 30));
                index.put(hash, location, extent);
                model.put(hash, new long[] {location, extent});
            }
        }
        assertThat(index.size()).isEqualTo(model.size());
        assertThat(index.liveBytes()).as("live bytes against the model")
                .isEqualTo(model.values().stream().mapToLong(v -> LogIndex.storedBytes(v[1])).sum());
        for (Map.Entry<Long, long[]> e : model.entrySet()) {
            int pos = index.find(e.getKey());
            assertThat(pos).isNotNegative();
            assertThat(index.locationAt(pos)).isEqualTo(e.getValue()[0]);
            assertThat(index.extentAt(pos)).isEqualTo(e.getValue()[1]);
        }
    }

    @Test
    void packsLocationsAndExtentsLosslessly() {
        long location = LogIndex.location((1 << 24) - 1, (1L << 40) - 8, 7);
        assertThat(LogIndex.slot(location)).isEqualTo((1 << 24) - 1);
        assertThat(LogIndex.offset(location)).isEqualTo((1L << 40) - 8);
        assertThat(LogIndex.hits(location)).isEqualTo(7);
        long extent = LogIndex.extent(LogIndex.MAX_SPAN, (1L << 48) - 1);
        assertThat(LogIndex.span(extent)).isEqualTo(LogIndex.MAX_SPAN);
        assertThat(LogIndex.storedBytes(extent)).isEqualTo((1L << 48) - 1);
        assertThat(LogIndex.verified(extent)).isFalse();
        long verified = LogIndex.verified(extent, true);
        assertThat(LogIndex.verified(verified)).isTrue();
        assertThat(LogIndex.span(verified)).as("the flag leaves the span alone").isEqualTo(LogIndex.MAX_SPAN);
        assertThat(LogIndex.storedBytes(verified)).isEqualTo((1L << 48) - 1);
        assertThat(LogIndex.verified(verified, false)).isEqualTo(extent);
    }

    @Test
    void oneMillionEntriesCostLessThan64BytesEach() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long heapBefore = rt.totalMemory() - rt.freeMemory();
        LogIndex index = new LogIndex(1024);
        Random random = new Random(3);
        int n = 1_000_000;
        for (int i = 0; i < n; i++) {
            index.put(random.nextLong(), LogIndex.location(i % 4096, (i % 100_000) * 8L, 0), LogIndex.extent(0, 100_000));
        }
        System.gc();
        long heapAfter = rt.totalMemory() - rt.freeMemory();
        double perObject = (double) index.allocatedBytes() / index.size();
        double heapPerObject = (double) (heapAfter - heapBefore) / index.size();
        System.out.printf("raw-log index: %d entries in %d table slots, %d bytes of arrays = %.1f bytes/object"
                        + " (heap delta after GC %.1f bytes/object)%n",
                index.size(), index.capacity(), index.allocatedBytes(), perObject, heapPerObject);
        assertThat(index.size()).isEqualTo(n);
        assertThat(perObject).isLessThan(64.0);
    }
}
