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
 * the median of the per-repetition percentiles, for a quick look only; the analysis merges histograms), and beside
 * req/s how precisely it was measured ({@link #INTERVAL_HEADER}).
 * Stateless and thread-safe.
 */
public final class ComparisonTable {

    /** req/s, the first column, after which {@link #INTERVAL_HEADER} is printed. */
    private static final String[] REQ_PER_S = {"req/s", "req_per_s", "%.0f", "1"};

    private static final String[][] COLUMNS = {
            REQ_PER_S,
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

    /** The column of the settle's length, shown when some row settled. */
    private static final String[] SETTLE = {"settle s", "settle_s", "%.1f", "1"};

    /** The column of the cache JVM's JIT compile time in the measured run, shown when some row has it. */
    private static final String[] JIT = {"jit ms", "server_jit_ms", "%.0f", "1"};

    /** The header of the column after req/s: the relative half-width of its confidence interval ({@link #interval}). */
    static final String INTERVAL_HEADER = "+-95%";

    /** What marks a cell some of whose repetitions were measured after a settle that reached its maximum unsteady. */
    static final String NOT_STEADY = "!";

    /**
     * Prints {@code rows} grouped by cell, in the order cells first appear; a cell some repetition of which settled
     * to its maximum without a steady req/s or a quiet JIT ({@code settle_max_reached}) is marked {@value #NOT_STEADY}, with a line
     * under the table saying so.
     */
    public static void print(List<ResultRow> rows, PrintWriter out) {
        Map<String, List<ResultRow>> byCell = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            byCell.computeIfAbsent(row.get("cell"), k -> new ArrayList<>()).add(row);
        }
        List<String[]> columns = new ArrayList<>(Arrays.asList(COLUMNS));
        for (String[] optional : List.of(SETTLE, JIT)) {
            if (rows.stream().anyMatch(r -> !Double.isNaN(r.number(optional[1])))) {
                columns.add(optional);
            }
        }
        int width = Math.max(4, byCell.keySet().stream().mapToInt(String::length).max().orElse(4) + 2);
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-" + width + "s", "cell"));
        for (String[] c : columns) {
            header.append(String.format(Locale.ROOT, " %12s", c[0]));
            if (c == REQ_PER_S) {
                header.append(String.format(Locale.ROOT, " %12s", INTERVAL_HEADER));
            }
        }
        out.println(header);
        int unsteady = 0;
        boolean anyInterval = false;
        for (Map.Entry<String, List<ResultRow>> e : byCell.entrySet()) {
            boolean notSteady = e.getValue().stream().anyMatch(r -> "true".equals(r.get("settle_max_reached")));
            unsteady += notSteady ? 1 : 0;
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-" + width + "s",
                    e.getKey() + (notSteady ? " " + NOT_STEADY : "")));
            for (String[] c : columns) {
                double median = median(e.getValue(), c[1]) * Double.parseDouble(c[3]);
                line.append(String.format(Locale.ROOT, " %12s", Double.isNaN(median) ? "-" : String.format(Locale.ROOT, c[2], median)));
                if (c == REQ_PER_S) {
                    WindowStats interval = interval(e.getValue());
                    anyInterval |= !Double.isNaN(interval.halfWidth());
                    double half = interval.relativeHalfWidth() * 100;
                    line.append(String.format(Locale.ROOT, " %12s", Double.isNaN(half) ? "-" : String.format(Locale.ROOT, "%.1f%%", half)));
                }
            }
            out.println(line);
        }
        if (anyInterval) {
            out.println(INTERVAL_HEADER + ": half-width of the " + Math.round(WindowStats.CONFIDENCE * 100) + " % confidence"
                    + " interval of the mean req/s, the 1 s windows of a cell's repetitions taken as samples (a lower bound"
                    + " when successive windows are correlated; manifest methods.req_per_s_interval)");
        }
        if (unsteady > 0) {
            out.println(NOT_STEADY + " " + unsteady + (unsteady == 1 ? " cell" : " cells") + " measured after a settle that reached its"
                    + " maximum before req/s was steady and a cache JVM's JIT quiet (results.csv: settle_max_reached, settle_spread,"
                    + " settle_jit_ms_per_s): not steady-state figures");
        }
        out.flush();
    }

    /**
     * The 1 s windows of {@code rows}, a cell's repetitions, pooled ({@link WindowStats#pooled}): each repetition's
     * windows around its req/s, with their count and standard deviation from results.csv; none for rows without them.
     */
    static WindowStats interval(List<ResultRow> rows) {
        List<WindowStats> parts = new ArrayList<>();
        for (ResultRow row : rows) {
            double windows = row.number("req_per_s_windows");
            if (windows >= 1) {
                parts.add(new WindowStats((long) windows, row.number("req_per_s"), row.number("req_per_s_window_sd")));
            }
        }
        return WindowStats.pooled(parts);
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
