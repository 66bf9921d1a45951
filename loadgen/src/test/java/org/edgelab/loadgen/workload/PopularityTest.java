package org.edgelab.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** Popularity and size shapes, and what the object workload generates. */
class PopularityTest {

    @Test
    void zipfFollowsItsPowerLaw() {
        Popularity zipf = Popularity.parse("zipf:1.0", 1000);
        long[] counts = new long[1000];
        SplittableRandom random = new SplittableRandom(7);
        int samples = 400_000;
        for (int i = 0; i < samples; i++) {
            counts[(int) zipf.pick(random)]++;
        }
        // P(rank k) ~ 1/k: rank 1 is picked ~10x as often as rank 10 and ~100x as often as rank 100
        assertThat((double) counts[0] / counts[9]).isBetween(8.5, 11.5);
        assertThat((double) counts[0] / counts[99]).isBetween(70.0, 140.0);
        assertThat((double) counts[0] / samples).isCloseTo(zipf.probability(0), org.assertj.core.data.Offset.offset(0.01));
        // the 10 most popular objects draw about 39% of requests (H(10)/H(1000))
        long top10 = 0;
        for (int k = 0; k < 10; k++) {
            top10 += counts[k];
        }
        assertThat((double) top10 / samples).isBetween(0.37, 0.41);
    }

    @Test
    void uniformIsFlat() {
        Popularity uniform = Popularity.parse("uniform", 50);
        long[] counts = new long[50];
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 100_000; i++) {
            counts[(int) uniform.pick(random)]++;
        }
        for (long c : counts) {
            assertThat(c).isBetween(1700L, 2300L);
        }
    }

    @Test
    void badPopularityAndSizesAreRejectedClearly() {
        assertThatThrownBy(() -> Popularity.parse("pareto", 10)).hasMessageContaining("uniform or zipf:ALPHA");
        assertThatThrownBy(() -> Popularity.parse("zipf:x", 10)).hasMessageContaining("zipf:ALPHA");
        assertThatThrownBy(() -> SizeDistribution.parse("10KB:0")).hasMessageContaining("WEIGHT must be > 0");
        assertThatThrownBy(() -> SizeDistribution.parse("uniform:5-1")).hasMessageContaining("MAX must be >= MIN");
    }

    @Test
    void weightedSizesKeepTheirSharesAndEachObjectKeepsItsSize() {
        SizeDistribution sizes = SizeDistribution.parse("100KB:9,10MiB:1");
        int big = 0;
        for (long o = 0; o < 20_000; o++) {
            long s = sizes.sizeOf(11, o);
            assertThat(s).isIn(100_000L, 10L << 20);
            assertThat(sizes.sizeOf(11, o)).isEqualTo(s);
            if (s > 100_000) {
                big++;
            }
        }
        assertThat(big / 20_000.0).isBetween(0.09, 0.11);
        SizeDistribution logn = SizeDistribution.parse("lognormal:1MB:1.0:50MB");
        long below = 0;
        for (long o = 0; o < 20_000; o++) {
            long s = logn.sizeOf(5, o);
            assertThat(s).isBetween(1L, 50_000_000L);
            if (s < 1_000_000) {
                below++;
            }
        }
        assertThat(below / 20_000.0).isBetween(0.47, 0.53); // the median is the median
    }

    @Test
    void objectWorkloadSharesFirstTimeRequestsAndRanges() {
        ObjectWorkload w = ObjectWorkload.builder().objects(100).popularity("zipf:0.8").sizes("1MiB")
                .targetHitRatio(0.9).rangeSize(4096).namespace("t").build();
        RequestGenerator g = w.newGenerator(1);
        RequestSlot slot = new RequestSlot();
        Map<Boolean, Integer> firstTime = new HashMap<>();
        for (long t = 0; t < 20_000; t++) {
            g.next(t, slot);
            boolean fresh = !slot.syntheticId.matches("t[0-9]+");
            firstTime.merge(fresh, 1, Integer::sum);
            assertThat(slot.path).endsWith("/objects/1048576/" + slot.syntheticId);
            assertThat(slot.rangeEnd - slot.rangeStart + 1).isEqualTo(4096);
            assertThat(slot.rangeEnd).isLessThan(1 << 20);
        }
        assertThat(firstTime.get(true) / 20_000.0).isBetween(0.09, 0.11);
        assertThat(w.warmUp().size()).isEqualTo(100);
    }
}
