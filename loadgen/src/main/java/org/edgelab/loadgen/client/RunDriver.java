package org.edgelab.loadgen.client;

import org.edgelab.loadgen.workload.RequestGenerator;
import org.edgelab.loadgen.workload.RequestSlot;

/**
 * The role of a connection in a load run: claims the run's next request number from {@link RunControl},
 * has the connection's own {@link RequestGenerator} fill it in, and dates it on the open-loop schedule
 * (closed loop: at once). Done when the run's request bound, schedule or deadline is reached.
 *
 * <p>Thread-safety: one per connection, confined to its event loop; the {@link RunControl} it shares is
 * thread-safe.
 */
final class RunDriver implements FetchDriver {
    private final RunControl run;
    private final RequestGenerator generator;
    private long due;

    RunDriver(RunControl run, RequestGenerator generator) {
        this.run = run;
        this.generator = generator;
    }

    @Override
    public long nextFetch(RequestSlot slot) {
        long ticket = run.claim();
        if (ticket < 0) {
            return DONE;
        }
        generator.next(ticket, slot);
        if (run.schedule() == null) {
            // closed loop: at once, but not before the start barrier (connections open before it and wait)
            due = System.nanoTime() - run.startNanos() < 0 ? run.startNanos() : 0;
            return ticket;
        }
        long offset = run.schedule().offsetNanos(ticket);
        if (offset < 0) {
            return DONE;
        }
        due = run.startNanos() + offset;
        return due >= run.deadlineNanos() ? DONE : ticket;
    }

    @Override
    public void sending(long token) {
        run.written();
    }

    @Override
    public long dueNanos() {
        return due;
    }

    @Override
    public boolean stopping() {
        return run.stopping();
    }

    @Override
    public void connectionFinished() {
        run.connectionFinished();
    }
}
