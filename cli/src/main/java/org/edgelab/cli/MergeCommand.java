package org.edgelab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.workers.MergedLoad;
import org.edgelab.loadgen.workers.WorkerReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code edgelab load-merge DIR...}: merges the output folders of the workers of one divided load ({@code edgelab load
 * --segment I/N --start-at T --out DIR}) and prints the merged figures: requests summed, percentiles of the added
 * histograms, the rate over the window every worker ran in and the start skew. Not thread-safe (one run per instance).
 */
@Command(name = "load-merge", mixinStandardHelpOptions = true,
        description = "Merge the --out folders of the workers of one divided load (edgelab load --segment I/N --start-at T).")
final class MergeCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", arity = "1..*", description = "A worker's --out folder (holding " + WorkerReport.FILE + ").")
    private List<Path> dirs;

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<WorkerReport> reports = new ArrayList<>();
        for (Path dir : dirs) {
            reports.add(WorkerReport.read(dir.resolve(WorkerReport.FILE)));
        }
        MergedLoad m = MergedLoad.of(reports);
        for (WorkerReport r : m.workers()) {
            out.printf(Locale.ROOT, "worker %s: %d requests, real start %s, end %s%n", r.segment(), r.counters().completed(),
                    r.realStart(), r.end());
        }
        Histogram ttlb = m.ttlb();
        out.printf(Locale.ROOT, "merged: %d requests (%d errors), %.1f req/s over the common window of %.3fs, start skew %.3f ms%n",
                m.requests(), m.counters().totalErrors(), m.requestsPerSecond(), m.windowSeconds(),
                m.startSkew().toNanos() / 1e6);
        out.printf(Locale.ROOT, "merged TTLB: p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms%n",
                ms(ttlb.getValueAtPercentile(50)), ms(ttlb.getValueAtPercentile(99)), ms(ttlb.getValueAtPercentile(99.9)),
                ms(ttlb.getMaxValue()));
        out.flush();
        return 0;
    }

    private static double ms(long nanos) {
        return nanos / (double) TimeUnit.MILLISECONDS.toNanos(1);
    }
}
