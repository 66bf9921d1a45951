package org.edgelab.analysis.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.edgelab.analysis.LatencyHistograms;
import org.edgelab.analysis.ResultColumns;
import org.edgelab.analysis.Summary;
import org.edgelab.analysis.report.HtmlReport.Plot;

import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;
import tech.tablesaw.table.TableSlice;

/**
 * The plots of a request experiment that engineers read first: latency by percentile from the merged histograms,
 * grouped bars per object size with their spread over repetitions, and how each cell behaved over time from the
 * interval histograms.
 *
 * <p>Thread-safety: stateless.
 */
final class RequestPlots {
    /** The HdrHistogram-style percentile steps within each decade of nines: 0, 10 ... 90, then 92 ... 99, and so on. */
    private static final double[] STEPS = {0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};

    private RequestPlots() {
    }

    /**
     * The percentiles drawn for a histogram of {@code count} values: 0, 10, ..., 90, 92, ..., 99, 99.2, ... while at
     * least one value lies beyond the percentile (1 / (1 - p) <= count), never 100.
     */
    static List<Double> percentiles(long count) {
        List<Double> out = new ArrayList<>();
        for (int nines = 0; nines < 7; nines++) {
            double decade = Math.pow(10, -nines);
            for (double step : STEPS) {
                double p = 100 * (1 - decade + step * decade);
                if (p > 0 && 100 / (100 - p) > count) {
                    return out;
                }
                if (nines > 0 && step == 0) {
                    continue; // the last step of the decade before
                }
                out.add(p);
            }
            double last = 100 * (1 - decade / 10);
            if (100 / (100 - last) > count) {
                return out;
            }
            out.add(last);
        }
        return out;
    }

    /** TTFB and TTLB by percentile, one plot per object size, one line per build (and setting), from merged histograms. */
    static List<Plot> percentiles(Table results, String id, String suffix) {
        List<Plot> plots = new ArrayList<>();
        for (String kind : List.of("ttfb", "ttlb")) {
            String column = kind.equals("ttfb") ? ResultColumns.HLOG_TTFB : ResultColumns.HLOG_TTLB;
            String name = kind.toUpperCase(java.util.Locale.ROOT);
            for (Sized sized : bySize(results)) {
                String plotId = id + sized.slug() + kind + "-percentiles";
                String title = name + " by percentile" + sized.title() + suffix;
                Builds builds = new Builds(sized.rows(), "object_size_bytes");
                if (builds.column().isEmpty()) {
                    plots.add(Plot.absent(plotId, title, "not drawn: the results have no 'server' or 'engine' column"));
                    continue;
                }
                // log y: the builds' tails differ by orders of magnitude, and a linear axis flattens all but the worst
                SvgLinePlot svg = new SvgLinePlot(title, "percentile", name + " (ms, merged histograms of all repetitions)",
                        SvgLinePlot.XScale.NINES, true);
                for (Table group : groups(sized.rows(), builds)) {
                    Histogram merged = merged(group, column);
                    if (merged == null || merged.getTotalCount() == 0) {
                        continue;
                    }
                    String label = builds.label(group.row(0));
                    for (double p : percentiles(merged.getTotalCount())) {
                        svg.add(label, p, merged.getValueAtPercentile(p) / 1e6);
                    }
                }
                plots.add(svg.isEmpty() ? Plot.absent(plotId, title, "not drawn: no " + column + " logs")
                        : new Plot(plotId, title, svg.render(), "", svg.seriesCount(), svg.pointCount()));
            }
        }
        return plots;
    }

