package org.edgelab.loadgen.workers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.measure.IntervalSnapshot;
import org.junit.jupiter.api.Test;

/** The k-th intervals of every worker told as one, once all have reported, in order. */
class IntervalSumTest {

    private static IntervalSnapshot snapshot(double since, long completed) {
        return new IntervalSnapshot(since, 1.0, completed, Counters.ZERO);
    }

    @Test
    void tellsEachIntervalOnceEveryWorkerReportedIt() {
        List<IntervalSnapshot> told = new ArrayList<>();
        IntervalSum sum = new IntervalSum(IntervalListener.ofSnapshots(told::add), 3);
        IntervalListener w0 = sum.worker(0);
        IntervalListener w1 = sum.worker(1);
        IntervalListener w2 = sum.worker(2);
        w0.interval(snapshot(1.0, 10));
        w0.interval(snapshot(2.0, 11));
        w1.interval(snapshot(1.01, 20));
        assertThat(told).isEmpty();
        w2.interval(snapshot(1.02, 30));
        assertThat(told).hasSize(1);
        assertThat(told.get(0).completed()).isEqualTo(60);
        assertThat(told.get(0).secondsSinceStart()).isEqualTo(1.02);
        w2.interval(snapshot(2.02, 31));
        w1.interval(snapshot(2.01, 21));
        assertThat(told).extracting(IntervalSnapshot::completed).containsExactly(60L, 63L);
        w0.interval(snapshot(3.0, 5)); // the others stopped first: never told
        assertThat(told).hasSize(2);
    }
}
