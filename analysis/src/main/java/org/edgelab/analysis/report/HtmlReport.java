package org.edgelab.analysis.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.edgelab.analysis.ResultColumns;
import org.edgelab.analysis.Summary;

import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import tech.tablesaw.api.NumericColumn;

/**
 * A self-contained HTML report: inline CSS, the summary and published-figure tables, and inline SVG plots (latency
 * against object size per engine, throughput against concurrency, hit ratio, requests/s per watt). It loads nothing:
 * no script, stylesheet, font or image from anywhere.
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

    /** One plot of the report: its title, its {@code <svg>} element, or empty svg and a note saying why it is absent. */
    public record Plot(String title, String svg, String note) {
        /** Whether the plot has data and an SVG element. */
        public boolean drawn() {
            return !svg.isEmpty();
        }
    }

    private HtmlReport() {
    }

    /** The report's plots, computed from the tidy results (latency from merged histograms via {@link Summary}). */
    public static List<Plot> plots(Table results) {
        String series = results.containsColumn("engine") ? "engine" : "server";
        List<Plot> plots = new ArrayList<>();
        plots.add(plot(results, "TTLB p99 against object size", "object size (bytes)", "object_size_bytes",
                "TTLB p99 (ms, merged histograms)", "ttlb_p99_ms", true, series));
        plots.add(plot(results, "Throughput against concurrency", "connections", "connections",
                "throughput (Gbit/s, mean over repetitions)", "throughput_gbps", false, series));
        plots.add(plot(results, "Hit ratio (requests)", "object size (bytes)", "object_size_bytes",
                "hit ratio (requests)", "hit_ratio_requests", true, series));
        plots.add(plot(results, "Requests/s per watt", "object size (bytes)", "object_size_bytes",
                "requests/s per watt", "req_per_s_per_watt", true, series));
        return plots;
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
        for (Plot plot : plots(results)) {
            if (plot.drawn()) {
                html.append("<figure>\n").append(plot.svg()).append("</figure>\n");
            } else {
                html.append("<p class=\"note\">").append(SvgLinePlot.escape(plot.title())).append(": ")
                        .append(SvgLinePlot.escape(plot.note())).append("</p>\n");
            }
        }
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    /** Writes {@link #render} to {@code file} in UTF-8. */
    public static void write(Path file, String title, Table results, Table summary, Table published) throws IOException {
        Files.writeString(file, render(title, results, summary, published), StandardCharsets.UTF_8);
    }

    private static Plot plot(Table results, String title, String xLabel, String xDimension, String yLabel, String metric,
                             boolean logX, String seriesDimension) {
        if (!results.containsColumn(xDimension) || !results.containsColumn(seriesDimension)) {
            return new Plot(title, "", "not drawn: the results have no '" + xDimension + "' or '" + seriesDimension + "' column");
        }
        List<String> seriesDimensions = new ArrayList<>(List.of(seriesDimension));
        for (String other : List.of("object_size_bytes", "connections")) {
            if (!other.equals(xDimension) && results.containsColumn(other) && results.stringColumn(other).countUnique() > 1) {
                seriesDimensions.add(other);
            }
        }
        List<String> groupBy = new ArrayList<>(seriesDimensions);
        groupBy.add(xDimension);
        Table summary = Summary.by(results, groupBy.toArray(String[]::new));
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
            return new Plot(title, "", "not drawn: no " + metric + " values (for latency: no .hlog files)");
        }
        return new Plot(title, svg.render(), "");
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
