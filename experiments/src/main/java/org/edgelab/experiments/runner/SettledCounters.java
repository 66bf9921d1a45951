package org.edgelab.experiments.runner;

import java.io.IOException;
import java.time.Duration;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerCounters;

/**
 * Reads a target's counters once they have settled. Servers that batch their counters per worker
 * thread lag the clients for a moment after a run ends: Varnish adds a worker's counts to the
 * shared ones every {@code wthread_stats_rate} requests (10) or when the worker goes idle, so a
 * read right after the clients stop can miss requests they already counted. Stateless; blocks.
 */
public final class SettledCounters {

    /** Time between two reads that must agree. */
    static final Duration GAP = Duration.ofMillis(200);
    /** How long to wait for agreement before taking the last read as it is. */
    static final Duration PATIENCE = Duration.ofSeconds(3);

    private SettledCounters() {
    }

    /**
     * The counters once two reads {@link #GAP} apart agree, or the last read after {@link #PATIENCE}.
     * Blocks for at least one gap.
     */
    public static ServerCounters read(RunningTarget target) throws IOException, InterruptedException {
        return read(target, GAP, PATIENCE);
    }

    /** {@link #read(RunningTarget)} with reads {@code gap} apart and a {@code patience} of its own. */
    static ServerCounters read(RunningTarget target, Duration gap, Duration patience) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        ServerCounters last = target.counters();
        while (true) {
            Thread.sleep(gap.toMillis());
            ServerCounters now = target.counters();
            if (now.equals(last) || System.nanoTime() >= deadline) {
                return now;
            }
            last = now;
        }
    }
}
