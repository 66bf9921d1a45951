package org.edgelab.loadgen.report;

import java.util.LinkedHashMap;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.ErrorClass;

/** The flat, ordered figures of a run shared by the CSV and JSON reports; stateless and thread-safe. */
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
        m.put("elapsed_s", r.elapsedSeconds());
        m.put("requests", k.completed());
        m.put("sent", k.sent());
        m.put("good_responses", k.goodResponses());
        m.put("unfinished", k.unfinished());
        m.put("requests_per_s", r.requestsPerSecond());
        m.put("bytes_read", k.bytesRead());
        m.put("body_bytes", k.bodyBytes());
        m.put("good_bytes", k.goodBytes());
        m.put("throughput_bytes_per_s", r.throughputBytesPerSecond());
        m.put("goodput_bytes_per_s", r.goodputBytesPerSecond());
        addLatency(m, "ttfb", r.ttfb());
        addLatency(m, "ttlb", r.ttlb());
        addLatency(m, "service", r.serviceTime());
        addLatency(m, "ttfb_hit", r.ttfbHit());
        addLatency(m, "ttfb_miss", r.ttfbMiss());
        m.put("errors", k.totalErrors());
        for (ErrorClass e : ErrorClass.values()) {
            m.put("errors_" + e.label(), k.errors(e));
        }
        for (Map.Entry<String, Long> s : k.responsesByStatusClass().entrySet()) {
            m.put("status_" + s.getKey(), s.getValue());
        }
        m.put("x_cache_responses", k.cacheResponses());
        m.put("hits", k.hits());
        m.put("hit_ratio", nullIfNaN(r.hitRatio()));
        m.put("byte_hit_ratio", nullIfNaN(r.byteHitRatio()));
        m.put("target_hit_ratio", nullIfNaN(r.targetHitRatio()));
        m.put("set_hit_ratio", nullIfNaN(r.setHitRatio()));
        m.put("late_starts", k.lateStarts());
        m.put("max_start_delay_ns", k.maxStartDelayNanos());
        m.put("connects", k.connects());
        m.put("cpu_process_s", r.processCpuSeconds());
        m.put("cpu_event_loops_s", r.loopCpuSeconds());
        m.put("cpu_s_per_gb", nullIfNaN(r.cpuSecondsPerGB()));
        return m;
    }

    private static void addLatency(Map<String, Object> m, String name, Histogram h) {
        boolean empty = h.getTotalCount() == 0;
        m.put(name + "_count", h.getTotalCount());
        m.put(name + "_mean_ns", empty ? null : h.getMean());
        m.put(name + "_stdev_ns", empty ? null : h.getStdDeviation());
        for (double p : SummaryReport.PERCENTILES) {
            m.put(name + "_p" + String.valueOf(p).replace(".0", "").replace('.', '_') + "_ns", empty ? null : h.getValueAtPercentile(p));
        }
        m.put(name + "_max_ns", empty ? null : h.getMaxValue());
    }

    private static Double nullIfNaN(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : v;
    }
}
