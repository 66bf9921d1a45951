package org.edgelab.loadgen.workload;

import org.edgelab.loadgen.Schedule;

/**
 * A workload without its own warm-up pass: the same requests, schedule and size, {@link #warmUp()} null, for a load
 * whose cache is warmed some other way (the experiment runner's own warm-up) or not at all ({@code load.warm_up: false}).
 * Immutable and thread-safe as its workload is.
 *
 * @param workload the workload whose warm-up is left out
 */
public record MeasuredOnly(Workload workload) implements Workload {
    @Override
    public RequestGenerator newGenerator(long seed) {
        return workload.newGenerator(seed);
    }

    @Override
    public long size() {
        return workload.size();
    }

    @Override
    public Schedule schedule() {
        return workload.schedule();
    }

    @Override
    public Workload renewed() {
        return new MeasuredOnly(workload.renewed());
    }

    @Override
    public String describe() {
        return workload.describe();
    }
}
