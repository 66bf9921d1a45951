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
    /** Open-loop arrivals due before the deadline that no connection has written yet. */
    private final AtomicLong owed = new AtomicLong();
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

    /** An open-loop arrival due before the deadline was handed to a connection: it is owed until written. */
    void owe() {
        owed.incrementAndGet();
    }

    /** An owed arrival was written (possibly after its due time, which its latency then includes). */
    void paid() {
        owed.decrementAndGet();
    }

    /**
     * Waits for the end of the run: until every connection finished or the deadline passed, and then, for an
     * open-loop schedule, until every arrival due before the deadline has been written, for at most
     * {@code graceNanos} more. A timer that fires a little late (a busy loop, a loaded machine) still sends
     * its arrival; stopping at the deadline would drop exactly the latest arrivals and hide that lateness.
     * Blocks the calling thread; true if every connection finished.
     */
    public boolean awaitEnd(long graceNanos) throws InterruptedException {
        if (awaitFinished(deadlineNanos - System.nanoTime())) {
            return true;
        }
        long giveUp = System.nanoTime() + graceNanos;
        while (schedule != null && owed.get() > 0 && System.nanoTime() < giveUp) {
            if (allFinished.await(1, TimeUnit.MILLISECONDS)) {
                return true;
            }
        }
        return allFinished.getCount() == 0;
    }

    /** Arrivals due before the deadline that are not written yet (0 for a closed loop). */
    public long owed() {
        return owed.get();
    }

    /** Waits until every connection finished or {@code nanos} passed; true if all finished. */
    public boolean awaitFinished(long nanos) throws InterruptedException {
        return allFinished.await(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }
}
