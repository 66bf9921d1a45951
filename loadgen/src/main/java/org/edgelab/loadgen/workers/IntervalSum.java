package org.edgelab.loadgen.workers;

import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.measure.IntervalSnapshot;

/**
 * The report intervals of N workers that started at one barrier, told downstream as one load's: the k-th interval of
 * every worker added up (completions and counters summed, the longest length and latest time since start), once the
 * last worker has reported its k-th; an interval some worker never reached (it stopped first) is never told. Thread-safe:
 * each worker's reporter thread calls its own {@link #worker} listener; downstream is told under a lock, never concurrently.
 */
final class IntervalSum {
    private static final int WINDOW = 64;

    private final IntervalListener downstream;
    private final int workers;
    private final int[] reported;
    private final double[] sinceStart;
    private final double[] seconds;
    private final long[] completed;
    private final Counters[] counters;
    private final int[] next;
    private long told;

    /** Sums the intervals of {@code workers} workers for {@code downstream}. */
    IntervalSum(IntervalListener downstream, int workers) {
        this.downstream = downstream;
        this.workers = workers;
        this.reported = new int[WINDOW];
        this.sinceStart = new double[WINDOW];
        this.seconds = new double[WINDOW];
        this.completed = new long[WINDOW];
        this.counters = new Counters[WINDOW];
        this.next = new int[workers];
    }

    /** The listener of worker {@code index}. */
    IntervalListener worker(int index) {
        return IntervalListener.ofSnapshots(snapshot -> add(index, snapshot));
    }

    private synchronized void add(int worker, IntervalSnapshot s) {
        long k = next[worker]++;
        if (k < told || k >= told + WINDOW) {
            return; // a worker far ahead of another: its interval cannot be matched any more
        }
        int slot = (int) (k % WINDOW);
        if (reported[slot] == 0) {
            sinceStart[slot] = 0;
            seconds[slot] = 0;
            completed[slot] = 0;
            counters[slot] = Counters.ZERO;
        }
        reported[slot]++;
        sinceStart[slot] = Math.max(sinceStart[slot], s.secondsSinceStart());
        seconds[slot] = Math.max(seconds[slot], s.seconds());
        completed[slot] += s.completed();
        counters[slot] = counters[slot].plus(s.counters());
        while (reported[(int) (told % WINDOW)] == workers) {
            int t = (int) (told % WINDOW);
            reported[t] = 0;
            told++;
            downstream.interval(new IntervalSnapshot(sinceStart[t], seconds[t], completed[t], counters[t]));
        }
    }
}
