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
    /** Requests written so far (open loop only; the ones the schedule made due before the deadline are owed). */
    private final AtomicLong written = new AtomicLong();
    private volatile long dueBeforeDeadline = -1; // computed once, at the end; idempotent
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

    /** A request was written (possibly after its due time, which its latency then includes). */
    void written() {
        written.incrementAndGet();
    }

    /**
     * Waits for the end of the run: until every connection finished or the deadline passed, and then, for an
     * open-loop schedule, until every arrival the schedule made due before the deadline has been written, for
     * at most {@code graceNanos} more. An arrival can be late because its timer fired late (a busy loop, a
     * loaded machine) or because every connection was busy when it fell due; stopping at the deadline dropped
     * exactly these latest arrivals and so hid the lateness. Blocks the calling thread; true if every
     * connection finished.
     */
    public boolean awaitEnd(long graceNanos) throws InterruptedException {
        if (awaitFinished(deadlineNanos - System.nanoTime())) {
            return true;
        }
        long giveUp = System.nanoTime() + graceNanos;
        while (schedule != null && owed() > 0 && System.nanoTime() < giveUp) {
            if (allFinished.await(1, TimeUnit.MILLISECONDS)) {
                return true;
            }
        }
        return allFinished.getCount() == 0;
    }

    /** Arrivals the schedule made due before the deadline that are not written yet (0 for a closed loop). */
    public long owed() {
        if (schedule == null) {
            return 0;
        }
        if (dueBeforeDeadline < 0) {
            dueBeforeDeadline = dueBefore(deadlineNanos - startNanos);
        }
        return Math.max(0, dueBeforeDeadline - written.get());
    }

    /** How many tickets (within the bound) the schedule makes due less than {@code nanos} after the start; offsets only grow. */
    private long dueBefore(long nanos) {
        long low = 0;
        long high = ticketLimit; // tickets [0, low) are due in time, [high, ...) are not
        while (low < high) {
            long mid = low + (high - low) / 2;
            long offset = schedule.offsetNanos(mid);
            if (offset >= 0 && offset < nanos) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Waits until every connection finished or {@code nanos} passed; true if all finished. */
    public boolean awaitFinished(long nanos) throws InterruptedException {
        return allFinished.await(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }
}
