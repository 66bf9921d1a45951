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

    /** Columns every results.csv must have; a file without one is rejected, naming the column. */
    public static final List<String> REQUIRED = List.of(
            "experiment", "cell", "repetition",
            "requests", "duration_s", "req_per_s", "bytes", "throughput_bps", "goodput_bps",
            "errors_connect", "errors_timeout", "errors_status_4xx", "errors_status_5xx",
            "errors_truncated", "errors_integrity",
            "hit_ratio_requests", "hit_ratio_bytes", HLOG_TTLB);

    /** Numeric measurement columns: read as doubles (blank = missing); added as missing when a file lacks them. */
    public static final List<String> NUMERIC = List.of(
            "requests", "duration_s", "req_per_s", "bytes", "throughput_bps", "goodput_bps",
            "ttfb_p50_ms", "ttfb_p90_ms", "ttfb_p99_ms", "ttfb_p999_ms",
            "ttlb_p50_ms", "ttlb_p90_ms", "ttlb_p99_ms", "ttlb_p999_ms",
            "errors_connect", "errors_timeout", "errors_status_4xx", "errors_status_5xx",
            "errors_truncated", "errors_closed", "errors_integrity",
            "hit_ratio_requests", "hit_ratio_bytes", "server_hits", "server_misses",
            "server_requests", "server_bytes_to_clients", "server_bytes_from_origin",
            "cpu_s_server", "cpu_s_loadgen", "cpu_s_jvm_total", "cpu_s_per_gb",
            "power_w", "req_per_s_per_watt", "gbps_per_watt");

    /** Optional text columns: added as missing when a file lacks them. */
    public static final List<String> OPTIONAL_TEXT = List.of("power_source", HLOG_TTFB);

    /** Text columns that are measurements or bookkeeping, not dimensions. */
    public static final Set<String> NOT_DIMENSIONS = Set.of(
            "cell", "repetition", "power_source", "cpu_method", HLOG_TTLB, HLOG_TTFB, SOURCE_DIR);

    private ResultColumns() {
    }

    /** The columns of {@code results} that are dimensions of the matrix (experiment, server, engine, sizes...), in file order. */
    public static List<String> dimensions(Table results) {
        return results.columnNames().stream()
                .filter(name -> !NUMERIC.contains(name) && !NOT_DIMENSIONS.contains(name))
                .toList();
    }

    /** The error-count columns ({@code errors_*}) present in {@code results}. */
    public static List<String> errorColumns(Table results) {
        return results.columnNames().stream().filter(name -> name.startsWith("errors_")).toList();
    }
}
