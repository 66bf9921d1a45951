package org.edgelab.analysis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.HdrHistogram.Histogram;

import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import tech.tablesaw.table.TableSlice;

/**
 * Summarises a results table ({@link ResultSet#load}) by any dimensions: one row per group with medians and spreads
 * over repetitions (a median, so that one disturbed or cold repetition of three does not move the figure), and
 * latency percentiles from the group's merged {@code .hlog} histograms (never averaged
 * percentiles; when a log is missing the percentiles are left missing and {@link #LATENCY_SOURCE} says why).
 *
 * <p>Thread-safety: stateless.
 */
public final class Summary {
    /** Text column saying where the latency percentiles came from, or why they are missing. */
    public static final String LATENCY_SOURCE = "latency_source";
    /** Text column (video-streams results only) saying when streams_sustained is a lower bound: the search hit its cap. */
    public static final String STREAMS_NOTE = "streams_note";
    /** Percentiles reported for TTFB and TTLB, with their column suffixes. */
    private static final Map<String, Double> PERCENTILES = percentiles();

    private Summary() {
    }

    /**
     * Groups {@code results} by {@code dimensions} (none: one group of everything) and summarises each group.
     *
     * <p>Columns: the dimensions; {@code repetitions}; {@code hit_ratio_requests}, {@code hit_ratio_bytes}, {@code hit_ratio_set_requests}, {@code ttfb_hit_p50_ms},
     * {@code ttfb_hit_p99_ms}, {@code ttfb_miss_p50_ms}, {@code ttfb_miss_p99_ms} (medians over repetitions);
     * {@code req_per_s}, {@code throughput_gbps}, {@code goodput_gbps} as median with {@code _min} and {@code _max} over
     * repetitions; {@code errors_total} (sum of every {@code errors_*} column); {@code cpu_s_per_gb}, {@code power_w},
     * {@code req_per_s_per_watt}, {@code gbps_per_watt} and {@link ResultColumns#MEDIANS} (the server's memory and
     * I/O, the settle's length, the link's figures, a topology's workers and start skew: medians) and a topology's
     * per-tier figures ({@link ResultColumns#TIER_PREFIX}: medians); {@code success_rate} (1 - errors / requests, summed over
     * repetitions); {@code ttfb_mean_ms}, {@code ttfb_p50_ms}, {@code ttfb_p90_ms}, {@code ttfb_p99_ms},
     * {@code ttfb_p999_ms}, {@code ttfb_max_ms} and the same for ttlb, from merged histograms. When the results hold
     * video-streams measurements ({@link ResultColumns#STREAM_COLUMNS}) these follow: {@code streams_sustained} with
     * {@code _min} and {@code _max} over repetitions, {@code stream_bitrate_mbps} (median), {@code stream_egress_gbps}
     * (median of streams x bitrate), {@code frame_latency_p99_ms_worst} (the worst repetition's p99: percentiles are not
     * averaged), {@code min_lookahead_frames} (the smallest), {@code dropped_frames} (the sum) and {@link #STREAMS_NOTE}.
     * Then {@code power_source}, {@code latency_samples}
     * (TTLB count) and {@link #LATENCY_SOURCE}. A measure with no value in a group is missing, never zero.
     *
     * @throws IllegalArgumentException when a dimension is not a text column of {@code results}
     */
    public static Table by(Table results, String... dimensions) {
        return summarise(results, true, dimensions);
    }

    /**
     * As {@link #by}, without reading any {@code .hlog}: the latency columns are left missing and
     * {@link #LATENCY_SOURCE} says so. For callers that need no latency (plots of throughput, hit ratio, power).
     */
    public static Table withoutLatency(Table results, String... dimensions) {
        return summarise(results, false, dimensions);
    }

