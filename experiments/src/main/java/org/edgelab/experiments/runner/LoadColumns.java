package org.edgelab.experiments.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.LatencyLog;

/**
 * The columns an experiment kind's row takes from one measured loadgen load, named as the matrix runner names them
 * ({@code requests} to {@code goodput_bps}, TTFB and TTLB p50 and p99, {@code errors_<class>}, the hit ratios), with
 * the load's TTLB and TTFB interval logs written beside them ({@code hlog}, {@code hlog_ttfb}), so that
 * {@code ./edgelab report} reads every kind's runs alike. Stateless and thread-safe; {@link #of} blocks on file I/O.
 */
public final class LoadColumns {

    private LoadColumns() {
    }

    /**
     * The columns of {@code r}, its logs written as {@code hlog/<name>.hlog} and {@code hlog/<name>.ttfb.hlog} in the
     * run folder {@code directory}; a kind's results.csv keeps those of them its columns name.
     */
    public static Map<String, String> of(LoadResult r, Path directory, String name) throws IOException {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("requests", String.valueOf(r.counters().completed()));
        v.put("duration_s", ExperimentRunner.num(r.elapsedSeconds()));
        v.put("req_per_s", ExperimentRunner.num(r.requestsPerSecond()));
        v.put("bytes", String.valueOf(r.counters().bytesRead()));
        v.put("throughput_bps", ExperimentRunner.num(r.throughputBytesPerSecond() * 8));
        v.put("goodput_bps", ExperimentRunner.num(r.goodputBytesPerSecond() * 8));
        percentiles(v, "ttfb", r.ttfb());
        percentiles(v, "ttlb", r.ttlb());
        for (ErrorClass e : ErrorClass.values()) {
            v.put("errors_" + e.label(), String.valueOf(r.errors(e)));
        }
        v.put("hit_ratio_requests", ExperimentRunner.num(r.hitRatio()));
        v.put("hit_ratio_bytes", ExperimentRunner.num(r.byteHitRatio()));
        Files.createDirectories(directory.resolve("hlog"));
        String base = "hlog/" + name;
        r.writeHlog(directory.resolve(base + ".hlog"), LatencyLog.Kind.TTLB);
        r.writeHlog(directory.resolve(base + ".ttfb.hlog"), LatencyLog.Kind.TTFB);
        v.put("hlog", base + ".hlog");
        v.put("hlog_ttfb", base + ".ttfb.hlog");
        return v;
    }

    private static void percentiles(Map<String, String> v, String prefix, Histogram h) {
        boolean empty = h == null || h.getTotalCount() == 0;
        for (double p : new double[] {50, 99}) {
            v.put(prefix + "_p" + (int) p + "_ms", empty ? "" : ExperimentRunner.num(h.getValueAtPercentile(p) / 1e6));
        }
    }
}
