package org.edgelab.transport;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * How late each event loop of a group runs a timer, like Node's {@code monitorEventLoopDelay}: every
 * {@code period} a probe on each loop is due, and the time from its due time to its run is given to a
 * sink (nanoseconds). A due timer runs in the loop's next task phase, after the I/O and the tasks
 * already ahead of it, so the figure is how long anything that arrives on a busy loop (a request, an
 * origin's answer, a first byte) waits for that loop: the rest of its current turn, and any time the
 * loop's thread waited for a core. One probe per loop and period costs one scheduled task.
 *
 * <p>Thread-safe: {@link #start} may be called from any thread; the sink is called on each loop's own
 * thread, concurrently across loops, so it must be thread-safe. Nothing here blocks.
 */
public final class LoopDelay implements AutoCloseable {

    private final List<Probe> probes = new ArrayList<>();

    private LoopDelay() {
    }

    /** Starts a probe on every loop of {@code group}, due every {@code period}; {@code sink} gets each lateness in ns. */
    public static LoopDelay start(EventExecutorGroup group, Duration period, LongConsumer sink) {
        Objects.requireNonNull(sink, "sink");
        long periodNanos = period.toNanos();
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("period must be positive, got " + period);
        }
        LoopDelay delay = new LoopDelay();
        for (EventExecutor loop : group) {
            Probe p = new Probe(loop, periodNanos, sink);
            delay.probes.add(p);
            loop.execute(p::schedule);
        }
        return delay;
    }

    /** Stops every probe (a probe already due may still report once). */
    @Override
    public void close() {
        for (Probe p : probes) {
            p.stop();
        }
    }

    /** One loop's probe: reschedules itself after each run, so a late run never queues up a backlog. Confined to its loop but for {@link #stop}. */
    private static final class Probe implements Runnable {
        private final EventExecutor loop;
        private final long periodNanos;
        private final LongConsumer sink;
        private volatile boolean stopped;
        private volatile ScheduledFuture<?> next;
        private long dueNanos;

        Probe(EventExecutor loop, long periodNanos, LongConsumer sink) {
            this.loop = loop;
            this.periodNanos = periodNanos;
            this.sink = sink;
        }

        void schedule() {
            if (stopped || loop.isShuttingDown()) {
                return;
            }
            dueNanos = System.nanoTime() + periodNanos;
            next = loop.schedule(this, periodNanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public void run() {
            if (stopped) {
                return;
            }
            sink.accept(Math.max(0, System.nanoTime() - dueNanos));
            schedule();
        }

        void stop() {
            stopped = true;
            ScheduledFuture<?> f = next;
            if (f != null) {
                f.cancel(false);
            }
        }
    }
}
