package org.edgelab.loadgen.report;

import java.util.LinkedHashMap;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.ErrorClass;

/**
 * The flat, ordered figures of a run shared by the CSV and JSON reports, named as the runner's {@code results.csv}
 * names them (docs/FIGURES.md): {@code req_per_s}, rates in bits/s as {@code _bps}, latencies in {@code _ms},
 * percentiles as {@code p999}. Stateless and thread-safe.
 */
public final class ResultFigures {
    private ResultFigures() {
    }

    /** Column name to value (numbers, strings, booleans), in a stable order. */
    public static Map<String, Object> of(LoadResult r) {
        LoadConfig c = r.config();
        Counters k = r.counters();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("url", c.url().toString());
        m.put("connections", c.connections());
        m.put("threads", c.threads());
        m.put("mode", c.schedule() == null ? "closed" : "open");
        m.put("schedule", c.schedule() == null ? "" : c.schedule().describe());
        m.put("workload", c.workload().describe());
        m.put("link", c.link().describe());
        m.put("link_emulation", r.link().emulation());
        m.put("link_down_measured_bps", r.link().measuredDownBitsPerSecond());
        m.put("link_up_measured_bps", r.link().measuredUpBitsPerSecond());
        m.put("transport", r.transport());
        m.put("duration_s", r.elapsedSeconds());
        m.put("requests", k.completed());
        m.put("sent", k.sent());
        m.put("good_responses", k.goodResponses());
        m.put("unfinished", k.unfinished());
        m.put("req_per_s", r.requestsPerSecond());
        m.put("bytes", k.bytesRead());
        m.put("body_bytes", k.bodyBytes());
        m.put("good_bytes", k.goodBytes());
        m.put("throughput_bps", r.throughputBytesPerSecond() * 8);
        m.put("goodput_bps", r.goodputBytesPerSecond() * 8);
        addLatency(m, "ttfb", r.ttfb());
        addLatency(m, "ttlb", r.ttlb());
        addLatency(m, "service", r.serviceTime());
        addLatency(m, "ttfb_hit", r.ttfbHit());
        addLatency(m, "ttfb_miss", r.ttfbMiss());
        addLatency(m, "ttlb_hit", r.ttlbHit());
        addLatency(m, "ttlb_miss", r.ttlbMiss());
        addLatency(m, "loadgen_loop_delay", r.loopDelay());
        m.put("errors", k.totalErrors());
        for (ErrorClass e : ErrorClass.values()) {
            m.put("errors_" + e.label(), k.errors(e));
        }
        for (Map.Entry<String, Long> s : k.responsesByStatusClass().entrySet()) {
            m.put("status_" + s.getKey(), s.getValue());
        }
        m.put("x_cache_responses", k.cacheResponses());
        m.put("hits", k.hits());
        m.put("hit_ratio_requests", nullIfNaN(r.hitRatio()));
        m.put("hit_ratio_bytes", nullIfNaN(r.byteHitRatio()));
        m.put("target_hit_ratio", nullIfNaN(r.targetHitRatio()));
        m.put("hit_ratio_set_requests", nullIfNaN(r.setHitRatio()));
        m.put("late_starts", k.lateStarts());
        m.put("max_start_delay_ms", k.maxStartDelayNanos() / 1e6);
        m.put("connects", k.connects());
        m.put("cpu_s_jvm_total", r.processCpuSeconds());
        m.put("cpu_s_loadgen", r.loopCpuSeconds());
        m.put("cpu_s_loadgen_per_gb", nullIfNaN(r.cpuSecondsPerGB()));
        return m;
    }

    private static void addLatency(Map<String, Object> m, String name, Histogram h) {
        boolean empty = h.getTotalCount() == 0;
        m.put(name + "_count", h.getTotalCount());
        m.put(name + "_mean_ms", empty ? null : h.getMean() / 1e6);
        m.put(name + "_stdev_ms", empty ? null : h.getStdDeviation() / 1e6);
        for (double p : SummaryReport.PERCENTILES) {
            m.put(name + "_" + percentileName(p) + "_ms", empty ? null : h.getValueAtPercentile(p) / 1e6);
        }
        m.put(name + "_max_ms", empty ? null : h.getMaxValue() / 1e6);
    }

    /** A percentile's name in figure names: {@code p50}, {@code p99}, {@code p999} (99.9), {@code p9999} (99.99). */
    static String percentileName(double p) {
        String digits = java.math.BigDecimal.valueOf(p).stripTrailingZeros().toPlainString();
        return "p" + digits.replace(".", "");
    }

    private static Double nullIfNaN(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : v;
    }
}
