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
 * A self-contained HTML report: first the headline comparison of the builds per object size ({@link Headline}), then
 * inline SVG plots per experiment ({@link #plots}), the published figures beside the measured ones, and the wide
 * summary table behind a link (and as a CSV download inside the file); each drawn plot is a {@code <figure>} whose
 * {@code id} is {@link Plot#id()}. It loads nothing: no script, stylesheet, font or image from anywhere.
 *
 * <p>Thread-safety: stateless.
 */
public final class HtmlReport {
    private static final String CSS = """
            body{font-family:system-ui,sans-serif;margin:1.5em 2em;color:#222;max-width:1400px}
            h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin:1.2em 0 .3em}
            p.source{margin:.2em 0 .6em;color:#444;font-size:.9em}
            table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
            th,td{border:1px solid #ccc;padding:.25em .5em}th{background:#f2f2f2}td.n{text-align:right;white-space:nowrap}
            table.headline{display:inline-table;vertical-align:top;margin:.3em 1.2em .6em 0}
            table.headline caption{text-align:left;font-weight:bold;padding:.2em 0}
            tr.baseline td{background:#f7f9fc;font-weight:600}.ratio{color:#666;font-size:.85em;font-weight:normal}
            details summary{cursor:pointer;margin:.4em 0}div.wide{overflow-x:auto}
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
     * The report's plots, per experiment in the results (latency from merged histograms via {@link Summary}). For request
     * experiments: latency by percentile (TTFB and TTLB, one plot per object size, one line per build, on a "nines" x
     * axis), bars of req/s and Gbit/s per object size (one chart each, a bar per build grouped by setting) with min-max whiskers over repetitions, req/s and TTFB p99
     * over time within each cell (one line per repetition, from the interval histograms, one plot per object size); then
     * TTLB p99 against object size and against concurrency, throughput against concurrency, hit ratio, requests/s per
     * watt and Gbit/s per watt. Streams sustained per server build when the results hold video-streams measurements.
     * Hit ratio and req/s per second of each phase where the run folders have a {@code series.csv} ({@link SeriesPlots});
     * the caption of such a plot ({@link Plot#note()}) gives the events on its time axis.
     * A plot whose data the experiment lacks (or whose x axis has one value only) is returned undrawn with a note.
     */
    public static List<Plot> plots(Table results) {
        List<Plot> plots = new ArrayList<>();
        for (String experiment : new java.util.LinkedHashSet<>(results.stringColumn("experiment").asList())) {
            Table mine = results.where(results.stringColumn("experiment").isEqualTo(experiment));
            String suffix = " (" + experiment + ")";
            String id = slug(experiment) + "-";
            if (hasValues(mine, "req_per_s")) {
                plots.addAll(RequestPlots.percentiles(mine, id, suffix));
                plots.addAll(RequestPlots.bars(mine, id, suffix, "req-per-s-bars", "Requests/s", "req_per_s", 1,
                        "requests/s (median; whisker: fewest to most)"));
                plots.addAll(RequestPlots.bars(mine, id, suffix, "gbps-bars", "Throughput", "throughput_bps", 1e-9,
                        "Gbit/s (median; whisker: fewest to most)"));
                plots.addAll(RequestPlots.overTime(mine, id, suffix));
            }
            plots.add(plot(mine, id + "ttlb-p99-by-size", "TTLB p99 against object size" + suffix, "object size",
                    "object_size_bytes", "TTLB p99 (ms, merged histograms)", "ttlb_p99_ms", true));
            plots.add(plot(mine, id + "ttlb-p99-by-concurrency", "TTLB p99 against concurrency" + suffix, "connections",
                    "connections", "TTLB p99 (ms, merged histograms)", "ttlb_p99_ms", true));
            plots.add(plot(mine, id + "throughput-by-concurrency", "Throughput against concurrency" + suffix, "connections",
                    "connections", "throughput (Gbit/s, median over repetitions)", "throughput_gbps", false));
            plots.add(plot(mine, id + "hit-ratio-by-size", "Hit ratio (requests)" + suffix, "object size",
                    "object_size_bytes", "hit ratio (requests)", "hit_ratio_requests", true));
            plots.add(plot(mine, id + "requests-per-watt-by-size", "Requests/s per watt" + suffix, "object size",
                    "object_size_bytes", "requests/s per watt", "req_per_s_per_watt", true));
            plots.add(plot(mine, id + "gbps-per-watt-by-size", "Gbit/s per watt" + suffix, "object size",
                    "object_size_bytes", "Gbit/s per watt", "gbps_per_watt", true));
            if (hasValues(mine, "streams_sustained")) {
                plots.add(streams(mine, id + "streams-sustained", "Streams sustained" + suffix));
            }
            org.edgelab.analysis.SeriesTable.of(mine).ifPresent(series -> plots.addAll(SeriesPlots.plots(series, id, suffix)));
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

    /** {@link #render(String, Table, Table, Table, String)} against the default baseline. */
    public static String render(String title, Table results, Table summary, Table published) {
        return render(title, results, summary, published, null);
    }

    /**
     * The whole report as one HTML document. Its first screen is the {@link Headline} per experiment and object size,
     * with ratios to {@code baseline} (a build name; null or unknown: the first peer, else the first build), and the
     * {@link EventTables} of restart and churn experiments; then the
     * plots, the published figures beside the measured ones, and the wide summary table behind a link (with the same
     * table as a CSV download carried inside the file, so nothing is fetched).
     */
    public static String render(String title, Table results, Table summary, Table published, String baseline) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(SvgLinePlot.escape(title)).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        html.append("<h1>").append(SvgLinePlot.escape(title)).append("</h1>\n");
        List<String> sources = new ArrayList<>(new java.util.LinkedHashSet<>(results.stringColumn(ResultColumns.SOURCE_DIR).asList()));
        html.append("<p class=\"source\" title=\"").append(SvgLinePlot.escape(String.join("\n", sources))).append("\">")
                .append(results.rowCount()).append(" result rows from ")
                .append(SvgLinePlot.escape(String.join(", ", sources.stream().map(HtmlReport::shortSource).toList())))
                .append(". Medians over repetitions; latency percentiles from the merged histograms of all repetitions;"
                        + " ×: ratio to the baseline build. <a href=\"#summary\">Every figure</a> ("
                        + summary.columnCount() + " columns, and as CSV).</p>\n");
        html.append(headline(Headline.sections(results, baseline)));
        for (String experiment : new java.util.LinkedHashSet<>(results.stringColumn("experiment").asList())) {
            Table mine = results.where(results.stringColumn("experiment").isEqualTo(experiment));
            for (java.util.Map.Entry<String, Table> t : EventTables.of(mine)) {
                html.append("<h2 class=\"event-table\">").append(SvgLinePlot.escape(experiment)).append("</h2>\n<p class=\"note\">")
                        .append(SvgLinePlot.escape(t.getKey())).append("</p>\n<div class=\"wide\" id=\"").append(slug(experiment))
                        .append("-").append(t.getValue().name()).append("-summary\">").append(table(t.getValue())).append("</div>\n");
            }
        }
        html.append("<h2 id=\"plots\">Plots</h2>\n");
        List<String> absent = new ArrayList<>();
        for (Plot plot : plots(results)) {
            if (plot.drawn()) {
                html.append("<figure id=\"").append(plot.id()).append("\" class=\"plot-figure\" data-series=\"")
                        .append(plot.series()).append("\" data-points=\"").append(plot.points()).append("\">\n")
                        .append(plot.svg());
                if (!plot.note().isEmpty()) {
                    html.append("<figcaption class=\"note\">").append(SvgLinePlot.escape(plot.note())).append("</figcaption>\n");
                }
                html.append("</figure>\n");
            } else {
                absent.add(plot.title() + ": " + plot.note());
            }
        }
        if (!absent.isEmpty()) {
            html.append("<p class=\"note\">Plots without data in these results:</p>\n<ul class=\"note\">\n");
            absent.forEach(text -> html.append("<li>").append(SvgLinePlot.escape(text)).append("</li>\n"));
            html.append("</ul>\n");
        }
        if (published != null && !published.isEmpty()) {
            html.append("<h2>Published and measured</h2>\n")
                    .append("<p class=\"note\">The scaling column states how each measured figure was scaled.</p>\n")
                    .append("<div class=\"wide\">").append(table(published)).append("</div>");
        }
        html.append("<h2 id=\"summary\">Every figure</h2>\n<p><a class=\"csv\" download=\"summary.csv\" href=\"data:text/csv;charset=utf-8,")
                .append(java.net.URLEncoder.encode(csv(summary), StandardCharsets.UTF_8).replace("+", "%20"))
                .append("\">summary.csv</a> (also written beside this file).</p>\n")
                .append("<details><summary>The summary table: ").append(summary.rowCount()).append(" rows, ")
                .append(summary.columnCount()).append(" columns</summary>\n<div class=\"wide\">").append(table(summary))
                .append("</div></details>\n");
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    /** Writes {@link #render} to {@code file} in UTF-8, ratios against the default baseline. */
    public static void write(Path file, String title, Table results, Table summary, Table published) throws IOException {
        write(file, title, results, summary, published, null);
    }

    /** Writes {@link #render} to {@code file} in UTF-8, ratios against {@code baseline}. */
    public static void write(Path file, String title, Table results, Table summary, Table published, String baseline)
            throws IOException {
        Files.writeString(file, render(title, results, summary, published, baseline), StandardCharsets.UTF_8);
    }

    private static String headline(List<Headline.Section> sections) {
        StringBuilder html = new StringBuilder();
        String experiment = null;
        for (Headline.Section section : sections) {
            if (!section.experiment().equals(experiment)) {
                experiment = section.experiment();
                html.append("<h2 class=\"headline-experiment\">").append(SvgLinePlot.escape(experiment))
                        .append(" <span class=\"note\">baseline: ").append(SvgLinePlot.escape(section.baseline()))
                        .append("</span></h2>\n");
            }
            Table t = section.table();
            boolean settings = !section.settingDimensions().isEmpty();
            boolean targets = t.stringColumn("target").asList().stream().anyMatch(s -> !s.isBlank());
            html.append("<table class=\"headline\" data-experiment=\"").append(SvgLinePlot.escape(section.experiment()))
                    .append("\" data-object-size=\"").append(SvgLinePlot.escape(section.objectSizeBytes())).append("\">\n<caption>")
                    .append(SvgLinePlot.escape(section.objectSize().isEmpty() ? section.experiment() : section.objectSize() + " objects"))
                    .append("</caption>\n<thead><tr><th>build</th>");
            if (settings) {
                html.append("<th>").append(SvgLinePlot.escape(String.join(", ",
                        section.settingDimensions().stream().map(Builds::shortName).toList()))).append("</th>");
            }
            if (targets) {
                html.append("<th>target</th>");
            }
            html.append("<th>req/s</th><th>Gbit/s</th><th>TTFB p50</th><th>TTFB p99</th><th>TTLB p50</th><th>TTLB p99</th>"
                    + "<th>hit</th><th>CPU s/GB</th><th>req/s per W</th></tr></thead>\n<tbody>\n");
            for (Row row : t) {
                boolean base = row.getString("build").equals(section.baseline());
                html.append(base ? "<tr class=\"baseline\">" : "<tr>").append("<td>").append(SvgLinePlot.escape(row.getString("build")))
                        .append("</td>");
                if (settings) {
                    html.append("<td>").append(SvgLinePlot.escape(row.getString("setting"))).append("</td>");
                }
                if (targets) {
                    html.append("<td>").append(SvgLinePlot.escape(row.getString("target"))).append("</td>");
                }
                for (String figure : Headline.FIGURES) {
                    double value = row.isMissing(figure) ? Double.NaN : row.getDouble(figure);
                    String text = switch (figure) {
                        case "req_per_s", "req_per_s_per_watt" -> HumanUnits.rate(value);
                        case "hit_ratio_requests" -> HumanUnits.percent(value);
                        case "ttfb_p50_ms", "ttfb_p99_ms", "ttlb_p50_ms", "ttlb_p99_ms" ->
                                Double.isFinite(value) ? HumanUnits.significant(value) + " ms" : "";
                        default -> HumanUnits.significant(value);
                    };
                    html.append("<td class=\"n\" data-figure=\"").append(figure).append("\" data-value=\"")
                            .append(Double.isFinite(value) ? String.valueOf(value) : "").append("\">").append(text);
                    if (Headline.RATIOS.contains(figure) && !base) {
                        double ratio = row.isMissing(figure + "_ratio") ? Double.NaN : row.getDouble(figure + "_ratio");
                        if (Double.isFinite(ratio)) {
                            html.append(" <span class=\"ratio\" data-ratio=\"").append(ratio).append("\">")
                                    .append(HumanUnits.times(ratio)).append("</span>");
                        }
                    }
                    html.append("</td>");
                }
                html.append("</tr>\n");
            }
            html.append("</tbody>\n</table>\n");
        }
        return html.toString();
    }

    /** A run folder by its last two names ({@code varnish-edge/20261130-040000}); the full path is the paragraph's title. */
    private static String shortSource(String dir) {
        Path path = Path.of(dir);
        int n = path.getNameCount();
        return n >= 2 ? path.subpath(n - 2, n).toString() : dir;
    }

    /** The table as RFC 4180 CSV, as Tablesaw writes it. */
    private static String csv(Table table) {
        java.io.StringWriter out = new java.io.StringWriter();
        table.write().csv(out);
        return out.toString();
    }

    private static Plot plot(Table results, String id, String title, String xLabel, String xDimension, String yLabel,
                             String metric, boolean logX) {
        Builds builds = new Builds(results, xDimension);
        if (builds.column().isEmpty()) {
            return Plot.absent(id, title, "not drawn: the results have no 'server' or 'engine' column");
        }
        if (!results.containsColumn(xDimension)) {
            return Plot.absent(id, title, "not drawn: the results have no '" + xDimension + "' column");
        }
        if (!hasValues(results, metric.equals("throughput_gbps") ? "throughput_bps" : metric)
                && !metric.startsWith("ttlb_")) {
            return Plot.absent(id, title, "not drawn: no " + metric + " values");
        }
        if (results.stringColumn(xDimension).removeMissing().countUnique() < 2) {
            return Plot.absent(id, title, "not drawn: one value of '" + xDimension + "' only");
        }
        List<String> groupBy = new ArrayList<>();
        groupBy.add(builds.column().get());
        groupBy.addAll(builds.extra());
        groupBy.add(xDimension);
        String[] by = groupBy.toArray(String[]::new);
        boolean latency = metric.startsWith("ttlb_") || metric.startsWith("ttfb_");
        Table summary = latency ? Summary.by(results, by) : Summary.withoutLatency(results, by);
        SvgLinePlot svg = new SvgLinePlot(title, xLabel, yLabel, logX);
        if (xDimension.endsWith("_bytes")) {
            svg.xInBytes();
        }
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
            svg.add(builds.label(row), x, row.getDouble(metric));
        }
        if (svg.isEmpty()) {
            return Plot.absent(id, title, "not drawn: no " + metric + " values (for latency: no .hlog files)");
        }
        return new Plot(id, title, svg.render(), "", svg.seriesCount(), svg.pointCount());
    }

    static boolean hasValues(Table results, String column) {
        return results.containsColumn(column) && results.column(column).countMissing() < results.rowCount();
    }

    static String slug(String text) {
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
