package org.edgelab.loadgen.video;

import java.time.Duration;

/**
 * How the stream-count search proceeds: start with {@code initialStreams}, and after each healthy step add
 * {@code step} streams, up to {@code maxStreams}; each step waits {@code warmUp} (unmeasured, for new
 * streams to fill their look-ahead) and then measures for {@code measure}.
 *
 * <p>Immutable and thread-safe.
 */
public record SearchPlan(int initialStreams, int step, int maxStreams, Duration warmUp, Duration measure) {
    /** Validates the counts and durations. */
    public SearchPlan {
        if (initialStreams < 1 || step < 1 || maxStreams < initialStreams) {
            throw new IllegalArgumentException("the search needs initial >= 1, step >= 1 and max >= initial streams, got "
                    + initialStreams + ", " + step + ", " + maxStreams);
        }
        if (warmUp == null || warmUp.isNegative() || measure == null || measure.isNegative() || measure.isZero()) {
            throw new IllegalArgumentException("the search needs a warm-up >= 0 and a measurement > 0");
        }
    }
}
