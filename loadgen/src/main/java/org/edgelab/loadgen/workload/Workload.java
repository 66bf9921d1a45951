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

    /** A one-line description for summaries and result files. */
    String describe();
}
