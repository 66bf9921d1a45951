package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The confidence interval of a cell's req/s from its 1 s windows, and how repetitions pool theirs. */
class WindowStatsTest {

    @Test
    void theHalfWidthIsStudentsTQuantileTimesTheStandardError() {
        WindowStats stats = WindowStats.of(List.of(100.0, 110.0, 90.0, 100.0));
        assertThat(stats.windows()).isEqualTo(4);
        assertThat(stats.mean()).isEqualTo(100.0);
        assertThat(stats.sd()).isCloseTo(Math.sqrt(200 / 3.0), offset(1e-12));
        // t(0.975, 3 degrees of freedom) = 3.18245 (any table of Student's t)
        assertThat(stats.halfWidth()).isCloseTo(3.182446 * Math.sqrt(200 / 3.0) / 2, offset(1e-4));
        assertThat(stats.relativeHalfWidth()).isCloseTo(0.1299, offset(1e-4));
        // more windows of the same spread: a narrower interval (t falls towards 1.96, the error with the square root)
        List<Double> sixteen = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sixteen.addAll(List.of(100.0, 110.0, 90.0, 100.0));
        }
        assertThat(WindowStats.of(sixteen).halfWidth()).isLessThan(stats.halfWidth() / 2);
    }

    @Test
    void fewerThanTwoWindowsSayNothingOfTheSpread() {
        assertThat(WindowStats.of(List.of()).windows()).isZero();
        assertThat(WindowStats.of(List.of()).halfWidth()).isNaN();
        WindowStats one = WindowStats.of(List.of(250.0));
        assertThat(one.mean()).isEqualTo(250.0);
        assertThat(one.sd()).isNaN();
        assertThat(one.halfWidth()).isNaN();
        assertThat(one.relativeHalfWidth()).isNaN();
    }

    @Test
    void pooledRepetitionsAreTheStatisticsOfAllTheirWindows() {
        List<Double> first = List.of(1000.0, 1040.0, 980.0);
        List<Double> second = List.of(1200.0, 1190.0);
        List<Double> third = List.of(1100.0);
        List<Double> all = new ArrayList<>(first);
        all.addAll(second);
        all.addAll(third);

        WindowStats pooled = WindowStats.pooled(List.of(WindowStats.of(first), WindowStats.of(second), WindowStats.of(third),
                WindowStats.NONE));
        WindowStats direct = WindowStats.of(all);
        assertThat(pooled.windows()).isEqualTo(6);
        assertThat(pooled.mean()).isCloseTo(direct.mean(), offset(1e-9));
        // the repetitions' different means widen the spread as they would among the windows themselves
        assertThat(pooled.sd()).isCloseTo(direct.sd(), offset(1e-9)).isGreaterThan(WindowStats.of(first).sd());
        assertThat(WindowStats.pooled(List.of(WindowStats.NONE))).isEqualTo(WindowStats.NONE);
        assertThat(WindowStats.pooled(List.of(WindowStats.of(third))).halfWidth()).isNaN();
    }
}
