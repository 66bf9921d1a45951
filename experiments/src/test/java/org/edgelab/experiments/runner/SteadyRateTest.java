package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

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
    void aSettleWithALeastLengthGoesOnThroughASteadyPlateauUntilItHasRunThatLong() {
        Settle least = Settle.steady(Duration.ofSeconds(30), 0.05, 3, 0, Duration.ofSeconds(5));
        StopSignal stop = new StopSignal();
        SteadyRate watch = new SteadyRate(least, stop, null);
        for (int i = 1; i <= 4; i++) {
            watch.interval(1000, 1.0);
            assertThat(stop.stopped()).as("window %d of a steady 1000/s: under the 5 s least", i).isFalse();
        }
        watch.interval(1000, 1.0);
        assertThat(stop.stopped()).as("5 s run").isTrue();

        // a second run of the same settle counts the first run's seconds
        StopSignal again = new StopSignal();
        SteadyRate second = new SteadyRate(least, again, null, false, 4.0);
        for (int i = 1; i <= 2; i++) {
            second.interval(1000, 1.0);
            assertThat(again.stopped()).as("window %d: 3 windows not seen yet", i).isFalse();
        }
        second.interval(1000, 1.0);
        assertThat(again.stopped()).as("4 s before and 3 s now").isTrue();
        assertThat(least.describe()).startsWith("the same load unrecorded for at least 5s and then until");
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

    @Test
    void whileTheServersJitCompilesSteadyReqPerSecondIsNotSteadyYet() {
        StopSignal stop = new StopSignal();
        SteadyRate watch = new SteadyRate(AUTO, stop, null, true);
        assertThat(watch.watchingJit()).isTrue();
        long s = 1_000_000_000L;
        long t = 5 * s;
        // req/s steady from the first window, but the JVM compiles 400 ms every second
        watch.jitReading(t - 3 * s, 1_000);
        for (int i = 0; i < 5; i++) {
            watch.jitReading(t + i * s, 1_000 + 400L * (i + 3));
            watch.interval(1000, 1.0);
            assertThat(stop.stopped()).as("window %d: 400 ms/s of JIT", i + 1).isFalse();
        }
        assertThat(watch.jitMsPerSecond()).isEqualTo(400.0);
        // the compiler goes quiet: 20 ms over the next 3 s, then nothing
        long total = 1_000 + 400L * 7;
        watch.jitReading(t + 5 * s, total + 10);
        watch.jitReading(t + 6 * s, total + 20);
        watch.interval(1000, 1.0);
        assertThat(stop.stopped()).as("the 3 s to the newest reading still hold a second at 400 ms/s").isFalse();
        watch.jitReading(t + 7 * s, total + 20);
        watch.interval(1000, 1.0);
        assertThat(stop.stopped()).as("20 ms over the last 3 s").isTrue();
        assertThat(watch.jitMsPerSecond()).isCloseTo(20 / 3.0, offset(1e-9));
    }

    @Test
    void withoutJitReadingsSpanningTheWindowsAWatchedJitIsNeverQuiet() {
        StopSignal stop = new StopSignal();
        SteadyRate watch = new SteadyRate(AUTO, stop, null, true);
        watch.jitReading(0, 5);
        watch.jitReading(2_000_000_000L, 5);
        for (int i = 0; i < 4; i++) {
            watch.interval(1000, 1.0);
        }
        assertThat(stop.stopped()).as("2 s of readings for 3 windows").isFalse();
        assertThat(watch.jitMsPerSecond()).isNaN();
    }

    @Test
    void aSettleWithoutAJitBoundOrAServerWithoutAJitIsWatchedByReqPerSecondAlone() {
        SteadyRate off = new SteadyRate(Settle.steady(Duration.ofSeconds(30), 0.05, 3, 0), new StopSignal(), null, true);
        SteadyRate noJit = new SteadyRate(AUTO, new StopSignal(), null, false);
        for (SteadyRate watch : List.of(off, noJit)) {
            assertThat(watch.watchingJit()).isFalse();
            watch.jitReading(0, 0);
            watch.jitReading(5_000_000_000L, 5_000);
            for (int i = 0; i < 3; i++) {
                watch.interval(1000, 1.0);
            }
            assertThat(watch.steady()).isTrue();
            assertThat(watch.jitMsPerSecond()).isNaN();
        }
    }
}
