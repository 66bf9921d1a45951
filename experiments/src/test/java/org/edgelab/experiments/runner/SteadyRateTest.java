package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.edgelab.experiments.descriptor.Settle;
import org.edgelab.loadgen.StopSignal;
import org.junit.jupiter.api.Test;

/** When a steady-state settle calls req/s steady: the spread of its last windows, (max - min) / mean, within the tolerance. */
class SteadyRateTest {

    private static final Settle AUTO = Settle.steady(Duration.ofSeconds(30), 0.05, 3);

    @Test
    void threeWindowsWithinFivePercentStopTheSettleAndNotBefore() {
        StopSignal stop = new StopSignal();
        SteadyRate watch = new SteadyRate(AUTO, stop, null);
        watch.interval(500, 1.0);   // a JVM still warming up
        watch.interval(900, 1.0);
        watch.interval(1000, 1.0);
        assertThat(stop.stopped()).as("500, 900, 1000: spread 0.6").isFalse();
        assertThat(watch.spread()).isGreaterThan(0.5);
        watch.interval(1020, 1.02); // 1000/s
        assertThat(stop.stopped()).as("900, 1000, 1000: spread 0.1").isFalse();
        watch.interval(1030, 1.0);
        assertThat(stop.stopped()).as("1000, 1000, 1030: spread 0.03").isTrue();
        assertThat(watch.steady()).isTrue();
        assertThat(watch.spread()).isBetween(0.029, 0.03);
        assertThat(watch.windows()).containsExactly(500.0, 900.0, 1000.0, 1000.0, 1030.0);
    }

    @Test
    void windowsWithoutCompletionsAreNeverSteady() {
        StopSignal stop = new StopSignal();
        SteadyRate watch = new SteadyRate(AUTO, stop, null);
        for (int i = 0; i < 5; i++) {
            watch.interval(0, 1.0);
        }
        assertThat(stop.stopped()).isFalse();
        assertThat(watch.spread()).isInfinite();
        assertThat(SteadyRate.spread(List.of(10.0, 10.0))).isZero();
    }

    @Test
    void atAFewRequestsASecondWindowsOneRequestApartAreSteady() {
        // 14 and 15 requests: 7 % apart, but no window can count less than one request
        StopSignal stop = new StopSignal();
        SteadyRate watch = new SteadyRate(AUTO, stop, null);
        watch.interval(14, 1.0);
        watch.interval(15, 1.0);
        watch.interval(13, 1.0);
        assertThat(stop.stopped()).as("13 to 15: two requests apart").isFalse();
        watch.interval(14, 1.0);
        assertThat(stop.stopped()).as("15, 13, 14").isFalse();
        watch.interval(14, 1.0);
        assertThat(stop.stopped()).as("13, 14, 14: one request apart").isTrue();
        assertThat(watch.spread()).isGreaterThan(0.05);
    }

    @Test
    void everyWindowIsPassedOnToTheProgressLine() {
        long[] told = new long[1];
        SteadyRate watch = new SteadyRate(AUTO, new StopSignal(), (completed, seconds) -> told[0] += completed);
        watch.interval(7, 1.0);
        watch.interval(8, 1.0);
        assertThat(told[0]).isEqualTo(15);
    }
}