    /**
     * Bars of {@code metric} x {@code scale}, one chart per object size (each on its own scale: figures of 100 KB and
     * 50 MB objects differ a hundredfold), a bar per build grouped by setting, the median over repetitions with a
     * whisker from the fewest to the most. Ids are {@code <id><size>-<name>}.
     */
    static List<Plot> bars(Table results, String id, String suffix, String name, String title, String metric, double scale,
                           String yLabel) {
        List<Plot> plots = new ArrayList<>();
        for (Sized sized : bySize(results)) {
            String plotId = id + sized.slug() + name;
            String plotTitle = title + sized.title() + suffix;
            Builds builds = new Builds(sized.rows(), "object_size_bytes");
            if (builds.column().isEmpty()) {
                plots.add(Plot.absent(plotId, plotTitle, "not drawn: the results have no 'server' or 'engine' column"));
                continue;
            }
            SvgBarChart chart = new SvgBarChart(plotTitle,
                    builds.extra().isEmpty() ? "" : String.join(", ", builds.extra().stream().map(Builds::shortName).toList()), yLabel);
            for (Table group : groups(sized.rows(), builds)) {
                var values = group.doubleColumn(metric).removeMissing();
                if (values.isEmpty()) {
                    continue;
                }
                String setting = builds.extraLabel(group.row(0));
                chart.add(setting.isEmpty() ? "all" : setting, group.stringColumn(builds.column().get()).get(0),
                        values.median() * scale, values.min() * scale, values.max() * scale);
            }
            plots.add(chart.isEmpty() ? Plot.absent(plotId, plotTitle, "not drawn: no " + metric + " values")
                    : new Plot(plotId, plotTitle, chart.render(), "", chart.seriesCount(), chart.barCount()));
        }
        return plots;
    }

