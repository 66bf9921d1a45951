package org.edgelab.loadgen.measure;

/**
 * Told at the end of every report interval of a phase how many requests completed in it (the count of its TTLB
 * interval histogram) and how long it lasted, from loadgen's own counters, so a caller can show a steady live rate.
 * Called on loadgen's reporter thread: it must return quickly and not block.
 */
@FunctionalInterface
public interface IntervalListener {
    /** Ignores every interval. */
    IntervalListener NONE = (completed, seconds) -> { };

    /** {@code completed} requests completed in the interval just ended, which lasted {@code seconds}. */
    void interval(long completed, double seconds);
}