    private static Table summarise(Table results, boolean latency, String... dimensions) {
        for (String dimension : dimensions) {
            if (!results.containsColumn(dimension)) {
                throw new IllegalArgumentException("cannot summarise by '" + dimension + "': no such column; dimensions are "
                        + ResultColumns.dimensions(results));
            }
            if (!(results.column(dimension) instanceof StringColumn)) {
                throw new IllegalArgumentException("cannot summarise by '" + dimension + "': it is a measurement, not a dimension; dimensions are "
                        + ResultColumns.dimensions(results));
            }
        }
        Table out = Table.create("summary by " + String.join(", ", dimensions));
        for (String dimension : dimensions) {
            out.addColumns(StringColumn.create(dimension));
        }
        IntColumn repetitions = IntColumn.create("repetitions");
        out.addColumns(repetitions);
        boolean streams = results.containsColumn("streams_sustained")
                && results.doubleColumn("streams_sustained").countMissing() < results.rowCount();
        List<String> numeric = numericColumns(streams, results.columnNames().stream()
                .filter(c -> c.startsWith(ResultColumns.TIER_PREFIX)).toList());
        for (String name : numeric) {
            out.addColumns(DoubleColumn.create(name));
        }
        if (streams) {
            out.addColumns(StringColumn.create(STREAMS_NOTE));
        }
        StringColumn powerSource = StringColumn.create("power_source");
        DoubleColumn samples = DoubleColumn.create("latency_samples");
        StringColumn latencySource = StringColumn.create(LATENCY_SOURCE);
        out.addColumns(powerSource, samples, latencySource);

        List<Table> groups = new ArrayList<>();
        if (dimensions.length == 0) {
            groups.add(results);
        } else {
            for (TableSlice slice : results.splitOn(dimensions)) {
                groups.add(slice.asTable());
            }
        }
        List<String> errorColumns = ResultColumns.errorColumns(results);
        for (Table group : groups) {
            Row row = out.appendRow();
            for (String dimension : dimensions) {
                row.setString(dimension, group.stringColumn(dimension).getString(0));
            }
            row.setInt("repetitions", group.rowCount());
            Map<String, Double> values = new LinkedHashMap<>();
            values.put("hit_ratio_requests", median(group, "hit_ratio_requests", 1));
            values.put("hit_ratio_bytes", median(group, "hit_ratio_bytes", 1));
            values.put("hit_ratio_set_requests", median(group, "hit_ratio_set_requests", 1));
            for (String column : List.of("ttfb_hit_p50_ms", "ttfb_hit_p99_ms", "ttfb_miss_p50_ms", "ttfb_miss_p99_ms")) {
                values.put(column, median(group, column, 1));
            }
            spread(values, group, "req_per_s", "req_per_s", 1);
            spread(values, group, "throughput_bps", "throughput_gbps", 1e-9);
            spread(values, group, "goodput_bps", "goodput_gbps", 1e-9);
            double errors = Double.NaN;
            for (String column : errorColumns) {
                DoubleColumn present = group.doubleColumn(column).removeMissing();
                if (!present.isEmpty()) {
                    errors = (Double.isNaN(errors) ? 0 : errors) + present.sum();
                }
            }
            values.put("errors_total", errors);
            DoubleColumn requests = group.doubleColumn("requests").removeMissing();
            if (!requests.isEmpty() && requests.sum() > 0 && !Double.isNaN(errors)) {
                values.put("success_rate", 1 - errors / requests.sum());
            }
            values.put("cpu_s_per_gb", median(group, "cpu_s_per_gb", 1));
            values.put("power_w", median(group, "power_w", 1));
            values.put("req_per_s_per_watt", median(group, "req_per_s_per_watt", 1));
            values.put("gbps_per_watt", median(group, "gbps_per_watt", 1));
            for (String column : ResultColumns.MEDIANS) {
                values.put(column, median(group, column, 1));
            }
            for (String column : results.columnNames()) {
                if (column.startsWith(ResultColumns.TIER_PREFIX)) {
                    values.put(column, median(group, column, 1));
                }
            }
            if (streams) {
                streams(values, group);
            }
            List<String> notes = new ArrayList<>();
            Histogram ttfb = null;
            Histogram ttlb = null;
            if (latency) {
                ttfb = merged(group, ResultColumns.HLOG_TTFB, "ttfb", notes);
                ttlb = merged(group, ResultColumns.HLOG_TTLB, "ttlb", notes);
            } else {
                notes.add("latency not computed (summary without latency)");
            }
            latencies(values, "ttfb", ttfb);
            latencies(values, "ttlb", ttlb);
            for (String name : numeric) {
                double value = values.getOrDefault(name, Double.NaN);
                if (Double.isNaN(value)) {
                    row.setMissing(name);
                } else {
                    row.setDouble(name, value);
                }
            }
            if (ttlb == null) {
                row.setMissing("latency_samples");
            } else {
                row.setDouble("latency_samples", ttlb.getTotalCount());
            }
            row.setString("power_source", String.join("+", new TreeSet<>(group.stringColumn("power_source").removeMissing().asList())));
            if (streams) {
                row.setString(STREAMS_NOTE, streamsNote(group));
            }
            row.setString(LATENCY_SOURCE, String.join("; ", notes));
        }
        return out;
    }

    private static String streamsNote(Table group) {
        if (!group.containsColumn("search_capped")) {
            return "";
        }
        long capped = group.stringColumn("search_capped").asList().stream().filter("true"::equalsIgnoreCase).count();
        return capped == 0 ? "" : "search capped in " + capped + " of " + group.rowCount()
                + " repetitions: streams_sustained is a lower bound";
    }

