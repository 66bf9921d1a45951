package org.edgelab.experiments.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.IntervalSnapshot;
import org.junit.jupiter.api.Test;

class RecoveryTest {

    /** One 1-s interval ending at {@code end} with {@code hits} of {@code answered} and {@code connectErrors}. */
    private static IntervalSnapshot second(double end, long answered, long hits, long connectErrors) {
        long[] errors = new long[ErrorClass.values().length];
        errors[ErrorClass.CONNECT.ordinal()] = connectErrors;
        Counters c = new Counters(answered, answered, 0, 0, 0, answered, answered, hits, 0, 0, answered, hits, 0, 0, 0, 0,
                new long[6], errors);
        return new IntervalSnapshot(end, 1, answered, c);
    }

    private static final List<IntervalSnapshot> RUN = List.of(
            second(1, 100, 90, 0), second(2, 100, 92, 0), second(3, 100, 94, 0), // kill at 3.0
            second(4, 0, 0, 500), second(5, 10, 2, 200),                        // listening at 4.5
            second(6, 100, 70, 0), second(7, 100, 88, 0), second(8, 100, 93, 0));

    @Test
    void theHitRatioBeforeIsThatOfTheWindowBeforeTheKill() {
        assertThat(Recovery.hitRatioBefore(RUN, 3, 2)).isEqualTo(186 / 200.0);
        assertThat(Recovery.hitRatioBefore(RUN, 3, 3)).isEqualTo(276 / 300.0);
        assertThat(Recovery.hitRatioBefore(RUN, 0.5, 1)).isNaN();
    }

    @Test
    void recoveryIsTheFirstIntervalAfterTheRestartAtTheShareOfTheLevelBefore() {
        double before = Recovery.hitRatioBefore(RUN, 3, 2); // 0.93: 90 % of it is 0.837
        assertThat(Recovery.recoverySeconds(RUN, 4.5, before, 0.9)).hasValue(7 - 4.5);
        assertThat(Recovery.recoverySeconds(RUN, 4.5, before, 1.0)).hasValue(8 - 4.5);
        assertThat(Recovery.recoverySeconds(RUN, 4.5, 0.99, 1.0)).isEmpty();
        assertThat(Recovery.recoverySeconds(RUN, 4.5, Double.NaN, 0.9)).isEmpty();
    }

    @Test
    void gapErrorsAreThoseOfTheIntervalsTheOutageOverlaps() {
        assertThat(Recovery.errorsDuring(RUN, 3, 4.5, ErrorClass.CONNECT)).isEqualTo(700);
        assertThat(Recovery.errorsDuring(RUN, 3, 4.5, null)).isEqualTo(700);
        assertThat(Recovery.errorsDuring(RUN, 5.5, 8, null)).isZero();
    }

    @Test
    void refetchedBytesAreTheOriginsBeyondTheFirstTimeObjects() {
        assertThat(Recovery.refetchedBytes(1_000_000, 200_000)).isEqualTo(800_000);
        assertThat(Recovery.refetchedBytes(100_000, 200_000)).isZero();
        // set responses are the answered ones here, so there is no first-time response and every set miss counts
        assertThat(Recovery.firstTimeResponsesAfter(RUN, 3)).isZero();
        assertThat(Recovery.setMissesAfter(RUN, 3)).isEqualTo(8 + 30 + 12 + 7);
    }
}
