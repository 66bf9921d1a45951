package org.edgelab.loadgen.video;

import java.time.Duration;

/**
 * How the stream-count search proceeds ({@link StreamSearch}): {@link Growth#LINEAR} starts with {@code initialStreams}
 * and after each healthy step adds {@code step} streams, stopping at the first unhealthy one; {@link Growth#BRACKET}
 * doubles from {@code initialStreams} until a step is unhealthy and then bisects between the highest healthy and the
 * lowest unhealthy count until they are at most {@code resolution} apart. Both stop at {@code maxStreams}, a bound the
 * caller states (a search that is still healthy there says so rather than guessing beyond it). Each step waits up to
 * {@code warmUp} (unmeasured; it ends early once every stream has filled its look-ahead) and then measures for
 * {@code measure}. A step found unhealthy is measured again up to {@code recheck} times, and the count is unhealthy
 * only if every measurement of it was: one window that misses the health rule by a hair (a collection, a compile, a
 * neighbour on a shared machine) then does not end the doubling at a fraction of the real limit.
 *
 * <p>Immutable and thread-safe.
 */
public record SearchPlan(Growth growth, int initialStreams, int step, int maxStreams, int resolution, Duration warmUp,
                         Duration measure, int recheck) {

    /** How the next stream count is chosen. */
    public enum Growth {
        /** {@code +step} per healthy step; the first unhealthy step ends the search. */
        LINEAR,
        /** Doubling until unhealthy, then bisection down to {@code resolution} streams. */
        BRACKET
    }

    /** Validates the counts and durations. */
    public SearchPlan {
        if (growth == null) {
            throw new IllegalArgumentException("the search needs a growth (linear or bracket)");
        }
        if (initialStreams < 1 || step < 1 || resolution < 1 || maxStreams < initialStreams) {
            throw new IllegalArgumentException("the search needs initial >= 1, step >= 1, resolution >= 1 and max >= initial"
                    + " streams, got " + initialStreams + ", " + step + ", " + resolution + ", " + maxStreams);
        }
        if (warmUp == null || warmUp.isNegative() || measure == null || measure.isNegative() || measure.isZero()) {
            throw new IllegalArgumentException("the search needs a warm-up >= 0 and a measurement > 0");
        }
        if (recheck < 0 || recheck > MAX_RECHECK) {
            throw new IllegalArgumentException("the search rechecks an unhealthy step 0 to " + MAX_RECHECK + " times, got "
                    + recheck);
        }
    }

    /** Most measurements an unhealthy step gets beyond its first. */
    public static final int MAX_RECHECK = 5;

    /**
     * A {@link Growth#LINEAR} search: {@code initialStreams}, {@code +step} per healthy step, up to {@code maxStreams};
     * one measurement decides a step.
     */
    public SearchPlan(int initialStreams, int step, int maxStreams, Duration warmUp, Duration measure) {
        this(Growth.LINEAR, initialStreams, step, maxStreams, 1, warmUp, measure, 0);
    }

    /**
     * A {@link Growth#BRACKET} search from {@code initialStreams} up to {@code maxStreams}, bisected to {@code resolution};
     * one measurement decides a step.
     */
    public static SearchPlan bracket(int initialStreams, int maxStreams, int resolution, Duration warmUp, Duration measure) {
        return new SearchPlan(Growth.BRACKET, initialStreams, 1, maxStreams, resolution, warmUp, measure, 0);
    }

    /** One line saying how the counts are chosen. */
    public String describe() {
        String search = growth == Growth.LINEAR
                ? String.format(java.util.Locale.ROOT, "linear: %d streams, +%d per healthy step up to %d, stopping at the"
                        + " first unhealthy step", initialStreams, step, maxStreams)
                : String.format(java.util.Locale.ROOT, "bracket: %d streams, doubled while healthy (at most %d), then bisected"
                        + " between the highest healthy and the lowest unhealthy count until they are at most %d apart",
                        initialStreams, maxStreams, resolution);
        return recheck == 0 ? search : search + "; a step found unhealthy is measured again " + (recheck == 1 ? "once"
                : recheck + " times") + " and counts as unhealthy only if every measurement was";
    }
}
