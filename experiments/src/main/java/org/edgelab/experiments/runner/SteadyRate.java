package org.edgelab.experiments.runner;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.edgelab.experiments.descriptor.Settle;
import org.edgelab.loadgen.StopSignal;
import org.edgelab.loadgen.measure.IntervalListener;

/**
 * Watches the 1 s windows of a steady-state settle ({@link Settle#auto()}) and gives its {@link StopSignal} as soon
 * as req/s is steady: the spread, (max - min) / mean, of the last {@link Settle#windows()} windows' req/s is at most
 * {@link Settle#tolerance()}, or they differ by at most one request per window (a window's count cannot say less:
 * at 14 req/s one request is 7 %); a window with no completion is never steady. When it watches a server's JIT
 * ({@link #watchingJit}), req/s counts as steady only once the server's JIT compile time also rose by at most
 * {@link Settle#jitMsPerSecond()} per second over (at least) the span of those windows, from the readings of its
 * running total given to {@link #jitReading}. Nothing is steady before the settle has run its {@link Settle#min()},
 * counting the windows of earlier runs of the same settle ({@code secondsBefore}). Every window is passed on to
 * {@code forward} (the progress line).
 *
 * <p>Thread-safe: loadgen's reporter thread calls {@link #interval}, a poller {@link #jitReading}, neither blocks;
 * the runner reads the outcome after the run.
 */
public final class SteadyRate implements IntervalListener {

    private final Settle settle;
    private final StopSignal stop;
    private final IntervalListener forward;
    private final Deque<Double> last = new ArrayDeque<>();
    private final Deque<Double> lengths = new ArrayDeque<>();
    private final List<Double> all = new ArrayList<>();
    /** JIT readings, oldest first: {nanoTime, total compile ms} (two a second for at most a settle's maximum). */
    private final List<long[]> jit = new ArrayList<>();
    private final boolean watchingJit;
    /** Seconds of windows this run must see before it may call req/s steady: the settle's least less earlier runs'. */
    private final double notBefore;
    private double elapsed;
    private double spread = Double.NaN;
    private double jitRate = Double.NaN;
    private boolean steady;

    /** Watches for {@code settle}'s steady state by req/s alone, giving {@code stop} once it is reached. */
    public SteadyRate(Settle settle, StopSignal stop, IntervalListener forward) {
        this(settle, stop, forward, false);
    }

    /**
     * Watches for {@code settle}'s steady state, giving {@code stop} once it is reached; with {@code watchJit} (and a
     * settle that {@linkplain Settle#watchesJit() watches it}) also for a quiet JIT, from {@link #jitReading}s.
     */
    public SteadyRate(Settle settle, StopSignal stop, IntervalListener forward, boolean watchJit) {
        this(settle, stop, forward, watchJit, 0);
    }

    /**
     * As {@link #SteadyRate(Settle, StopSignal, IntervalListener, boolean)}, for a run of a settle that
     * already ran {@code secondsBefore} in earlier runs (they count towards its {@link Settle#min()}).
     */
    public SteadyRate(Settle settle, StopSignal stop, IntervalListener forward, boolean watchJit, double secondsBefore) {
        if (!settle.auto()) {
            throw new IllegalArgumentException("only a steady-state settle (auto) is watched, got " + settle.describe());
        }
        this.settle = settle;
        this.stop = stop;
        this.forward = forward == null ? IntervalListener.NONE : forward;
        this.watchingJit = watchJit && settle.watchesJit();
        this.notBefore = settle.min().toNanos() / 1e9 - secondsBefore;
    }

    /** Whether steady also needs a quiet JIT. */
    public boolean watchingJit() {
        return watchingJit;
    }

    /**
     * A reading of the server's JIT compile time so far, {@code totalMillis}, taken at {@code nanoTime}
     * ({@link System#nanoTime()}); readings come in time order. Ignored when the JIT is not watched. Never blocks.
     */
    public void jitReading(long nanoTime, long totalMillis) {
        if (!watchingJit || totalMillis < 0) {
            return;
        }
        synchronized (this) {
            jit.add(new long[] {nanoTime, totalMillis});
        }
    }

    /**
     * JIT ms per second from the newest reading at least the windows' span before the newest one to the newest; NaN
     * while the readings span less.
     */
    private double jitRateNow() {
        if (jit.isEmpty()) {
            return Double.NaN;
        }
        long[] last = jit.get(jit.size() - 1);
        long span = Settle.WINDOW.multipliedBy(settle.windows()).toNanos();
        for (int i = jit.size() - 2; i >= 0; i--) {
            long[] first = jit.get(i);
            if (last[0] - first[0] >= span) {
                return (last[1] - first[1]) / ((last[0] - first[0]) / 1e9);
            }
        }
        return Double.NaN;
    }

    @Override
    public void interval(long completed, double seconds) {
        forward.interval(completed, seconds);
        if (!(seconds > 0)) {
            return;
        }
        boolean reached;
        synchronized (this) {
            double rate = completed / seconds;
            elapsed += seconds;
            all.add(rate);
            last.addLast(rate);
            lengths.addLast(seconds);
            if (last.size() > settle.windows()) {
                last.removeFirst();
                lengths.removeFirst();
            }
            if (last.size() < settle.windows()) {
                return;
            }
            spread = spread(last);
            double longest = lengths.stream().mapToDouble(Double::doubleValue).max().orElse(1);
            boolean oneRequest = Double.isFinite(spread) && range(last) <= 1 / longest + 1e-9;
            boolean warm = true;
            if (watchingJit) {
                jitRate = jitRateNow();
                warm = jitRate <= settle.jitMsPerSecond();
            }
            // the reporter's windows may end a little early: a millisecond's slack on the least length
            boolean longEnough = elapsed >= notBefore - 1e-3;
            reached = !steady && (spread <= settle.tolerance() || oneRequest) && warm && longEnough;
            steady |= reached;
        }
        if (reached) {
            stop.stop();
        }
    }

    /** (max - min) / mean of {@code rates}; infinite when their mean is 0. */
    static double spread(Iterable<Double> rates) {
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        double sum = 0;
        int n = 0;
        for (double r : rates) {
            min = Math.min(min, r);
            max = Math.max(max, r);
            sum += r;
            n++;
        }
        double mean = n == 0 ? 0 : sum / n;
        return mean > 0 ? (max - min) / mean : Double.POSITIVE_INFINITY;
    }

    /** max - min of {@code rates}. */
    private static double range(Iterable<Double> rates) {
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (double r : rates) {
            min = Math.min(min, r);
            max = Math.max(max, r);
        }
        return max - min;
    }

    /** Whether req/s was steady (the signal was given). */
    public synchronized boolean steady() {
        return steady;
    }

    /** The spread of the last windows when the settle ended, NaN when it saw fewer windows than it compares. */
    public synchronized double spread() {
        return spread;
    }

    /**
     * The server's JIT compile time per second over the windows' span at the last window, NaN when the JIT is not
     * watched or there were not yet readings that far apart.
     */
    public synchronized double jitMsPerSecond() {
        return jitRate;
    }

    /** req/s of every window seen, in order. */
    public synchronized List<Double> windows() {
        return List.copyOf(all);
    }
}
