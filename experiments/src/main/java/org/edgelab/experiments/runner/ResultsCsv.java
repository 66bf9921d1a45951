package org.edgelab.experiments.runner;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tidy {@code results.csv}: one header, one row per cell and repetition, RFC 4180 quoting. Rows
 * of a cell are appended together once the cell has finished, so the file never holds half a cell.
 * Stateless and thread-safe (callers serialise writes to one file).
 */
public final class ResultsCsv {

    /**
     * The error columns, in order: loadgen's classes ({@code errors_connect} to {@code errors_integrity}), then
     * what only wrk says: its socket read and write errors and {@code errors_status}, its count of responses
     * with a status above 399 (4xx and 5xx together, where it does not count them apart). A client leaves
     * empty what it cannot say.
     */
    public static final List<String> ERROR_COLUMNS = List.of(
            "errors_connect", "errors_timeout", "errors_status_4xx", "errors_status_5xx", "errors_truncated",
            "errors_closed", "errors_integrity", "errors_read", "errors_write", "errors_status");

    /**
     * The columns, in order. Units are in the column names ({@code _s}, {@code _ms}, {@code _bps} = bits/s);
     * {@code client} is the load client's name, {@code cpu_s_loadgen} that client's own CPU; {@code settle_s},
     * {@code settle_max_reached}, {@code settle_spread} and {@code settle_jit_ms_per_s} say how the unrecorded settle before the repetition went
     * (the manifest's {@code methods.measurement}); {@code req_per_s_windows} and {@code req_per_s_window_sd} are the
     * count and standard deviation of the req/s of the measured run's 1 s windows ({@link WindowStats}); the memory and I/O columns
     * ({@code memory_bound} to {@code diskstats_write_bytes}) are described in the manifest's {@code methods.io}.
     */
    public static final List<String> COLUMNS = List.of(
            "experiment", "cell", "repetition",
            "server", "target", "engine", "client", "object_size_bytes", "connections", "range_size_bytes", "link", "link_bps", "link_latency_ms",
            "link_emulation", "link_rtt_ms", "link_rtt_min_ms", "link_down_bps", "link_up_bps", "link_drops", "link_late_mean_ms",
            "link_late_max_ms",
            "requests", "duration_s", "req_per_s", "req_per_s_windows", "req_per_s_window_sd", "bytes", "throughput_bps", "goodput_bps",
            "ttfb_p50_ms", "ttfb_p90_ms", "ttfb_p99_ms", "ttfb_p999_ms",
            "ttlb_p50_ms", "ttlb_p90_ms", "ttlb_p99_ms", "ttlb_p999_ms",
            "ttfb_hit_p50_ms", "ttfb_hit_p90_ms", "ttfb_hit_p99_ms", "ttfb_hit_p999_ms",
            "ttfb_miss_p50_ms", "ttfb_miss_p90_ms", "ttfb_miss_p99_ms", "ttfb_miss_p999_ms",
            "ttlb_hit_p50_ms", "ttlb_hit_p90_ms", "ttlb_hit_p99_ms", "ttlb_hit_p999_ms",
            "ttlb_miss_p50_ms", "ttlb_miss_p90_ms", "ttlb_miss_p99_ms", "ttlb_miss_p999_ms",
            "loadgen_loop_delay_p50_ms", "loadgen_loop_delay_p90_ms", "loadgen_loop_delay_p99_ms", "loadgen_loop_delay_p999_ms",
            "errors_connect", "errors_timeout", "errors_status_4xx", "errors_status_5xx", "errors_truncated",
            "errors_closed", "errors_integrity", "errors_read", "errors_write", "errors_status",
            "target_hit_ratio", "hit_ratio_requests", "hit_ratio_bytes", "hit_ratio_set_requests", "server_hits", "server_misses",
            "server_requests", "server_bytes_to_clients", "server_bytes_from_origin",
            "cpu_s_server", "cpu_s_loadgen", "cpu_s_jvm_total", "cpu_method", "cpu_s_per_gb", "server_jit_ms",
            "power_w", "power_source", "req_per_s_per_watt", "gbps_per_watt",
            "settle_s", "settle_max_reached", "settle_spread", "settle_jit_ms_per_s",
            "memory_bound", "memory_limit_bytes", "device_read_bytes", "device_write_bytes", "read_syscalls", "write_syscalls",
            "read_amplification", "write_amplification", "rss_peak_bytes", "cgroup_memory_peak_bytes", "page_cache_start_bytes",
            "diskstats_read_bytes", "diskstats_write_bytes",
            "hlog", "hlog_ttfb");

