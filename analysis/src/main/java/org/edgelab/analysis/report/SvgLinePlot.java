package org.edgelab.analysis.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A line plot rendered as a standalone inline SVG element (no scripts, no external references): one polyline
 * ({@code class="series"}, {@code data-series} its name) with one circle per point ({@code class="point"},
 * {@code data-series}, and {@code data-x} and {@code data-y} its values) per series; a linear, log10 or "nines" x axis (percentiles spread as
 * HdrHistogram plots them: 90 %, 99 %, 99.9 % equally apart), a linear or log10 y axis, labelled axes and a legend.
 * Series may share a colour (one colour per build, dashed lines for its later repetitions); the legend then names each
 * colour once.
 *
 * <p>Hand-written SVG rather than a bundled charting library: the report stays one file with no script at all (it
 * prints, opens in any viewer, and is safe to mail), the browser test can read every drawn point from the DOM, and
 * the few plot kinds needed here take less code than wiring a library's options would.
 *
 * <p>Thread-safety: not thread-safe while series are being added; {@link #render()} does not modify it.
 */
public final class SvgLinePlot {
    /** How x values are placed along the axis. */
    public enum XScale {
        /** Evenly. */
        LINEAR,
        /** log10 of the value (values must be > 0). */
        LOG,
        /** Percentiles (0 to under 100) at log10(100 / (100 - p)): 0 %, 90 %, 99 %, 99.9 % one step apart. */
        NINES
    }

    private static final int PLOT_WIDTH = 470;
    private static final int HEIGHT = 400;
    private static final int LEFT = 80;
    /** Legend room: at least this, more for long series names (about 6.5 px per character at 11 px). */
    private static final int MIN_RIGHT = 170;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;
    static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

    private record Style(String legend, boolean dashed) {
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final XScale xScale;
    private final boolean logY;
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();
    private final Map<String, Style> styles = new LinkedHashMap<>();
    private boolean xBytes;

    /** A plot titled {@code title} with axis labels; {@code logX} draws the x axis on a log10 scale (x must be > 0). */
    public SvgLinePlot(String title, String xLabel, String yLabel, boolean logX) {
        this(title, xLabel, yLabel, logX ? XScale.LOG : XScale.LINEAR, false);
    }

    /** A plot titled {@code title} with axis labels, an x axis of {@code xScale} and, if {@code logY}, a log10 y axis. */
    public SvgLinePlot(String title, String xLabel, String yLabel, XScale xScale, boolean logY) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.xScale = xScale;
        this.logY = logY;
    }

    /**
     * Adds the point (x, y) to {@code name}'s series; non-finite values, x <= 0 on a log axis, x outside [0, 100) on a
     * nines axis and y <= 0 on a log y axis are ignored.
     */
    public SvgLinePlot add(String name, double x, double y) {
        boolean xOk = switch (xScale) {
            case LINEAR -> true;
            case LOG -> x > 0;
            case NINES -> x >= 0 && x < 100;
        };
        if (Double.isFinite(x) && Double.isFinite(y) && xOk && (!logY || y > 0)) {
            series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {x, y});
        }
        return this;
    }

    /**
     * Draws {@code name} in the colour of {@code legend} (series with the same legend share a colour and one legend
     * entry), dashed if {@code dashed}. Unstyled series have a colour and a legend entry of their own.
     */
    public SvgLinePlot style(String name, String legend, boolean dashed) {
        styles.put(name, new Style(legend, dashed));
        return this;
    }

    /** Labels the x ticks as sizes ({@code 100 KB}, {@code 1 MiB}) rather than numbers: for x values in bytes. */
    public SvgLinePlot xInBytes() {
        this.xBytes = true;
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
        double maxY = logY ? -Double.MAX_VALUE : 0;
        double minY = logY ? Double.MAX_VALUE : 0;
        for (List<double[]> points : series.values()) {
            for (double[] p : points) {
                minX = Math.min(minX, tx(p[0]));
                maxX = Math.max(maxX, tx(p[0]));
                maxY = Math.max(maxY, ty(p[1]));
                minY = Math.min(minY, ty(p[1]));
            }
        }
        if (xScale == XScale.NINES) {
            minX = 0;
            maxX = Math.max(1, Math.ceil(maxX - 1e-9));
        }
        if (minX == maxX) {
            minX -= 0.5;
            maxX += 0.5;
        }
        if (logY) {
            minY = Math.floor(minY);
            maxY = Math.max(minY + 1, Math.ceil(maxY));
        } else {
            if (maxY == minY) {
                maxY = minY + 1;
            }
            maxY = niceCeiling(maxY);
        }
        List<String> legends = legends();
        int longest = legends.stream().mapToInt(String::length).max().orElse(0);
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
        for (double tick : yTicks(y0, y0 + ySpan)) {
            double y = TOP + plotH - plotH * (tick - y0) / ySpan;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>%n",
                    LEFT, LEFT + plotW, y, y, LEFT - 6, y + 4, logY ? decade(tick) : MarkdownTable.number(tick)));
        }
        for (double tick : xTicks(x0, x0 + xSpan)) {
            double x = LEFT + plotW * (tick - x0) / xSpan;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%s</text>%n",
                    x, x, TOP, TOP + plotH, x, TOP + plotH + 16, xTickLabel(tick)));
        }
        String scale = switch (xScale) {
            case LINEAR -> "";
            case LOG -> " (log scale)";
            case NINES -> "";
        };
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">%s</text>%n",
                LEFT + plotW / 2, HEIGHT - 14, escape(xLabel + scale)));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s</text>%n",
                TOP + plotH / 2, TOP + plotH / 2, escape(yLabel + (logY ? " (log scale)" : ""))));
        for (Map.Entry<String, List<double[]>> entry : series.entrySet()) {
            String name = entry.getKey();
            Style style = styles.getOrDefault(name, new Style(name, false));
            String colour = COLOURS[legends.indexOf(style.legend()) % COLOURS.length];
            List<double[]> points = new ArrayList<>(entry.getValue());
            points.sort((a, b) -> Double.compare(a[0], b[0]));
            StringBuilder path = new StringBuilder();
            StringBuilder marks = new StringBuilder();
            for (double[] p : points) {
                double x = LEFT + plotW * (tx(p[0]) - x0) / xSpan;
                double y = TOP + plotH - plotH * (ty(p[1]) - y0) / ySpan;
                path.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                marks.append(String.format(Locale.ROOT, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\""
                                + " data-series=\"%s\" data-x=\"%s\" data-y=\"%s\"><title>%s: %s, %s</title></circle>",
                        x, y, points.size() > 20 ? "2.5" : "3.5", colour, escape(name), p[0], p[1], escape(name), xValueLabel(p[0]),
                        MarkdownTable.number(p[1])));
            }
            svg.append(String.format(Locale.ROOT, "<polyline class=\"series\" data-series=\"%s\" points=\"%s\" fill=\"none\""
                            + " stroke=\"%s\" stroke-width=\"2\"%s/>%s%n",
                    escape(name), path.toString().trim(), colour, style.dashed() ? " stroke-dasharray=\"6 4\"" : "", marks));
        }
        for (int i = 0; i < legends.size(); i++) {
            double ly = TOP + 10 + i * 20;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"4\" fill=\"%s\"/>"
                    + "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">%s</text>%n",
                    LEFT + plotW + 12, ly, COLOURS[i % COLOURS.length], LEFT + plotW + 32, ly + 5, escape(legends.get(i))));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** The legend entries: each series' legend (its name unless styled), once, in order of first appearance. */
    private List<String> legends() {
        Set<String> legends = new LinkedHashSet<>();
        for (String name : series.keySet()) {
            legends.add(styles.getOrDefault(name, new Style(name, false)).legend());
        }
        return new ArrayList<>(legends);
    }

    private double tx(double x) {
        return switch (xScale) {
            case LINEAR -> x;
            case LOG -> Math.log10(x);
            case NINES -> Math.log10(100 / (100 - x));
        };
    }

    private double ty(double y) {
        return logY ? Math.log10(y) : y;
    }

    private String xTickLabel(double tick) {
        return switch (xScale) {
            case LINEAR -> xBytes ? HumanUnits.size(Math.round(tick)) : MarkdownTable.number(tick);
            case LOG -> xBytes ? HumanUnits.size(Math.round(Math.pow(10, tick))) : MarkdownTable.number(Math.pow(10, tick));
            case NINES -> percentile(100 - 100 / Math.pow(10, tick));
        };
    }

    private String xValueLabel(double x) {
        return xScale == XScale.NINES ? "p" + percentile(x) : xBytes ? HumanUnits.size(Math.round(x)) : MarkdownTable.number(x);
    }

    /** 10^exponent written out: {@code 0.01}, {@code 1}, {@code 1000}. */
    private static String decade(double exponent) {
        return java.math.BigDecimal.ONE.scaleByPowerOfTen((int) Math.round(exponent)).stripTrailingZeros().toPlainString();
    }

    /** A percentile as {@code 99.9 %}: as many decimals as it has nines. */
    private static String percentile(double p) {
        String text = org.edgelab.units.SignificantFigures.format(p, 8);
        return text + " %";
    }

    private List<Double> xTicks(double from, double to) {
        List<Double> ticks = new ArrayList<>();
        if (xScale != XScale.LINEAR) {
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

    private List<Double> yTicks(double from, double to) {
        List<Double> ticks = new ArrayList<>();
        if (logY) {
            for (double d = from; d <= to + 1e-9; d++) {
                ticks.add(d);
            }
            return ticks;
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
