package org.edgelab.loadgen.workers;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.Segment;
import org.edgelab.loadgen.measure.IntervalListener;

/**
 * Sends one load with N workers in this JVM, each with event loops of its own, placed by a {@link WorkerPlacement}
 * (here, or each in a network namespace of its own): runs the load's warm-ups once (as worker 0), sets a start barrier
 * {@code lead} ahead (time for every worker to connect), runs the N segments' measured runs at once and merges their
 * reports; the load's interval listener hears the workers' intervals added up ({@link IntervalSum}).
 *
 * <p>Thread-safety: stateless; {@link #run} blocks for the warm-ups, the lead and the run.
 */
public final class LocalWorkers {
    private LocalWorkers() {
    }

    /** What the workers measured, each on its own (ordered by segment) and merged. */
    public record Outcome(List<LoadResult> workers, MergedLoad merged) {
        /** Copies the list. */
        public Outcome {
            workers = List.copyOf(workers);
        }
    }

    /**
     * Runs {@code config} as {@code workers} workers whose measured runs start {@code lead} after the warm-ups;
     * throws IllegalArgumentException when there are fewer connections than workers.
     */
    public static Outcome run(LoadConfig config, int workers, Duration lead) throws InterruptedException {
        return run(config, workers, lead, WorkerPlacement.HERE);
    }

    /**
     * {@link #run(LoadConfig, int, Duration)} with worker {@code i}'s part (the warm-ups are worker 0's) run where
     * {@code placement} puts worker {@code i}.
     */
    public static Outcome run(LoadConfig config, int workers, Duration lead, WorkerPlacement placement) throws InterruptedException {
        Segment.checkConnections(workers, config.connections());
        try {
            placement.run(0, () -> {
                LoadRunner.warmUp(config);
                return null;
            });
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the load's warm-up failed: " + e.getMessage(), e);
        }
        IntervalSum intervals = config.onInterval() == IntervalListener.NONE ? null : new IntervalSum(config.onInterval(), workers);
        Instant startAt = Instant.now().plus(lead);
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "loadgen-worker");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<LoadResult>> runs = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                LoadConfig segment = config.withSegment(new Segment(i, workers), startAt,
                        intervals == null ? IntervalListener.NONE : intervals.worker(i));
                int worker = i;
                runs.add(pool.submit(() -> placement.run(worker, () -> LoadRunner.measure(segment))));
            }
            List<LoadResult> results = new ArrayList<>();
            List<WorkerReport> reports = new ArrayList<>();
            for (Future<LoadResult> run : runs) {
                try {
                    results.add(run.get());
                    reports.add(WorkerReport.of(results.get(results.size() - 1)));
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a load worker failed: " + e.getCause().getMessage(), e.getCause());
                }
            }
            return new Outcome(results, MergedLoad.of(reports));
        } finally {
            pool.shutdownNow();
        }
    }
}
