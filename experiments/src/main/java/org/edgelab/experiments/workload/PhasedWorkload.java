package org.edgelab.experiments.workload;

import org.edgelab.loadgen.Schedule;
import org.edgelab.loadgen.workload.RequestGenerator;
import org.edgelab.loadgen.workload.Workload;

/**
 * A measured workload with a chosen warm-up pass (or none): every call but {@link #warmUp()} goes to the
 * measured one. Immutable and thread-safe.
 *
 * @param measured the requests that are measured
 * @param warmUp   the unmeasured pass before them, or null
 */
public record PhasedWorkload(Workload measured, Workload warmUp) implements Workload {

    @Override
    public RequestGenerator newGenerator(long seed) {
        return measured.newGenerator(seed);
    }

    @Override
    public long size() {
        return measured.size();
    }

    @Override
    public Schedule schedule() {
        return measured.schedule();
    }

    /** The measured workload renewed (new first-time objects), with the same warm-up pass. */
    @Override
    public Workload renewed() {
        return new PhasedWorkload(measured.renewed(), warmUp);
    }

    @Override
    public String describe() {
        return measured.describe();
    }
}
