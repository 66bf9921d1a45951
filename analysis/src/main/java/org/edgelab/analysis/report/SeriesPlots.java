package org.edgelab.analysis.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.edgelab.analysis.SeriesTable;
import org.edgelab.analysis.report.HtmlReport.Plot;

import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * The per-second plots of a run's {@code series.csv}: for each phase, the hit ratio and the requests/s of every interval,
 * a line per cell and repetition. A phase with a {@code kill} event is drawn in seconds since the kill (every cell's
 * event at 0), and its caption gives each line's restart ({@code listening}) and first hit on that axis.
 *
 * <p>Thread-safety: stateless.
 */
final class SeriesPlots {

    private SeriesPlots() {
    }

    /** The plots of {@code series} (one experiment's), ids prefixed {@code id}, titles suffixed {@code suffix}. */
    static List<Plot> plots(Table series, String id, String suffix) {
        List<Plot> plots = new ArrayList<>();
        Table intervals = SeriesTable.intervals(series);
        Table events = SeriesTable.events(series);
        for (String phase : distinct(series, "phase")) {
            Table mine = intervals.where(intervals.stringColumn("phase").isEqualTo(phase));
            Table marks = events.where(events.stringColumn("phase").isEqualTo(phase));
            boolean killed = marks.stringColumn("event").isEqualTo("kill").size() > 0;
            String axis = killed ? "seconds since the kill" : "seconds since the phase started";
            String slug = HtmlReport.slug(phase);
            plots.add(plot(mine, marks, killed, id + "series-" + slug + "-hit-ratio", "Hit ratio per second, " + phase + suffix,
                    axis, "hit ratio (requests, per interval)", "hit_ratio"));
            plots.add(plot(mine, marks, killed, id + "series-" + slug + "-req-per-s", "Requests/s per second, " + phase + suffix,
                    axis, "requests/s (per interval)", "req_per_s"));
        }
        return plots;
    }

    private static Plot plot(Table intervals, Table events, boolean killed, String id, String title, String xLabel,
                             String yLabel, String metric) {
        SvgLinePlot svg = new SvgLinePlot(title, xLabel, yLabel, false);
        List<String> caption = new ArrayList<>();
        for (String cell : distinct(intervals, "cell")) {
            Table rows = intervals.where(intervals.stringColumn("cell").isEqualTo(cell));
            for (String rep : distinct(rows, "repetition")) {
                Table one = rows.where(rows.stringColumn("repetition").isEqualTo(rep));
                Table marks = events.where(events.stringColumn("cell").isEqualTo(cell).and(events.stringColumn("repetition").isEqualTo(rep)));
                double origin = killed ? second(marks, "kill") : 0;
                if (Double.isNaN(origin)) {
                    continue; // a repetition without a kill in a phase that has one: nothing to align it to
                }
                String name = cell + " r" + rep;
                svg.style(name, cell, !rep.equals("1"));
                for (Row r : one) {
                    if (!r.isMissing(metric) && !r.isMissing("second")) {
                        svg.add(name, r.getDouble("second") - origin, r.getDouble(metric));
                    }
                }
                List<String> at = new ArrayList<>();
                for (Row e : marks) {
                    if (!e.getString("event").equals("kill") && !e.isMissing("second")) {
                        at.add(String.format(Locale.ROOT, "%s at %.2f s", e.getString("event"), e.getDouble("second") - origin));
                    }
                }
                if (!at.isEmpty()) {
                    caption.add(name + ": " + String.join(", ", at));
                }
            }
        }
        if (svg.isEmpty()) {
            return Plot.absent(id, title, "not drawn: no intervals with " + metric);
        }
        return new Plot(id, title, svg.render(), String.join("; ", caption), svg.seriesCount(), svg.pointCount());
    }

    private static double second(Table marks, String event) {
        for (Row e : marks) {
            if (e.getString("event").equals(event) && !e.isMissing("second")) {
                return e.getDouble("second");
            }
        }
        return Double.NaN;
    }

    private static List<String> distinct(Table t, String column) {
        return new ArrayList<>(new java.util.LinkedHashSet<>(t.stringColumn(column).asList()));
    }
}
