package org.edgelab.experiments.events;

import java.util.List;
import java.util.OptionalDouble;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.IntervalSnapshot;

/**
 * What a restart did to a load, read from its per-second intervals: the hit ratio before the kill, the errors of the
 * intervals the outage overlaps, and how long after the restart the hit ratio was back to a share of its level before.
 * Times are seconds since the load's start. Stateless.
 */
final class Recovery {

    private Recovery() {
    }

    /** Hit ratio by requests over the intervals that ended within {@code window} seconds before {@code until}; NaN when none answered. */
    static double hitRatioBefore(List<IntervalSnapshot> intervals, double until, double window) {
        long responses = 0;
        long hits = 0;
        for (IntervalSnapshot s : intervals) {
            if (s.secondsSinceStart() <= until && s.secondsSinceStart() > until - window) {
                responses += s.cacheResponses();
                hits += s.hits();
            }
        }
        return responses == 0 ? Double.NaN : (double) hits / responses;
    }

    /** Hit ratio by requests over the intervals that ended after {@code from}; NaN when none answered. */
    static double hitRatioAfter(List<IntervalSnapshot> intervals, double from) {
        long responses = 0;
        long hits = 0;
        for (IntervalSnapshot s : intervals) {
            if (s.secondsSinceStart() > from) {
                responses += s.cacheResponses();
                hits += s.hits();
            }
        }
        return responses == 0 ? Double.NaN : (double) hits / responses;
    }

    /** Errors (of {@code type}, or of every class when null) in the intervals that overlap [{@code from}, {@code to}]. */
    static long errorsDuring(List<IntervalSnapshot> intervals, double from, double to, ErrorClass type) {
        long errors = 0;
        for (IntervalSnapshot s : intervals) {
            double start = s.secondsSinceStart() - s.seconds();
            if (s.secondsSinceStart() >= from && start <= to) {
                errors += type == null ? s.errors() : s.counters().errors(type);
            }
        }
        return errors;
    }

    /**
     * Seconds from {@code restart} to the end of the first interval ending after it whose hit ratio is at least
     * {@code share} of {@code before} (at one interval's resolution); empty when none is by the end of the load.
     */
    static OptionalDouble recoverySeconds(List<IntervalSnapshot> intervals, double restart, double before, double share) {
        if (Double.isNaN(before)) {
            return OptionalDouble.empty();
        }
        for (IntervalSnapshot s : intervals) {
            if (s.secondsSinceStart() > restart && s.cacheResponses() > 0 && s.hitRatio() >= share * before) {
                return OptionalDouble.of(s.secondsSinceStart() - restart);
            }
        }
        return OptionalDouble.empty();
    }

    /**
     * Responses to first-time objects (never-seen by design, the target hit ratio's misses) in the intervals that
     * ended after {@code from}: responses with {@code X-Cache} less those for the workload's set.
     */
    static long firstTimeResponsesAfter(List<IntervalSnapshot> intervals, double from) {
        long n = 0;
        for (IntervalSnapshot s : intervals) {
            if (s.secondsSinceStart() > from) {
                n += s.counters().cacheResponses() - s.counters().setResponses();
            }
        }
        return n;
    }

    /** Responses for the workload's set that were not hits, in the intervals that ended after {@code from}. */
    static long setMissesAfter(List<IntervalSnapshot> intervals, double from) {
        long n = 0;
        for (IntervalSnapshot s : intervals) {
            if (s.secondsSinceStart() > from) {
                n += s.counters().setResponses() - s.counters().setHits();
            }
        }
        return n;
    }

    /**
     * Bytes of the set the origin sent again: {@code afterKill}, what it sent from the kill to the end (its own
     * counter), less {@code firstTimeBytes}, what it had to send anyway for first-time objects; never below 0.
     */
    static long refetchedBytes(long afterKill, long firstTimeBytes) {
        return Math.max(0, afterKill - firstTimeBytes);
    }
}
