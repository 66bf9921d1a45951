package org.edgelab.experiments.netns;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.HdrHistogram.Histogram;
import org.edgelab.experiments.client.ClientResult;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.loadgen.workers.LocalWorkers;
import org.edgelab.loadgen.workers.MergedLoad;
import org.edgelab.units.SignificantFigures;

/**
 * The workers of one run taken together as the runner reads a client's result: counters summed, histograms added
 * (percentiles read from the sum, never averaged), req/s over the common window ({@link MergedLoad}), and the start skew,
 * the workers' count and each one's requests as columns of their own. Immutable; thread-safe.
 */
final class MergedResult implements ClientResult {
    /** How the figures are made, for the manifest. */
    static final String METHOD = "loadgen workers in network namespaces of their own (netns target): requests, bytes and"
            + " errors summed over the workers' whole runs; TTFB/TTLB histograms added, percentiles read from the sum;"
            + " req_per_s counts the requests completed while every worker ran (latest real start to earliest end, intervals"
            + " crossing an edge in proportion) over that window, duration_s; throughput and goodput are the workers' own"
            + " rates (each over its run) summed; start_skew_ms is the latest real start minus the earliest";

    private final LocalWorkers.Outcome outcome;
    private final MergedLoad merged;
    private final Counters counters;

    MergedResult(LocalWorkers.Outcome outcome) {
        this.outcome = outcome;
        this.merged = outcome.merged();
        this.counters = merged.counters();
    }

    @Override
    public long requests() {
        return merged.requests();
    }

    @Override
    public double seconds() {
        return merged.windowSeconds();
    }

    @Override
    public long bytes() {
        return counters.bytesRead();
    }

    @Override
    public double requestsPerSecond() {
        return merged.requestsPerSecond();
    }

    @Override
    public double throughputBytesPerSecond() {
        return outcome.workers().stream().mapToDouble(LoadResult::throughputBytesPerSecond).sum();
    }

    @Override
    public double goodputBytesPerSecond() {
        return outcome.workers().stream().mapToDouble(LoadResult::goodputBytesPerSecond).sum();
    }

    @Override
    public Histogram ttlb() {
        return merged.ttlb();
    }

    @Override
    public Histogram ttfb() {
        return merged.ttfb();
    }

    @Override
    public Histogram ttfbHit() {
        return added(LoadResult::ttfbHit);
    }

    @Override
    public Histogram ttfbMiss() {
        return added(LoadResult::ttfbMiss);
    }

    @Override
    public Histogram ttlbHit() {
        return added(LoadResult::ttlbHit);
    }

    @Override
    public Histogram ttlbMiss() {
        return added(LoadResult::ttlbMiss);
    }

    @Override
    public Histogram loopDelay() {
        return added(LoadResult::loopDelay);
    }

    private Histogram added(Function<LoadResult, Histogram> of) {
        Histogram sum = new Histogram(3);
        outcome.workers().forEach(w -> sum.add(of.apply(w)));
        return sum;
    }

    @Override
    public Map<String, Long> errors() {
        Map<String, Long> errors = new LinkedHashMap<>();
        for (ErrorClass c : ErrorClass.values()) {
            errors.put("errors_" + c.label(), counters.errors(c));
        }
        return errors;
    }

    @Override
    public double hitRatio() {
        return counters.hitRatio();
    }

    @Override
    public double byteHitRatio() {
        return counters.byteHitRatio();
    }

    @Override
    public double setHitRatio() {
        return counters.setHitRatio();
    }

    @Override
    public double clientCpuSeconds() {
        return outcome.workers().stream().mapToDouble(LoadResult::loopCpuSeconds).sum();
    }

    @Override
    public boolean clientInRunnerJvm() {
        return true;
    }

    @Override
    public double runnerJvmCpuSeconds() {
        // every worker ran in this JVM at once, each measuring the whole process over its own run
        return outcome.workers().stream().mapToDouble(LoadResult::processCpuSeconds).max().orElse(Double.NaN);
    }

    @Override
    public Map<String, String> columns() {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("workers", String.valueOf(outcome.workers().size()));
        c.put("start_skew_ms", SignificantFigures.format(merged.startSkew().toNanos() / 1e6, 6));
        c.put("worker_requests", outcome.workers().stream().map(w -> String.valueOf(w.counters().completed()))
                .collect(Collectors.joining(";")));
        return c;
    }

    /**
     * The workers' k-th report intervals added into one, for every k (they start at one barrier, so their k-th intervals
     * cover the same second), each stamped from the earliest start to the latest end of the intervals it adds; every
     * sample is in one interval, so the log's total is the merged histogram.
     */
    @Override
    public boolean writeHlog(Path file, LatencyLog.Kind kind) throws IOException {
        List<List<Histogram>> perWorker = outcome.workers().stream().map(w -> w.latencyLog().intervalHistograms(kind)).toList();
        int count = perWorker.stream().mapToInt(List::size).max().orElse(0);
        List<Histogram> added = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            Histogram sum = new Histogram(3);
            long start = Long.MAX_VALUE;
            long end = Long.MIN_VALUE;
            for (List<Histogram> intervals : perWorker) {
                if (k < intervals.size()) {
                    Histogram h = intervals.get(k);
                    sum.add(h);
                    start = Math.min(start, h.getStartTimeStamp());
                    end = Math.max(end, h.getEndTimeStamp());
                }
            }
            sum.setStartTimeStamp(start);
            sum.setEndTimeStamp(end);
            added.add(sum);
        }
        long realStart = outcome.workers().stream().mapToLong(w -> w.realStart().toEpochMilli()).min().orElseThrow();
        long barrier = outcome.workers().stream().mapToLong(w -> w.start().toEpochMilli()).min().orElseThrow();
        LatencyLog.writeHlog(file, "EdgeLab loadgen " + kind + " in nanoseconds from each request's intended start: the k-th"
                + " intervals of " + outcome.workers().size() + " workers added", realStart, barrier, added);
        return true;
    }
}