    private ResultsCsv() {
    }

    /**
     * {@code columns} followed by every other column the rows hold, in the order first met (a topology's per-tier
     * columns, a client's own figures).
     */
    public static List<String> columns(List<String> columns, List<ResultRow> rows) {
        java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(columns);
        rows.forEach(r -> all.addAll(r.values().keySet()));
        return List.copyOf(all);
    }

    /** Appends {@code rows} to {@code file} with the matrix {@link #COLUMNS}, writing the header first if the file is new or empty. */
    public static void append(Path file, List<ResultRow> rows) throws IOException {
        append(file, COLUMNS, rows);
    }

    /**
     * Appends {@code rows} to {@code file} with {@code columns} (an experiment kind's own layout), writing the
     * header first if the file is new or empty. A file written by another version with other columns (a run
     * being resumed) keeps every value: when its header lacks some of {@code columns}, the file is rewritten
     * (to a temporary file, then moved over it) with its own columns plus the missing ones, empty in its old
     * rows; new rows are always written in the file's column order, so no value lands under another header.
     */
    public static void append(Path file, List<String> columns, List<ResultRow> rows) throws IOException {
        if (!Files.exists(file) || Files.size(file) == 0) {
            write(file, columns, rows, true);
            return;
        }
        List<String> existing;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine(); // column names hold no line breaks
            existing = header == null ? List.of() : parse(header + "\n").get(0);
        }
        if (existing.containsAll(columns)) {
            write(file, existing, rows, false);
            return;
        }
        List<String> union = new ArrayList<>(existing);
        columns.stream().filter(c -> !union.contains(c)).forEach(union::add);
        List<ResultRow> all = new ArrayList<>(read(file));
        all.addAll(rows);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        write(tmp, union, all, true);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void write(Path file, List<String> columns, List<ResultRow> rows, boolean header) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            if (header) {
                out.write(line(columns));
            }
            for (ResultRow row : rows) {
                List<String> values = new ArrayList<>(columns.size());
                for (String column : columns) {
                    values.add(row.get(column));
                }
                out.write(line(values));
            }
        }
    }

    /** Reads every row of {@code file} (empty when the file does not exist). */
    public static List<ResultRow> read(Path file) throws IOException {
        List<ResultRow> rows = new ArrayList<>();
        if (!Files.exists(file)) {
            return rows;
        }
        List<List<String>> records = parse(Files.readString(file, StandardCharsets.UTF_8));
        if (records.isEmpty()) {
            return rows;
        }
        List<String> header = records.get(0);
        for (List<String> record : records.subList(1, records.size())) {
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 0; i < header.size() && i < record.size(); i++) {
                values.put(header.get(i), record.get(i));
            }
            rows.add(new ResultRow(values));
        }
        return rows;
    }

    private static String line(List<String> values) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            String v = values.get(i) == null ? "" : values.get(i);
            if (v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
                b.append('"').append(v.replace("\"", "\"\"")).append('"');
            } else {
                b.append(v);
            }
        }
        return b.append('\n').toString();
    }

    private static List<List<String>> parse(String text) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                record.add(field.toString());
                field.setLength(0);
            } else if (c == '\n') {
                record.add(field.toString());
                field.setLength(0);
                records.add(record);
                record = new ArrayList<>();
            } else if (c != '\r') {
                field.append(c);
            }
        }
        if (field.length() > 0 || !record.isEmpty()) {
            record.add(field.toString());
            records.add(record);
        }
        return records;
    }
}
