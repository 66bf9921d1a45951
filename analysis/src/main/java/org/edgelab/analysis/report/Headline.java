package org.edgelab.analysis.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.edgelab.analysis.Summary;

import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The report's first screen: per experiment and object size, one row per server build (and per setting that splits the
 * builds further, such as the connection count) with the figures engineers compare first, each beside its ratio to a
 * baseline build (the one asked for, else the first peer, else the first build). Medians over repetitions; latency
 * percentiles from the merged {@code .hlog} histograms ({@link Summary}).
 *
 * <p>Columns of {@link Section#table()}: {@code build}, {@code setting} (the {@link Builds#extra()} label, empty when
 * nothing splits the builds), {@code target}; then the {@link #FIGURES} and, for those in {@link #RATIOS}, a
 * {@code <figure>_ratio} column (figure / the baseline's figure at the same setting).
 *
 * <p>Thread-safety: stateless.
 */
public final class Headline {
    /** The figures, in column order: Summary's column names. */
    public static final List<String> FIGURES = List.of("req_per_s", "throughput_gbps", "ttfb_p50_ms", "ttfb_p99_ms",
            "ttlb_p50_ms", "ttlb_p99_ms", "hit_ratio_requests", "cpu_s_per_gb", "req_per_s_per_watt");
    /** The figures shown with a ratio to the baseline. */
    public static final List<String> RATIOS = List.of("req_per_s", "throughput_gbps", "ttfb_p99_ms", "ttlb_p99_ms",
            "cpu_s_per_gb", "req_per_s_per_watt");

    /** One headline table: an experiment at one object size (empty size when the results have none). */
    public record Section(String experiment, String objectSizeBytes, String baseline, List<String> settingDimensions,
                          Table table) {
        /** The object size as the report shows it ({@code 100 KB}), or empty. */
        public String objectSize() {
            return objectSizeBytes.isEmpty() ? "" : HumanUnits.size(objectSizeBytes);
        }
    }

    private Headline() {
    }

    /**
     * The headline tables of every request experiment in {@code results} (those with {@code req_per_s} values), sizes
     * in ascending order; {@code baseline} names the build to compare against (null or unknown: the default).
     */
    public static List<Section> sections(Table results, String baseline) {
        List<Section> sections = new ArrayList<>();
        for (String experiment : new java.util.LinkedHashSet<>(results.stringColumn("experiment").asList())) {
            Table mine = results.where(results.stringColumn("experiment").isEqualTo(experiment));
            if (!mine.containsColumn("req_per_s") || mine.doubleColumn("req_per_s").countMissing() == mine.rowCount()) {
                continue;
            }
            Builds builds = new Builds(mine, "object_size_bytes");
            if (builds.column().isEmpty()) {
                continue;
            }
            String base = builds.baseline(baseline);
            boolean sized = mine.containsColumn("object_size_bytes");
            List<String> by = new ArrayList<>();
            by.add(builds.column().get());
            if (sized) {
                by.add("object_size_bytes");
            }
            by.addAll(builds.extra());
            Table summary = Summary.by(mine, by.toArray(String[]::new));
            List<String> sizes = sized ? new ArrayList<>(new java.util.LinkedHashSet<>(summary.stringColumn("object_size_bytes").asList()))
                    : new ArrayList<>(List.of(""));
            sizes.sort(Comparator.comparingDouble(Headline::number));
            for (String size : sizes) {
                Table rows = sized ? summary.where(summary.stringColumn("object_size_bytes").isEqualTo(size)) : summary;
                sections.add(new Section(experiment, size, base, builds.extra(), table(rows, mine, builds, base)));
            }
        }
        return sections;
    }

    private static Table table(Table rows, Table results, Builds builds, String baseline) {
        String build = builds.column().orElseThrow();
        StringColumn names = StringColumn.create("build");
        StringColumn settings = StringColumn.create("setting");
        StringColumn targets = StringColumn.create("target");
        Table out = Table.create("headline").addColumns(names, settings, targets);
        for (String figure : FIGURES) {
            out.addColumns(DoubleColumn.create(figure));
            if (RATIOS.contains(figure)) {
                out.addColumns(DoubleColumn.create(figure + "_ratio"));
            }
        }
        // builds in order of first appearance, then settings as they come
        // (Tablesaw's Row is a cursor: rows are kept by index and read through rows.row(i), a Row of its own.)
        List<Integer> ordered = new ArrayList<>();
        for (String name : builds.names()) {
            for (int i = 0; i < rows.rowCount(); i++) {
                if (rows.stringColumn(build).get(i).equals(name)) {
                    ordered.add(i);
                }
            }
        }
        for (int index : ordered) {
            Row row = rows.row(index);
            String setting = builds.extraLabel(row);
            Row base = null;
            for (int i = 0; i < rows.rowCount(); i++) {
                Row candidate = rows.row(i);
                if (candidate.getString(build).equals(baseline) && builds.extraLabel(candidate).equals(setting)) {
                    base = candidate;
                }
            }
            Row line = out.appendRow();
            line.setString("build", row.getString(build));
            line.setString("setting", setting);
            line.setString("target", target(results, build, row.getString(build)));
            for (String figure : FIGURES) {
                double value = row.isMissing(figure) ? Double.NaN : row.getDouble(figure);
                set(line, figure, value);
                if (RATIOS.contains(figure)) {
                    double against = base == null || base.isMissing(figure) ? Double.NaN : base.getDouble(figure);
                    set(line, figure + "_ratio", against == 0 ? Double.NaN : value / against);
                }
            }
        }
        return out;
    }

    private static String target(Table results, String build, String name) {
        if (!results.containsColumn("target")) {
            return "";
        }
        Table mine = results.where(results.stringColumn(build).isEqualTo(name));
        return String.join("+", mine.stringColumn("target").removeMissing().unique().asList());
    }

    private static void set(Row row, String column, double value) {
        if (Double.isFinite(value)) {
            row.setDouble(column, value);
        } else {
            row.setMissing(column);
        }
    }

    private static double number(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.MAX_VALUE;
        }
    }
}
