package org.edgelab.loadgen;

import java.util.ArrayList;
import java.util.List;

/**
 * Lets a caller end a run's measured phase before its duration, as its deadline would: the connections stop, the
 * phase's counters and histograms cover what completed until then ({@link LoadConfig.Builder#stopSignal}). A signal
 * given before the phase starts ends it as soon as it starts. One signal per run; once given it stays given.
 *
 * <p>Thread-safe; {@link #stop()} never blocks (it may be called from loadgen's reporter thread, e.g. by an
 * {@link org.edgelab.loadgen.measure.IntervalListener} that has seen enough).
 */
public final class StopSignal {

    private final List<Runnable> onStop = new ArrayList<>();
    private boolean stopped;

    /** Ends the phase this signal is attached to (or the next one it is attached to). Idempotent. */
    public void stop() {
        List<Runnable> run;
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
            run = List.copyOf(onStop);
            onStop.clear();
        }
        run.forEach(Runnable::run);
    }

    /** Whether {@link #stop()} was called. */
    public synchronized boolean stopped() {
        return stopped;
    }

    /**
     * Runs {@code action} once when the signal is given, at once if it was already; for the load engine, which ends
     * its phase with it. {@code action} must not block.
     */
    public void onStop(Runnable action) {
        synchronized (this) {
            if (!stopped) {
                onStop.add(action);
                return;
            }
        }
        action.run();
    }
}
