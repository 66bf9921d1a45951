package org.edgelab.kubernetes.worker;

import java.io.PrintStream;
import java.time.Instant;

import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.workers.WorkerReport;

/**
 * The entry point of one load-worker pod of the Indexed Job: reads the whole load ({@value #SPEC_ENV}), its segment
 * (Kubernetes' {@value #INDEX_ENV}, the completion index) and the common start time ({@value #START_ENV}, epoch
 * milliseconds, from the ConfigMap the runner writes just before it unsuspends the Job), connects, waits for the start
 * barrier, sends its share and prints its report framed by {@link WorkerLog}. Worker 0 runs the warm-ups first, once
 * for all workers. Exits 0 after printing the report, 2 on bad input, 1 when the load fails. Blocks for the run.
 */
public final class WorkerMain {
    /** The environment variable holding the {@link WorkerSpec} JSON. */
    public static final String SPEC_ENV = "EDGELAB_WORKER_SPEC";
    /** The environment variable Kubernetes sets to a pod's completion index in an Indexed Job. */
    public static final String INDEX_ENV = "JOB_COMPLETION_INDEX";
    /** The environment variable holding the start barrier in epoch milliseconds. */
    public static final String START_ENV = "EDGELAB_START_AT_EPOCH_MS";

    private WorkerMain() {
    }

    /** Runs the worker the environment describes. */
    public static void main(String[] args) throws InterruptedException {
        WorkerSpec spec;
        int index;
        Instant startAt;
        try {
            spec = WorkerSpec.parse(required(SPEC_ENV));
            index = Integer.parseInt(required(INDEX_ENV).trim());
            startAt = Instant.ofEpochMilli(Long.parseLong(required(START_ENV).trim()));
        } catch (IllegalArgumentException e) {
            System.err.println("edgelab worker: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            run(spec, index, startAt, System.out);
        } catch (Exception e) {
            System.err.println("edgelab worker " + index + "/" + spec.workers() + " failed: " + e);
            System.exit(1);
        }
    }

    /** Runs segment {@code index} of {@code spec} from {@code startAt} and prints its framed report on {@code out}. */
    public static WorkerReport run(WorkerSpec spec, int index, Instant startAt, PrintStream out) throws Exception {
        LoadResult result = LoadRunner.run(spec.segment(index, startAt));
        WorkerReport report = WorkerReport.of(result);
        out.print(WorkerLog.frame(report));
        out.flush();
        return report;
    }

    private static String required(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("the environment variable " + name + " is not set");
        }
        return value;
    }
}
