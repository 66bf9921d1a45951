package org.edgelab.loadgen.measure;

import java.util.function.Consumer;

/**
 * Told at the end of every report interval of a phase what happened in it, from loadgen's own counters, so a caller
 * can show a steady live rate ({@link #interval(long, double)}: the completions and the interval's length) or write a
 * per-second time series ({@link #interval(IntervalSnapshot)}: hits, misses, errors by class, bytes as well). A
 * listener implements the first (a lambda does) and may override the second, which by default passes its completions
 * and length on to the first. Called on loadgen's reporter thread: it must return quickly and not block.
 */
@FunctionalInterface
public interface IntervalListener {
    /** Ignores every interval. */
    IntervalListener NONE = (completed, seconds) -> { };

    /** {@code completed} requests completed in the interval just ended, which lasted {@code seconds}. */
    void interval(long completed, double seconds);

    /** The interval just ended, with loadgen's counters over it; by default tells {@link #interval(long, double)}. */
    default void interval(IntervalSnapshot snapshot) {
        interval(snapshot.completed(), snapshot.seconds());
    }

    /** A listener that is told every interval's snapshot (and ignores the plain form). */
    static IntervalListener ofSnapshots(Consumer<IntervalSnapshot> consumer) {
        return new IntervalListener() {
            @Override
            public void interval(long completed, double seconds) {
            }

            @Override
            public void interval(IntervalSnapshot snapshot) {
                consumer.accept(snapshot);
            }
        };
    }

    /** A listener that tells {@code first} then {@code second} about every interval, each in the form it listens to. */
    static IntervalListener both(IntervalListener first, IntervalListener second) {
        return new IntervalListener() {
            @Override
            public void interval(long completed, double seconds) {
                first.interval(completed, seconds);
                second.interval(completed, seconds);
            }

            @Override
            public void interval(IntervalSnapshot snapshot) {
                first.interval(snapshot);
                second.interval(snapshot);
            }
        };
    }
}
