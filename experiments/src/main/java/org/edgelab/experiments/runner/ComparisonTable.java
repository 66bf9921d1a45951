package org.edgelab.experiments.runner;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints the main figures of a run, one line per cell, means over its repetitions (percentiles are
 * the mean of the per-repetition percentiles, for a quick look only; the analysis merges histograms).
 * Stateless and thread-safe.
 */
public final class ComparisonTable {

    private static final String[][] COLUMNS = {
            {"req/s", "req_per_s", "%.0f", "1"},
            {"Gbit/s", "throughput_bps", "%.3f", "1e-9"},
            {"ttfb p50 ms", "ttfb_p50_ms", "%.2f", "1"},
            {"ttlb p50 ms", "ttlb_p50_ms", "%.2f", "1"},
            {"ttlb p99 ms", "ttlb_p99_ms", "%.2f", "1"},
            {"hit %", "hit_ratio_requests", "%.1f", "100"},
            {"errors", "errors", "%.0f", "1"},
            {"cpu s/GB", "cpu_s_per_gb", "%.2f", "1"},
            {"W", "power_w", "%.1f", "1"},
            {"req/s/W", "req_per_s_per_watt", "%.2f", "1"},
    };

    private static final List<String> ERROR_COLUMNS = List.of("errors_connect", "errors_timeout", "errors_status_4xx",
            "errors_status_5xx", "errors_truncated", "errors_closed", "errors_integrity");

    private ComparisonTable() {
    }

    /** Prints {@code rows} grouped by cell, in the order cells first appear. */
    public static void print(List<ResultRow> rows, PrintWriter out) {
        Map<String, List<ResultRow>> byCell = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            byCell.computeIfAbsent(row.get("cell"), k -> new ArrayList<>()).add(row);
        }
        int width = Math.max(4, byCell.keySet().stream().mapToInt(String::length).max().orElse(4));
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-" + width + "s", "cell"));
        for (String[] c : COLUMNS) {
            header.append(String.format(Locale.ROOT, " %12s", c[0]));
        }
        out.println(header);
        for (Map.Entry<String, List<ResultRow>> e : byCell.entrySet()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-" + width + "s", e.getKey()));
            for (String[] c : COLUMNS) {
                double mean = mean(e.getValue(), c[1]) * Double.parseDouble(c[3]);
                line.append(String.format(Locale.ROOT, " %12s", Double.isNaN(mean) ? "-" : String.format(Locale.ROOT, c[2], mean)));
            }
            out.println(line);
        }
        out.flush();
    }

    private static double mean(List<ResultRow> rows, String column) {
        double sum = 0;
        int n = 0;
        for (ResultRow row : rows) {
            double v = column.equals("errors") ? ERROR_COLUMNS.stream().mapToDouble(row::number).sum() : row.number(column);
            if (!Double.isNaN(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }
}
