package org.edgelab.loadgen;

/**
 * When each request of an open-loop run is due: request number {@code ticket} (0, 1, 2, ...) is due
 * {@link #offsetNanos(long)} after the run's start. Latency is measured from that moment, so a server
 * stall cannot hide queued requests (no coordinated omission).
 *
 * <p>Implementations are immutable and safe to call from every event loop at once.
 */
public interface Schedule {
    /** Nanoseconds after the run's start when {@code ticket} is due, or -1 when the schedule has no such request. */
    long offsetNanos(long ticket);

    /** A short human description, e.g. "constant 1000 req/s". */
    String describe();
}