    /**
     * Requests/s (TTLB interval counts over the interval's length) and TTFB p99 per interval, against seconds since the
     * measured run started: one plot of each per object size, one line per cell and repetition (a build's colour, its
     * later repetitions dashed).
     */
    static List<Plot> overTime(Table results, String id, String suffix) {
        List<Plot> plots = new ArrayList<>();
        for (Sized sized : bySize(results)) {
            Builds builds = new Builds(sized.rows(), "object_size_bytes");
            String rateId = id + sized.slug() + "req-per-s-over-time";
            String rateTitle = "Requests/s over time" + sized.title() + suffix;
            String ttfbId = id + sized.slug() + "ttfb-p99-over-time";
            String ttfbTitle = "TTFB p99 over time" + sized.title() + suffix;
            if (builds.column().isEmpty()) {
                plots.add(Plot.absent(rateId, rateTitle, "not drawn: the results have no 'server' or 'engine' column"));
                plots.add(Plot.absent(ttfbId, ttfbTitle, "not drawn: the results have no 'server' or 'engine' column"));
                continue;
            }
            SvgLinePlot rate = new SvgLinePlot(rateTitle, "seconds since the measured run started",
                    "requests/s (completed per interval)", SvgLinePlot.XScale.LINEAR, false);
            SvgLinePlot ttfb = new SvgLinePlot(ttfbTitle, "seconds since the measured run started",
                    "TTFB p99 per interval (ms)", SvgLinePlot.XScale.LINEAR, false);
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < sized.rows().rowCount(); i++) {
                rows.add(sized.rows().row(i)); // a Row of its own: iterating a table reuses one cursor
            }
            String column = builds.column().get();
            rows.sort(Comparator.comparingInt((Row r) -> builds.names().indexOf(r.getString(column)))
                    .thenComparing(builds::label).thenComparingDouble(r -> number(r.getString("repetition"))));
            List<String> firstSeen = new ArrayList<>();
            for (Row row : rows) {
                String label = builds.label(row);
                String line = label + Builds.SEPARATOR + "rep " + row.getString("repetition");
                boolean later = firstSeen.contains(label);
                if (!later) {
                    firstSeen.add(label);
                }
                Path dir = Path.of(row.getString(ResultColumns.SOURCE_DIR));
                List<Histogram> ttlbIntervals = intervals(dir, row.getString(ResultColumns.HLOG_TTLB));
                long start = ttlbIntervals.isEmpty() ? 0 : ttlbIntervals.get(0).getStartTimeStamp();
                for (Histogram interval : ttlbIntervals) {
                    double seconds = Math.max(1, interval.getEndTimeStamp() - interval.getStartTimeStamp()) / 1000.0;
                    rate.add(line, (interval.getEndTimeStamp() - start) / 1000.0, interval.getTotalCount() / seconds);
                }
                rate.style(line, label, later);
                List<Histogram> ttfbIntervals = intervals(dir, row.getString(ResultColumns.HLOG_TTFB));
                long ttfbStart = ttfbIntervals.isEmpty() ? 0 : ttfbIntervals.get(0).getStartTimeStamp();
                for (Histogram interval : ttfbIntervals) {
                    if (interval.getTotalCount() > 0) {
                        ttfb.add(line, (interval.getEndTimeStamp() - ttfbStart) / 1000.0, interval.getValueAtPercentile(99) / 1e6);
                    }
                }
                ttfb.style(line, label, later);
            }
            plots.add(rate.isEmpty() ? Plot.absent(rateId, rateTitle, "not drawn: no hlog files")
                    : new Plot(rateId, rateTitle, rate.render(), "", rate.seriesCount(), rate.pointCount()));
            plots.add(ttfb.isEmpty() ? Plot.absent(ttfbId, ttfbTitle, "not drawn: no hlog_ttfb files")
                    : new Plot(ttfbId, ttfbTitle, ttfb.render(), "", ttfb.seriesCount(), ttfb.pointCount()));
        }
        return plots;
    }

    /** The rows of one object size (all rows, untitled, when the results have no object size). */
    private record Sized(String bytes, Table rows) {
        String label() {
            return bytes.isEmpty() ? "all" : HumanUnits.size(bytes);
        }

        String title() {
            return bytes.isEmpty() ? "" : ", " + label();
        }

        String slug() {
            return bytes.isEmpty() ? "" : HtmlReport.slug(label()) + "-";
        }
    }

    private static List<Sized> bySize(Table results) {
        if (!results.containsColumn("object_size_bytes")) {
            return List.of(new Sized("", results));
        }
        List<String> sizes = new ArrayList<>(new java.util.LinkedHashSet<>(results.stringColumn("object_size_bytes").asList()));
        sizes.sort(Comparator.comparingDouble(RequestPlots::number));
        List<Sized> out = new ArrayList<>();
        for (String size : sizes) {
            out.add(new Sized(size, results.where(results.stringColumn("object_size_bytes").isEqualTo(size))));
        }
        return out;
    }

    /** The rows of each build and setting, builds in order of first appearance. */
    private static List<Table> groups(Table rows, Builds builds) {
        List<String> by = new ArrayList<>();
        by.add(builds.column().orElseThrow());
        by.addAll(builds.extra());
        List<Table> groups = new ArrayList<>();
        for (TableSlice slice : rows.splitOn(by.toArray(String[]::new))) {
            groups.add(slice.asTable());
        }
        String column = builds.column().get();
        groups.sort(Comparator.comparingInt(g -> builds.names().indexOf(g.stringColumn(column).get(0))));
        return groups;
    }

    /** The group's logs in {@code column} merged, or null when any repetition's log is missing (as {@link Summary} does). */
    private static Histogram merged(Table group, String column) {
        List<Path> files = new ArrayList<>();
        for (Row row : group) {
            String relative = row.isMissing(column) ? "" : row.getString(column).trim();
            Path file = Path.of(row.getString(ResultColumns.SOURCE_DIR)).resolve(relative);
            if (relative.isEmpty() || !Files.isRegularFile(file)) {
                return null;
            }
            files.add(file);
        }
        return LatencyHistograms.merge(files);
    }

    private static List<Histogram> intervals(Path dir, String relative) {
        if (relative == null || relative.isBlank() || !Files.isRegularFile(dir.resolve(relative.trim()))) {
            return List.of();
        }
        return LatencyHistograms.intervals(dir.resolve(relative.trim()));
    }

    private static double number(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.MAX_VALUE;
        }
    }
}
