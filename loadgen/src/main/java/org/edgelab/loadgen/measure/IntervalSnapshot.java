package org.edgelab.loadgen.measure;

/**
 * What one report interval of a phase measured, told to an {@link IntervalListener}: when it ended and how long it
 * lasted, the requests completed in it (the count of its TTLB interval histogram) and the difference of loadgen's
 * counters over it (responses, hits by {@code X-Cache}, errors by class, body bytes). Immutable and thread-safe.
 *
 * @param secondsSinceStart when the interval ended, seconds since the phase's start (its first due request)
 * @param seconds           how long the interval lasted
 * @param completed         requests completed in it, from the TTLB interval histogram (what
 *                          {@link IntervalListener#interval(long, double)} is told)
 * @param counters          loadgen's counters of this interval alone ({@link Counters#minus} of two snapshots)
 */
public record IntervalSnapshot(double secondsSinceStart, double seconds, long completed, Counters counters) {

    /** Responses whose head carried {@code X-Cache} in the interval. */
    public long cacheResponses() {
        return counters.cacheResponses();
    }

    /** Of those, the hits ({@code X-Cache} starting with HIT). */
    public long hits() {
        return counters.hits();
    }

    /** Those that were not hits. */
    public long misses() {
        return counters.cacheResponses() - counters.hits();
    }

    /** Errors of every class in the interval. */
    public long errors() {
        return counters.totalErrors();
    }

    /** Body bytes received in the interval. */
    public long bodyBytes() {
        return counters.bodyBytes();
    }

    /** The interval's hit ratio by requests, NaN when no response carried {@code X-Cache}. */
    public double hitRatio() {
        return counters.hitRatio();
    }
}
