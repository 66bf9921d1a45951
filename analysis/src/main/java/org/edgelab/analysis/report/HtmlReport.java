package org.edgelab.analysis.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.edgelab.analysis.ResultColumns;
import org.edgelab.analysis.Summary;

import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import tech.tablesaw.api.NumericColumn;

/**
 * A self-contained HTML report: inline CSS, the summary and published-figure tables, and inline SVG plots per
 * experiment (latency against object size and against concurrency, throughput against concurrency, hit ratio,
 * requests/s and Gbit/s per watt, streams sustained); each drawn plot is a {@code <figure>} whose {@code id} is
 * {@link Plot#id()}. It loads nothing: no script, stylesheet, font or image from anywhere.
 *
 * <p>Thread-safety: stateless.
 */
public final class HtmlReport {
    private static final String CSS = """
            body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1400px}
            h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}
            table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
            th,td{border:1px solid #ccc;padding:.25em .5em}th{background:#f2f2f2}td.n{text-align:right}
            .plot{background:#fff;margin:.5em 0}.plot .title{font-weight:bold;font-size:15px}
            .plot .frame{fill:none;stroke:#444}.plot .grid{stroke:#e5e5e5}
            .plot .tick,.plot .legend{font-size:11px}.plot .axis{font-size:12px}
            .note{color:#666;font-style:italic}
            """;

    /**
     * One plot of the report: a stable id (the {@code id} of its {@code <figure>}), its title, its {@code <svg>} element
     * (empty when not drawn, with a note saying why), how many series (lines or bars) and points (markers or bars) it draws.
     */
    public record Plot(String id, String title, String svg, String note, int series, int points) {
        /** Whether the plot has data and an SVG element. */
        public boolean drawn() {
            return !svg.isEmpty();
        }

        static Plot absent(String id, String title, String note) {
            return new Plot(id, title, "", note, 0, 0);
        }
    }

    private HtmlReport() {
    }

    /**
     * The report's plots, per experiment in the results (latency from merged histograms via {@link Summary}): TTLB p99
     * against object size and against concurrency, throughput against concurrency, hit ratio, requests/s per watt and
     * Gbit/s per watt for request experiments; streams sustained per server build when the results hold video-streams
     * measurements.
     * A plot whose data the experiment lacks (or whose x axis has one value only) is returned undrawn with a note.
     */
    public static List<Plot> plots(Table results) {
        List<Plot> plots = new ArrayList<>();
        for (String experiment : results.stringColumn("experiment").unique().asList()) {
            Table mine = results.where(results.stringColumn("experiment").isEqualTo(experiment));
            String series = mine.containsColumn("engine") ? "engine" : "server";
            String suffix = " (" + experiment + ")";
            String id = slug(experiment) + "-";
            plots.add(plot(mine, id + "ttlb-p99-by-size", "TTLB p99 against object size" + suffix, "object size (bytes)",
                    "object_size_bytes", "TTLB p99 (ms, merged histograms)", "ttlb_p99_ms", true, series));
            plots.add(plot(mine, id + "ttlb-p99-by-concurrency", "TTLB p99 against concurrency" + suffix, "connections",
                    "connections", "TTLB p99 (ms, merged histograms)", "ttlb_p99_ms", true, series));
            plots.add(plot(mine, id + "throughput-by-concurrency", "Throughput against concurrency" + suffix, "connections",
                    "connections", "throughput (Gbit/s, median over repetitions)", "throughput_gbps", false, series));
            plots.add(plot(mine, id + "hit-ratio-by-size", "Hit ratio (requests)" + suffix, "object size (bytes)",
                    "object_size_bytes", "hit ratio (requests)", "hit_ratio_requests", true, series));
            plots.add(plot(mine, id + "requests-per-watt-by-size", "Requests/s per watt" + suffix, "object size (bytes)",
                    "object_size_bytes", "requests/s per watt", "req_per_s_per_watt", true, series));
            plots.add(plot(mine, id + "gbps-per-watt-by-size", "Gbit/s per watt" + suffix, "object size (bytes)",
                    "object_size_bytes", "Gbit/s per watt", "gbps_per_watt", true, series));
            if (hasValues(mine, "streams_sustained")) {
                plots.add(streams(mine, id + "streams-sustained", "Streams sustained" + suffix));
            }
        }
        return plots;
    }

    private static Plot streams(Table results, String id, String title) {
        String category = results.containsColumn("server") ? "server" : results.containsColumn("engine") ? "engine" : null;
        if (category == null) {
            return Plot.absent(id, title, "not drawn: the results have no 'server' or 'engine' column");
        }
        Table summary = Summary.withoutLatency(results, category);
        SvgBarChart chart = new SvgBarChart(title, "server build (whisker: fewest to most over repetitions)",
                "streams sustained (median over repetitions)");
        for (Row row : summary) {
            if (!row.isMissing("streams_sustained")) {
                chart.add(row.getString(category), row.getDouble("streams_sustained"),
                        row.getDouble("streams_sustained_min"), row.getDouble("streams_sustained_max"));
            }
        }
        if (chart.isEmpty()) {
            return Plot.absent(id, title, "not drawn: no streams_sustained values");
        }
        return new Plot(id, title, chart.render(), "", chart.barCount(), chart.barCount());
    }