    private static List<String> numericColumns(boolean streams, List<String> tiers) {
        List<String> names = new ArrayList<>(List.of("hit_ratio_requests", "hit_ratio_bytes", "hit_ratio_set_requests",
                "ttfb_hit_p50_ms", "ttfb_hit_p99_ms", "ttfb_miss_p50_ms", "ttfb_miss_p99_ms"));
        for (String metric : List.of("req_per_s", "throughput_gbps", "goodput_gbps")) {
            names.addAll(List.of(metric, metric + "_min", metric + "_max"));
        }
        names.addAll(List.of("errors_total", "success_rate", "cpu_s_per_gb", "power_w", "req_per_s_per_watt", "gbps_per_watt"));
        names.addAll(ResultColumns.MEDIANS);
        names.addAll(tiers);
        for (String kind : List.of("ttfb", "ttlb")) {
            names.add(kind + "_mean_ms");
            PERCENTILES.keySet().forEach(suffix -> names.add(kind + "_" + suffix + "_ms"));
            names.add(kind + "_max_ms");
        }
        if (streams) {
            names.addAll(List.of("streams_sustained", "streams_sustained_min", "streams_sustained_max", "stream_bitrate_mbps",
                    "stream_egress_gbps", "frame_latency_p99_ms_worst", "min_lookahead_frames", "dropped_frames"));
        }
        return names;
    }

    private static void streams(Map<String, Double> values, Table group) {
        spread(values, group, "streams_sustained", "streams_sustained", 1);
        DoubleColumn dropped = group.doubleColumn("dropped_frames").removeMissing();
        values.put("dropped_frames", dropped.isEmpty() ? Double.NaN : dropped.sum());
        values.put("stream_bitrate_mbps", median(group, "stream_bitrate_bps", 1e-6));
        DoubleColumn egress = group.doubleColumn("streams_sustained").multiply(group.doubleColumn("stream_bitrate_bps")).removeMissing();
        values.put("stream_egress_gbps", egress.isEmpty() ? Double.NaN : egress.median() * 1e-9);
        DoubleColumn latency = group.doubleColumn("frame_latency_p99_ms").removeMissing();
        values.put("frame_latency_p99_ms_worst", latency.isEmpty() ? Double.NaN : latency.max());
        DoubleColumn lookahead = group.doubleColumn("min_lookahead_frames").removeMissing();
        values.put("min_lookahead_frames", lookahead.isEmpty() ? Double.NaN : lookahead.min());
    }

    private static Map<String, Double> percentiles() {
        Map<String, Double> p = new LinkedHashMap<>();
        p.put("p50", 50.0);
        p.put("p90", 90.0);
        p.put("p99", 99.0);
        p.put("p999", 99.9);
        return p;
    }

    private static double median(Table group, String column, double scale) {
        DoubleColumn present = group.doubleColumn(column).removeMissing();
        return present.isEmpty() ? Double.NaN : present.median() * scale;
    }

    private static void spread(Map<String, Double> values, Table group, String column, String name, double scale) {
        DoubleColumn present = group.doubleColumn(column).removeMissing();
        if (present.isEmpty()) {
            return;
        }
        values.put(name, present.median() * scale);
        values.put(name + "_min", present.min() * scale);
        values.put(name + "_max", present.max() * scale);
    }

    /** The group's histograms merged, or null (with a note saying why) when any repetition's log is absent. */
    private static Histogram merged(Table group, String column, String kind, List<String> notes) {
        StringColumn paths = group.stringColumn(column);
        Column<String> dirs = group.stringColumn(ResultColumns.SOURCE_DIR);
        List<Path> files = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < group.rowCount(); i++) {
            String relative = paths.isMissing(i) ? "" : paths.getString(i).trim();
            if (relative.isEmpty()) {
                missing.add("(no " + column + " value)");
                continue;
            }
            Path file = Path.of(dirs.get(i)).resolve(relative);
            if (Files.isRegularFile(file)) {
                files.add(file);
            } else {
                missing.add(file.toString());
            }
        }
        if (!missing.isEmpty()) {
            notes.add(kind + ": hlog missing for " + missing.size() + " of " + group.rowCount()
                    + " repetitions, e.g. " + missing.get(0) + "; no percentiles");
            return null;
        }
        notes.add(kind + ": merged hlog of " + files.size() + " repetitions");
        return LatencyHistograms.merge(files);
    }

    private static void latencies(Map<String, Double> values, String kind, Histogram histogram) {
        if (histogram == null || histogram.getTotalCount() == 0) {
            return;
        }
        values.put(kind + "_mean_ms", histogram.getMean() / 1e6);
        PERCENTILES.forEach((suffix, percentile) ->
                values.put(kind + "_" + suffix + "_ms", histogram.getValueAtPercentile(percentile) / 1e6));
        values.put(kind + "_max_ms", histogram.getMaxValue() / 1e6);
    }
}
