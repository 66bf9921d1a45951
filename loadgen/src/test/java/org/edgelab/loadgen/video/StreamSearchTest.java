package org.edgelab.loadgen.video;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The search's choice of counts against fake health oracles: what it brackets, what it measures, where it stops. */
class StreamSearchTest {

    private static final Duration W = Duration.ofMillis(1);

    /** Healthy up to {@code limit} streams; records every count asked for. */
    private static final class Threshold implements StreamSearch.Oracle {
        final int limit;
        final List<Integer> asked = new ArrayList<>();

        Threshold(int limit) {
            this.limit = limit;
        }

        @Override
        public boolean healthy(int streams) {
            asked.add(streams);
            return streams <= limit;
        }
    }

    @Test
    void bracketFindsTheExactLimitByDoublingThenBisecting() throws InterruptedException {
        for (int limit = 1; limit <= 300; limit++) {
            Threshold oracle = new Threshold(limit);
            StreamSearch.Outcome o = StreamSearch.run(SearchPlan.bracket(2, 4096, 1, W, W), oracle);
            assertThat(o.sustained()).as("limit %d", limit).isEqualTo(limit);
            assertThat(o.firstUnhealthy()).as("limit %d", limit).hasValue(limit + 1);
            assertThat(o.maxReached()).isFalse();
            assertThat(o.probes()).isEqualTo(oracle.asked);
            // both ends of the bracket were measured, never guessed
            if (limit >= 2) {
                assertThat(oracle.asked).contains(limit);
            }
            assertThat(oracle.asked).contains(limit + 1);
            // doubling, then at most log2 of the bracket's width of bisection steps
            int doublings = 0;
            for (int n = 2; n <= limit; n *= 2) {
                doublings++;
            }
            assertThat(oracle.asked).startsWith(2);
            assertThat(oracle.asked.size()).as("limit %d: %s", limit, oracle.asked)
                    .isLessThanOrEqualTo(doublings + 1 + (int) Math.ceil(Math.log(Math.max(2, 1 << doublings)) / Math.log(2)));
            // no count at or above a known unhealthy one is asked again
            int lowestUnhealthy = Integer.MAX_VALUE;
            for (int n : oracle.asked) {
                assertThat(n).isLessThan(lowestUnhealthy);
                if (n > limit) {
                    lowestUnhealthy = n;
                }
            }
        }
    }

    @Test
    void aBuildHealthyAtTheMaximumSaysSoAndIsNeverAskedBeyondIt() throws InterruptedException {
        Threshold oracle = new Threshold(1_000_000);
        StreamSearch.Outcome o = StreamSearch.run(SearchPlan.bracket(3, 100, 1, W, W), oracle);
        assertThat(oracle.asked).containsExactly(3, 6, 12, 24, 48, 96, 100);
        assertThat(o.maxReached()).isTrue();
        assertThat(o.sustained()).isEqualTo(100);
        assertThat(o.firstUnhealthy()).isEmpty();
    }

    @Test
    void unhealthyFromTheFirstStepBisectsDownToNone() throws InterruptedException {
        Threshold oracle = new Threshold(0);
        StreamSearch.Outcome o = StreamSearch.run(SearchPlan.bracket(8, 64, 1, W, W), oracle);
        assertThat(oracle.asked).containsExactly(8, 4, 2, 1);
        assertThat(o.sustained()).isZero();
        assertThat(o.firstUnhealthy()).hasValue(1);
        assertThat(o.maxReached()).isFalse();
    }

    @Test
    void resolutionStopsTheBisectionWhenTheBracketIsThatNarrow() throws InterruptedException {
        for (int limit = 4; limit <= 200; limit++) {
            Threshold oracle = new Threshold(limit);
            StreamSearch.Outcome o = StreamSearch.run(SearchPlan.bracket(4, 1024, 5, W, W), oracle);
            int hi = o.firstUnhealthy().orElseThrow();
            assertThat(hi - o.sustained()).as("limit %d", limit).isBetween(1, 5);
            assertThat(o.sustained()).isLessThanOrEqualTo(limit);
            assertThat(hi).isGreaterThan(limit);
        }
    }

