package org.edgelab.loadgen.client;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.edgelab.loadgen.Schedule;

/**
 * State shared by every connection of one run: the ticket counter (request numbers), the bounds, the
 * open-loop schedule and the stop flag.
 *
 * <p>Thread-safety: tickets are claimed with one atomic increment (no locks); the stop flag is volatile.
 */
public final class RunControl {
    private final AtomicLong nextTicket = new AtomicLong();
    private final long ticketLimit;
    private final Schedule schedule;
    private final long startNanos;
    private final long deadlineNanos;
    private final AtomicInteger liveConnections;
    private final CountDownLatch allFinished = new CountDownLatch(1);
    private volatile boolean stopping;

    /** A run of {@code connections} connections starting at {@code startNanos} (System.nanoTime). */
    public RunControl(int connections, long ticketLimit, Schedule schedule, long startNanos, long durationNanos) {
        this.ticketLimit = ticketLimit <= 0 ? Long.MAX_VALUE : ticketLimit;
        this.schedule = schedule;
        this.startNanos = startNanos;
        this.deadlineNanos = startNanos + durationNanos;
        this.liveConnections = new AtomicInteger(connections);
    }

    /** The next request number, or -1 once the request bound is reached. */
    long claim() {
        long t = nextTicket.getAndIncrement();
        return t < ticketLimit ? t : -1;
    }

    /** Requests claimed so far (capped at the bound). */
    public long claimed() {
        return Math.min(nextTicket.get(), ticketLimit);
    }

    Schedule schedule() {
        return schedule;
    }

    long startNanos() {
        return startNanos;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    boolean stopping() {
        return stopping;
    }

    /** Tells every connection to send nothing more. */
    public void stop() {
        stopping = true;
    }

    /** Called once by each connection when it will send nothing more. */
    void connectionFinished() {
        if (liveConnections.decrementAndGet() == 0) {
            allFinished.countDown();
        }
    }

    /**
     * Ends the wait of {@link #awaitFinished} now, before the deadline, as if it had passed (a caller's
     * {@code StopSignal}); the connections are then stopped as at the deadline. Never blocks.
     */
    public void endEarly() {
        allFinished.countDown();
    }

    /**
     * Waits until every connection finished, {@code nanos} passed or the run was {@linkplain #endEarly() ended early};
     * true if all finished.
     */
    public boolean awaitFinished(long nanos) throws InterruptedException {
        allFinished.await(Math.max(0, nanos), TimeUnit.NANOSECONDS);
        return liveConnections.get() == 0;
    }
}
