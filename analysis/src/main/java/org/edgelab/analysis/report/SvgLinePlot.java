package org.edgelab.analysis.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A line plot rendered as a standalone inline SVG element (no scripts, no external references): one polyline
 * ({@code class="series"}) with one circle per point ({@code class="point"}) per series, linear or logarithmic x axis,
 * labelled axes and a legend.
 *
 * <p>Thread-safety: not thread-safe while series are being added; {@link #render()} does not modify it.
 */
public final class SvgLinePlot {
    private static final int PLOT_WIDTH = 470;
    private static final int HEIGHT = 400;
    private static final int LEFT = 80;
    /** Legend room: at least this, more for long series names (about 6.5 px per character at 11 px). */
    private static final int MIN_RIGHT = 170;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();

    /** A plot titled {@code title} with axis labels; {@code logX} draws the x axis on a log10 scale (x must be > 0). */
    public SvgLinePlot(String title, String xLabel, String yLabel, boolean logX) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
    }

    /** Adds the point (x, y) to {@code name}'s series; non-finite values (and x <= 0 on a log axis) are ignored. */
    public SvgLinePlot add(String name, double x, double y) {
        if (Double.isFinite(x) && Double.isFinite(y) && (!logX || x > 0)) {
            series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {x, y});
        }
        return this;
    }

    /** How many series have at least one point. */
    public int seriesCount() {
        return series.size();
    }

    /** How many points were added (over all series). */
    public int pointCount() {
        return series.values().stream().mapToInt(List::size).sum();
    }

    /** Whether any point was added. */
    public boolean isEmpty() {
        return series.isEmpty();
    }

    /** The plot as one {@code <svg>} element. */
    public String render() {
        double minX = Double.MAX_VALUE;
        double maxX = -Double.MAX_VALUE;
        double maxY = 0;
        double minY = 0;
        for (List<double[]> points : series.values()) {
            for (double[] p : points) {
                minX = Math.min(minX, tx(p[0]));
                maxX = Math.max(maxX, tx(p[0]));
                maxY = Math.max(maxY, p[1]);
                minY = Math.min(minY, p[1]);
            }
        }
        if (minX == maxX) {
            minX -= 0.5;
            maxX += 0.5;
        }
        if (maxY == minY) {
            maxY = minY + 1;
        }
        maxY = niceCeiling(maxY);
        int longest = series.keySet().stream().mapToInt(String::length).max().orElse(0);
        int right = Math.max(MIN_RIGHT, 40 + (int) Math.ceil(longest * 6.5));
        int width = LEFT + PLOT_WIDTH + right;
        double plotW = PLOT_WIDTH;
        double plotH = HEIGHT - TOP - BOTTOM;
        final double x0 = minX;
        final double xSpan = maxX - minX;
        final double y0 = minY;
        final double ySpan = maxY - minY;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg class=\"plot\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\">%n",
                width, HEIGHT, width, HEIGHT, escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" class=\"title\">%s</text>%n", LEFT, escape(title)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" class=\"frame\"/>%n", LEFT, TOP, plotW, plotH));
        for (int i = 0; i <= 5; i++) {
            double value = y0 + ySpan * i / 5;
            double y = TOP + plotH - plotH * i / 5;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>%n",
                    LEFT, LEFT + plotW, y, y, LEFT - 6, y + 4, MarkdownTable.number(value)));
        }
        for (double tick : xTicks(x0, x0 + xSpan)) {
            double x = LEFT + plotW * (tick - x0) / xSpan;
            String label = MarkdownTable.number(logX ? Math.pow(10, tick) : tick);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%s</text>%n",
                    x, x, TOP, TOP + plotH, x, TOP + plotH + 16, label));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">%s</text>%n",
                LEFT + plotW / 2, HEIGHT - 14, escape(xLabel + (logX ? " (log scale)" : ""))));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s</text>%n",
                TOP + plotH / 2, TOP + plotH / 2, escape(yLabel)));
        int index = 0;
        for (Map.Entry<String, List<double[]>> entry : series.entrySet()) {
            String colour = COLOURS[index % COLOURS.length];
            List<double[]> points = new ArrayList<>(entry.getValue());
            points.sort((a, b) -> Double.compare(a[0], b[0]));
            StringBuilder path = new StringBuilder();
            StringBuilder marks = new StringBuilder();
            for (double[] p : points) {
                double x = LEFT + plotW * (tx(p[0]) - x0) / xSpan;
                double y = TOP + plotH - plotH * (p[1] - y0) / ySpan;
                path.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                marks.append(String.format(Locale.ROOT, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>%s: %s, %s</title></circle>",
                        x, y, colour, escape(entry.getKey()), MarkdownTable.number(p[0]), MarkdownTable.number(p[1])));
            }
            svg.append(String.format(Locale.ROOT, "<polyline class=\"series\" points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%s%n",
                    path.toString().trim(), colour, marks));
            double ly = TOP + 10 + index * 20;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"4\" fill=\"%s\"/>"
                    + "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">%s</text>%n",
                    LEFT + plotW + 12, ly, colour, LEFT + plotW + 32, ly + 5, escape(entry.getKey())));
            index++;
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private double tx(double x) {
        return logX ? Math.log10(x) : x;
    }

    private List<Double> xTicks(double from, double to) {
        List<Double> ticks = new ArrayList<>();
        if (logX) {
            for (double d = Math.ceil(from); d <= Math.floor(to); d++) {
                ticks.add(d);
            }
            if (!ticks.isEmpty()) {
                return ticks;
            }
        }
        for (int i = 0; i <= 5; i++) {
            ticks.add(from + (to - from) * i / 5);
        }
        return ticks;
    }

    static double niceCeiling(double value) {
        if (value <= 0) {
            return value;
        }
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