    @Test
    void aNoisyOracleStillGivesAMeasuredHealthyCountBelowAMeasuredUnhealthyOne() throws InterruptedException {
        Random random = new Random(15);
        for (int run = 0; run < 500; run++) {
            Map<Integer, Boolean> answers = new HashMap<>();
            int limit = 5 + random.nextInt(100);
            StreamSearch.Outcome o = StreamSearch.run(SearchPlan.bracket(1, 512, 1, W, W), n -> {
                // about the limit, the answer is a coin toss
                boolean healthy = Math.abs(n - limit) < 6 ? random.nextBoolean() : n < limit;
                answers.put(n, healthy);
                return healthy;
            });
            int hi = o.firstUnhealthy().orElseThrow();
            assertThat(answers.get(hi)).isFalse();
            if (o.sustained() > 0) {
                assertThat(answers.get(o.sustained())).isTrue();
            }
            assertThat(hi - o.sustained()).isEqualTo(1);
            assertThat(answers.entrySet().stream().filter(e -> !e.getValue()).mapToInt(Map.Entry::getKey).min().orElseThrow())
                    .as("the lowest unhealthy count measured").isEqualTo(hi);
        }
    }

    @Test
    void linearAddsTheStepUntilTheFirstUnhealthyCount() throws InterruptedException {
        Threshold oracle = new Threshold(9);
        StreamSearch.Outcome o = StreamSearch.run(new SearchPlan(2, 3, 50, W, W), oracle);
        assertThat(oracle.asked).containsExactly(2, 5, 8, 11);
        assertThat(o.sustained()).isEqualTo(8);
        assertThat(o.firstUnhealthy()).hasValue(11);
        Threshold capped = new Threshold(100);
        StreamSearch.Outcome c = StreamSearch.run(new SearchPlan(2, 3, 10, W, W), capped);
        assertThat(capped.asked).containsExactly(2, 5, 8, 10);
        assertThat(c.maxReached()).isTrue();
    }

    @Test
    void anUnhealthyStepIsMeasuredAgainAndOneHealthyMeasurementKeepsTheSearchGoing() throws InterruptedException {
        // limit 40; the first measurement of 32 misses the rule by a hair, its recheck does not
        Map<Integer, Integer> measured = new HashMap<>();
        StreamSearch.Oracle flaky = n -> {
            int times = measured.merge(n, 1, Integer::sum);
            return n <= 40 && !(n == 32 && times == 1);
        };
        SearchPlan plan = new SearchPlan(SearchPlan.Growth.BRACKET, 8, 1, 1024, 1, W, W, 1);
        StreamSearch.Outcome o = StreamSearch.run(plan, flaky);
        assertThat(o.probes()).startsWith(8, 16, 32, 32, 64, 64);
        assertThat(o.sustained()).isEqualTo(40);
        assertThat(o.firstUnhealthy()).hasValue(41);
        assertThat(plan.describe()).contains("measured again once");

        // one measurement decides: the same hair ends the doubling at 16
        measured.clear();
        StreamSearch.Outcome once = StreamSearch.run(SearchPlan.bracket(8, 1024, 1, W, W), flaky);
        assertThat(once.probes()).startsWith(8, 16, 32);
        assertThat(once.sustained()).isLessThan(32);
        assertThat(once.firstUnhealthy()).hasValue(once.sustained() + 1);
    }

    @Test
    void aRecheckOutsideItsRangeIsRefused() {
        assertThatThrownBy(
                () -> new SearchPlan(SearchPlan.Growth.BRACKET, 8, 1, 1024, 1, W, W, SearchPlan.MAX_RECHECK + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rechecks");
    }
}