    /** The whole report as one HTML document. */
    public static String render(String title, Table results, Table summary, Table published) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(SvgLinePlot.escape(title)).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        html.append("<h1>").append(SvgLinePlot.escape(title)).append("</h1>\n");
        html.append("<p>").append(results.rowCount()).append(" result rows from: ")
                .append(SvgLinePlot.escape(String.join(", ", results.stringColumn(ResultColumns.SOURCE_DIR).unique().asList())))
                .append("</p>\n");
        html.append("<h2>Summary</h2>\n").append(table(summary));
        if (published != null && !published.isEmpty()) {
            html.append("<h2>Published and measured</h2>\n")
                    .append("<p class=\"note\">The scaling column states how each measured figure was scaled.</p>\n")
                    .append(table(published));
        }
        html.append("<h2>Plots</h2>\n");
        List<String> absent = new ArrayList<>();
        for (Plot plot : plots(results)) {
            if (plot.drawn()) {
                html.append("<figure id=\"").append(plot.id()).append("\" class=\"plot-figure\" data-series=\"")
                        .append(plot.series()).append("\" data-points=\"").append(plot.points()).append("\">\n")
                        .append(plot.svg()).append("</figure>\n");
            } else {
                absent.add(plot.title() + ": " + plot.note());
            }
        }
        if (!absent.isEmpty()) {
            html.append("<p class=\"note\">Plots without data in these results:</p>\n<ul class=\"note\">\n");
            absent.forEach(text -> html.append("<li>").append(SvgLinePlot.escape(text)).append("</li>\n"));
            html.append("</ul>\n");
        }
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    /** Writes {@link #render} to {@code file} in UTF-8. */
    public static void write(Path file, String title, Table results, Table summary, Table published) throws IOException {
        Files.writeString(file, render(title, results, summary, published), StandardCharsets.UTF_8);
    }

    private static Plot plot(Table results, String id, String title, String xLabel, String xDimension, String yLabel,
                             String metric, boolean logX, String seriesDimension) {
        for (String needed : List.of(xDimension, seriesDimension)) {
            if (!results.containsColumn(needed)) {
                return Plot.absent(id, title, "not drawn: the results have no '" + needed + "' column");
            }
        }
        if (!hasValues(results, metric.equals("throughput_gbps") ? "throughput_bps" : metric)
                && !metric.startsWith("ttlb_")) {
            return Plot.absent(id, title, "not drawn: no " + metric + " values");
        }
        if (results.stringColumn(xDimension).removeMissing().countUnique() < 2) {
            return Plot.absent(id, title, "not drawn: one value of '" + xDimension + "' only");
        }
        List<String> seriesDimensions = seriesDimensions(results, seriesDimension, xDimension);
        List<String> groupBy = new ArrayList<>(seriesDimensions);
        groupBy.add(xDimension);
        String[] by = groupBy.toArray(String[]::new);
        boolean latency = metric.startsWith("ttlb_") || metric.startsWith("ttfb_");
        Table summary = latency ? Summary.by(results, by) : Summary.withoutLatency(results, by);
        SvgLinePlot svg = new SvgLinePlot(title, xLabel, yLabel, logX);
        for (Row row : summary) {
            double x;
            try {
                x = Double.parseDouble(row.getString(xDimension));
            } catch (NumberFormatException e) {
                continue;
            }
            if (row.isMissing(metric)) {
                continue;
            }
            List<String> label = new ArrayList<>();
            for (String dimension : seriesDimensions) {
                label.add(dimension.equals(seriesDimension) ? row.getString(dimension) : dimension + "=" + row.getString(dimension));
            }
            svg.add(String.join(", ", label), x, row.getDouble(metric));
        }
        if (svg.isEmpty()) {
            return Plot.absent(id, title, "not drawn: no " + metric + " values (for latency: no .hlog files)");
        }
        return new Plot(id, title, svg.render(), "", svg.seriesCount(), svg.pointCount());
    }

    /**
     * The series of a plot: {@code primary}, then every other dimension (but the x axis and the experiment) that splits
     * the rows further, so a dimension that varies with one already chosen (server with engine, link_bps with link) is
     * not repeated.
     */
    private static List<String> seriesDimensions(Table results, String primary, String xDimension) {
        List<String> chosen = new ArrayList<>(List.of(primary));
        for (String dimension : ResultColumns.dimensions(results)) {
            if (chosen.contains(dimension) || dimension.equals(xDimension) || dimension.equals("experiment")) {
                continue;
            }
            List<String> with = new ArrayList<>(chosen);
            with.add(xDimension);
            int before = combinations(results, with);
            with.add(dimension);
            if (combinations(results, with) > before) {
                chosen.add(dimension);
            }
        }
        return chosen;
    }

    private static int combinations(Table results, List<String> dimensions) {
        return results.selectColumns(dimensions.toArray(String[]::new)).dropDuplicateRows().rowCount();
    }

    private static boolean hasValues(Table results, String column) {
        return results.containsColumn(column) && results.column(column).countMissing() < results.rowCount();
    }

    private static String slug(String text) {
        String slug = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return slug.isEmpty() ? "results" : slug;
    }

    private static String table(Table table) {
        StringBuilder html = new StringBuilder("<table>\n<thead><tr>");
        for (Column<?> column : table.columns()) {
            html.append("<th>").append(SvgLinePlot.escape(column.name())).append("</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (int row = 0; row < table.rowCount(); row++) {
            html.append("<tr>");
            for (Column<?> column : table.columns()) {
                String text = column.isMissing(row) ? "" : column instanceof NumericColumn<?> number
                        ? MarkdownTable.number(number.getDouble(row)) : column.getString(row);
                html.append(column instanceof NumericColumn ? "<td class=\"n\">" : "<td>").append(SvgLinePlot.escape(text)).append("</td>");
            }
            html.append("</tr>\n");
        }
        return html.append("</tbody>\n</table>\n").toString();
    }
}
