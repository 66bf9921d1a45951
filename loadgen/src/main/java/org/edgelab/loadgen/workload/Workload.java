package org.edgelab.loadgen.workload;

import org.edgelab.loadgen.Schedule;

/**
 * Which requests a run sends. Requests are numbered by tickets shared by all connections, so whichever
 * connection is free sends the next one.
 *
 * <p>Implementations are immutable and thread-safe; their generators are confined to one connection.
 */
public interface Workload {
    /** A generator for one connection; {@code seed} differs per connection. */
    RequestGenerator newGenerator(long seed);

    /** How many requests this workload has (a trace's length), or {@link Long#MAX_VALUE}. */
    default long size() {
        return Long.MAX_VALUE;
    }

    /** The workload's own timing (a trace's timestamps), or null to follow the run's rate or closed loop. */
    default Schedule schedule() {
        return null;
    }

    /** Requests to send, unmeasured, before the measured run (e.g. to warm a cache), or null for none. */
    default Workload warmUp() {
        return null;
    }

    /**
     * The same workload with new never-seen objects: same set, sizes and popularity, but first-time requests
     * that name objects no earlier phase asked for. The load engine renews the workload at the start of every
     * phase, because each phase numbers its requests from 0: an unrecorded phase (a warm-up window, a settle)
     * would otherwise fetch the measured run's first-time objects beforehand, and a cache large enough to keep
     * them would count them as hits. Wrappers must forward it. The default returns this workload (no
     * first-time objects).
     */
    default Workload renewed() {
        return this;
    }

    /** A one-line description for summaries and result files. */
    String describe();
}
