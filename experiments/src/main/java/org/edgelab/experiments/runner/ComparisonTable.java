package org.edgelab.experiments.runner;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints the main figures of a run, one line per cell, medians over its repetitions (percentiles are
 * the median of the per-repetition percentiles, for a quick look only; the analysis merges histograms).
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
            {"set hit %", "hit_ratio_set_requests", "%.1f", "100"},
            {"errors", "errors", "%.0f", "1"},
            {"cpu s/GB", "cpu_s_per_gb", "%.2f", "1"},
            {"W", "power_w", "%.1f", "1"},
            {"req/s/W", "req_per_s_per_watt", "%.2f", "1"},
    };

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
                double median = median(e.getValue(), c[1]) * Double.parseDouble(c[3]);
                line.append(String.format(Locale.ROOT, " %12s", Double.isNaN(median) ? "-" : String.format(Locale.ROOT, c[2], median)));
            }
            out.println(line);
        }
        out.flush();
    }

    /** The row's errors of every class its client counts (an empty column is one the client cannot say). */
    private static double errors(ResultRow row) {
        double[] counts = ResultsCsv.ERROR_COLUMNS.stream().mapToDouble(row::number).filter(v -> !Double.isNaN(v)).toArray();
        return counts.length == 0 ? Double.NaN : Arrays.stream(counts).sum();
    }

    private static double median(List<ResultRow> rows, String column) {
        double[] values = rows.stream()
                .mapToDouble(row -> column.equals("errors") ? errors(row) : row.number(column))
                .filter(v -> !Double.isNaN(v)).sorted().toArray();
        int n = values.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}
