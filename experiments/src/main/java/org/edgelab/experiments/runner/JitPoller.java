package org.edgelab.experiments.runner;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reads a server's JIT compile time so far ({@code reading}, ms, -1 when it has none) every {@link #PERIOD} on a daemon
 * thread of its own and gives each reading to a {@link SteadyRate}, from construction until {@link #close}. A reading
 * that fails (the server busy past its admin timeout) is skipped: the settle then waits for the next. Thread-safe;
 * {@link #close} blocks until the thread has stopped.
 */
final class JitPoller implements AutoCloseable {

    /** Two readings per settle window, so a window's span always has readings at both ends within half a window. */
    static final Duration PERIOD = Duration.ofMillis(500);

    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "settle-jit-poller");
        t.setDaemon(true);
        return t;
    });

    JitPoller(Callable<Long> reading, SteadyRate watch) {
        thread.scheduleAtFixedRate(() -> {
            try {
                long millis = reading.call();
                watch.jitReading(System.nanoTime(), millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // skipped: the next reading comes one period later
            }
        }, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        thread.shutdownNow();
        if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the settle's JIT poller did not stop within 10 s");
        }
    }
}
