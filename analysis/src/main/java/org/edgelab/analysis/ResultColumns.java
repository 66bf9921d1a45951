package org.edgelab.analysis;

import java.util.List;
import java.util.Set;

import tech.tablesaw.api.Table;

/**
 * The column names of {@code results.csv} that the analysis understands; every other column is a dimension of the matrix.
 *
 * <p>Thread-safety: stateless.
 */
public final class ResultColumns {
    /** The column {@link ResultSet#load} adds: the run folder each row came from. */
    public static final String SOURCE_DIR = "source_dir";
    /** Relative path (from the run folder) of the TTLB interval log, nanoseconds. */
    public static final String HLOG_TTLB = "hlog";
    /** Relative path (from the run folder) of the TTFB interval log, nanoseconds; optional. */
    public static final String HLOG_TTFB = "hlog_ttfb";

    /** Columns every results.csv must have (which cell and repetition a row is); a file without one is rejected, naming the column. */
    public static final List<String> REQUIRED = List.of("experiment", "cell", "repetition");

    /**
     * The load generator's columns (request experiments such as varnish-edge and booster-http): a file without any
     * {@link #STREAM_COLUMNS} column must have all of them.
     */
    public static final List<String> REQUEST_COLUMNS = List.of(
            "requests", "duration_s", "req_per_s", "bytes", "throughput_bps", "goodput_bps",
            "errors_connect", "errors_timeout", "errors_status_4xx", "errors_status_5xx",
            "errors_truncated", "errors_integrity",
            "hit_ratio_requests", "hit_ratio_bytes", HLOG_TTLB);

    /**
     * The video-streams columns: streams sustained by one server build in one repetition, the bitrate of one stream,
     * the p99 frame latency and the smallest look-ahead (frames loaded ahead of the play head) seen. A file with any of
     * them must have all of them; it need not have the {@link #REQUEST_COLUMNS}.
     */
    public static final List<String> STREAM_COLUMNS = List.of(
            "streams_sustained", "stream_bitrate_bps", "frame_latency_p99_ms", "min_lookahead_frames");

    /** Numeric measurement columns: read as doubles (blank = missing); added as missing when a file lacks them. */
    public static final List<String> NUMERIC = List.of(
            "requests", "duration_s", "req_per_s", "bytes", "throughput_bps", "goodput_bps",
            "ttfb_p50_ms", "ttfb_p90_ms", "ttfb_p99_ms", "ttfb_p999_ms",
            "ttlb_p50_ms", "ttlb_p90_ms", "ttlb_p99_ms", "ttlb_p999_ms",
            "ttfb_hit_p50_ms", "ttfb_hit_p90_ms", "ttfb_hit_p99_ms", "ttfb_hit_p999_ms",
            "ttfb_miss_p50_ms", "ttfb_miss_p90_ms", "ttfb_miss_p99_ms", "ttfb_miss_p999_ms",
            "ttlb_hit_p50_ms", "ttlb_hit_p90_ms", "ttlb_hit_p99_ms", "ttlb_hit_p999_ms",
            "ttlb_miss_p50_ms", "ttlb_miss_p90_ms", "ttlb_miss_p99_ms", "ttlb_miss_p999_ms",
            "errors_connect", "errors_timeout", "errors_status_4xx", "errors_status_5xx",
            "errors_truncated", "errors_closed", "errors_integrity", "errors_read", "errors_write", "errors_status",
            "hit_ratio_requests", "hit_ratio_bytes", "hit_ratio_set_requests", "server_hits", "server_misses",
            "server_requests", "server_bytes_to_clients", "server_bytes_from_origin",
            "cpu_s_server", "cpu_s_loadgen", "cpu_s_jvm_total", "cpu_s_per_gb",
            "power_w", "req_per_s_per_watt", "gbps_per_watt",
            "streams_sustained", "stream_bitrate_bps", "frame_latency_p99_ms", "min_lookahead_frames",
            "streams_first_unhealthy", "fps", "frame_bytes", "look_ahead_frames", "frame_latency_p50_ms",
            "lookahead_p50_frames", "stalls", "dropped_frames", "frames_played", "errors", "steps",
            "settle_s", "settle_spread", "req_per_s_windows", "req_per_s_window_sd",
            "memory_limit_bytes", "device_read_bytes", "device_write_bytes", "read_syscalls", "write_syscalls",
            "read_amplification", "write_amplification", "rss_peak_bytes", "cgroup_memory_peak_bytes",
            "page_cache_start_bytes", "diskstats_read_bytes", "diskstats_write_bytes",
            "link_rtt_ms", "link_rtt_min_ms", "link_down_bps", "link_up_bps", "link_drops", "link_late_mean_ms",
            "link_late_max_ms", "loadgen_loop_delay_p50_ms", "loadgen_loop_delay_p90_ms", "loadgen_loop_delay_p99_ms",
            "loadgen_loop_delay_p999_ms", "server_jit_ms", "settle_jit_ms_per_s",
            // a topology's load workers (its per-tier figures are TIER_PREFIX columns)
            "workers", "start_skew_ms",
            // the restart kind's
            "kill_at_s", "hit_ratio_before", "hit_ratio_first_s", "hit_ratio_after", "outage_s", "restart_listen_s",
            "time_to_first_hit_s", "recovery_s", "gap_errors", "gap_errors_connect", "origin_bytes_before_kill",
            "origin_bytes_after_kill", "first_time_bytes_after_kill", "refetched_bytes", "set_bytes", "refetched_share",
            "set_misses_after_kill", "server_hits_after_restart", "server_misses_after_restart",
            // the churn kind's (it shares the memory and I/O figures above with the matrix rows)
            "churn_factor", "store_capacity_bytes", "churned_bytes", "req_per_s_vs_fresh", "ttfb_p99_vs_fresh",
            "ttlb_p99_vs_fresh", "store_bytes_written", "store_evictions", "store_file_free_share");

