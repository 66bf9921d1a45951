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
 * ({@code requests} to {@code goodput_bps}, TTFB and TTLB p50 and p99, the TTFB of hits and of misses apart
 * ({@code ttfb_hit_*}, {@code ttfb_miss_*}: p50, p99, p999, max), {@code errors_<class>}, the hit ratios), with
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
        tail(v, "ttfb_hit", r.ttfbHit());
        tail(v, "ttfb_miss", r.ttfbMiss());
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

    /**
     * p50, p99, p99.9 and the maximum, for hits and misses apart (by X-Cache): a stall of hits alone (a store lock) and
     * one of misses alone (writes the device throttles) look alike in the TTFB of all responses of a closed-loop load.
     */
    private static void tail(Map<String, String> v, String prefix, Histogram h) {
        percentiles(v, prefix, h);
        boolean empty = h == null || h.getTotalCount() == 0;
        v.put(prefix + "_p999_ms", empty ? "" : ExperimentRunner.num(h.getValueAtPercentile(99.9) / 1e6));
        v.put(prefix + "_max_ms", empty ? "" : ExperimentRunner.num(h.getMaxValue() / 1e6));
    }

    private static void percentiles(Map<String, String> v, String prefix, Histogram h) {
        boolean empty = h == null || h.getTotalCount() == 0;
        for (double p : new double[] {50, 99}) {
            v.put(prefix + "_p" + (int) p + "_ms", empty ? "" : ExperimentRunner.num(h.getValueAtPercentile(p) / 1e6));
        }
    }
}