    /**
     * Measurements of the server's memory and I/O, of the settle and of the link that {@link Summary} gives as the
     * median over repetitions, under their own names (each one of {@link #NUMERIC}).
     */
    public static final List<String> MEDIANS = List.of(
            "settle_s", "read_amplification", "write_amplification", "rss_peak_bytes", "cgroup_memory_peak_bytes",
            "page_cache_start_bytes", "device_read_bytes", "device_write_bytes", "memory_limit_bytes",
            "link_rtt_ms", "link_down_bps", "link_up_bps", "link_drops", "workers", "start_skew_ms");

    /**
     * The prefix of a topology's per-tier figures ({@code tier_edge_hit_ratio}, {@code tier_origin_requests}, ...), named
     * after each descriptor's tiers: numeric, never dimensions, and given by {@link Summary} as medians over repetitions.
     */
    public static final String TIER_PREFIX = "tier_";

    /** Optional text columns: added as missing when a file lacks them. */
    public static final List<String> OPTIONAL_TEXT = List.of("power_source", HLOG_TTLB, HLOG_TTFB);

    /** Text columns that are measurements or bookkeeping, not dimensions. */
    public static final Set<String> NOT_DIMENSIONS = Set.of(
            "cell", "repetition", "power_source", "cpu_method", HLOG_TTLB, HLOG_TTFB, SOURCE_DIR,
            "search_capped", "limit", "recovered", "note", "memory_bound", "settle_max_reached", "worker_requests");

    private ResultColumns() {
    }

    /** Whether column {@code name} is a numeric measurement: one of {@link #NUMERIC}, or a per-tier figure ({@link #TIER_PREFIX}). */
    public static boolean isNumeric(String name) {
        return NUMERIC.contains(name) || name.startsWith(TIER_PREFIX);
    }

    /** The columns of {@code results} that are dimensions of the matrix (experiment, server, engine, sizes...), in file order. */
    public static List<String> dimensions(Table results) {
        return results.columnNames().stream()
                .filter(name -> !isNumeric(name) && !NOT_DIMENSIONS.contains(name))
                .toList();
    }

    /** The error-count columns ({@code errors_*}, and the video-streams total {@code errors}) present in {@code results}. */
    public static List<String> errorColumns(Table results) {
        return results.columnNames().stream().filter(name -> name.startsWith("errors_") || name.equals("errors")).toList();
    }
}
