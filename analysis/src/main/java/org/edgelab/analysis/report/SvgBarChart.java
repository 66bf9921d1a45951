package org.edgelab.analysis.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * A grouped bar chart rendered as a standalone inline SVG element (no scripts, no external references): groups along
 * the x axis (object sizes, or builds), one bar ({@code class="bar"}, with {@code data-group}, {@code data-series} and
 * {@code data-value}) per series in each group, and where given a whisker ({@code class="whisker"}, {@code data-group}, {@code data-series},
 * {@code data-min}, {@code data-max}) from the smallest to the largest repetition. A legend names the series when there are several.
 * Hand-written for the reasons given on {@link SvgLinePlot}.
 *
 * <p>Thread-safety: not thread-safe while bars are being added; {@link #render()} does not modify it.
 */
public final class SvgBarChart {
    private static final int HEIGHT = 400;
    private static final int LEFT = 80;
    private static final int TOP = 40;
    private static final int BOTTOM = 80;
    private static final int MIN_PLOT_WIDTH = 600;

    private record Bar(String group, String series, double value, double min, double max) {
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<Bar> bars = new ArrayList<>();

    /** A chart titled {@code title} with axis labels. */
    public SvgBarChart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** A bar of its own for {@code label} (a group with one unnamed series); see {@link #add(String, String, double, double, double)}. */
    public SvgBarChart add(String label, double value, double min, double max) {
        return add(label, "", value, min, max);
    }

    /**
     * Adds the bar of {@code series} in {@code group}, of height {@code value}, with a whisker from {@code min} to
     * {@code max} (NaN: no whisker); a non-finite or negative value is ignored.
     */
    public SvgBarChart add(String group, String series, double value, double min, double max) {
        if (Double.isFinite(value) && value >= 0) {
            bars.add(new Bar(group, series, value, min, max));
        }
        return this;
    }

    /** How many bars were added. */
    public int barCount() {
        return bars.size();
    }

    /** How many distinct series the bars belong to. */
    public int seriesCount() {
        return series().size();
    }

    /** Whether any bar was added. */
    public boolean isEmpty() {
        return bars.isEmpty();
    }

    private List<String> series() {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        bars.forEach(b -> names.add(b.series()));
        return new ArrayList<>(names);
    }

    private List<String> groups() {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        bars.forEach(b -> names.add(b.group()));
        return new ArrayList<>(names);
    }

    /** The chart as one {@code <svg>} element. */
    public String render() {
        double top = 0;
        for (Bar bar : bars) {
            top = Math.max(top, Math.max(bar.value(), Double.isFinite(bar.max()) ? bar.max() : 0));
        }
        top = top == 0 ? 1 : SvgLinePlot.niceCeiling(top);
        List<String> series = series();
        List<String> groups = groups();
        boolean legend = series.size() > 1 || !series.get(0).isEmpty();
        int longest = series.stream().mapToInt(String::length).max().orElse(0);
        int right = legend ? Math.max(170, 40 + (int) Math.ceil(longest * 6.5)) : 40;
        double plotW = Math.max(MIN_PLOT_WIDTH, groups.size() * Math.max(1, series.size()) * 26.0);
        int width = (int) (LEFT + plotW + right);
        double plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg class=\"plot\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\">%n",
                width, HEIGHT, width, HEIGHT, SvgLinePlot.escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" class=\"title\">%s</text>%n", LEFT, SvgLinePlot.escape(title)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" class=\"frame\"/>%n", LEFT, TOP, plotW, plotH));
        for (int i = 0; i <= 5; i++) {
            double y = TOP + plotH - plotH * i / 5;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>%n",
                    LEFT, LEFT + plotW, y, y, LEFT - 6, y + 4, HumanUnits.rate(top * i / 5)));
        }
        double slot = plotW / Math.max(1, groups.size());
        double barWidth = Math.min(80, slot * 0.8 / Math.max(1, series.size()));
        for (int g = 0; g < groups.size(); g++) {
            String group = groups.get(g);
            double centre = LEFT + slot * (g + 0.5);
            for (Bar bar : bars) {
                if (!bar.group().equals(group)) {
                    continue;
                }
                int s = series.indexOf(bar.series());
                double x = centre + (s - series.size() / 2.0) * barWidth;
                double height = plotH * bar.value() / top;
                String name = bar.series().isEmpty() ? bar.group() : bar.series() + ", " + bar.group();
                svg.append(String.format(Locale.ROOT,
                        "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" data-group=\"%s\""
                                + " data-series=\"%s\" data-value=\"%s\"><title>%s: %s</title></rect>%n",
                        x + 1, TOP + plotH - height, barWidth - 2, height, SvgLinePlot.COLOURS[s % SvgLinePlot.COLOURS.length],
                        SvgLinePlot.escape(bar.group()), SvgLinePlot.escape(bar.series()), bar.value(),
                        SvgLinePlot.escape(name), MarkdownTable.number(bar.value())));
                if (Double.isFinite(bar.min()) && Double.isFinite(bar.max())) {
                    double wx = x + barWidth / 2;
                    svg.append(String.format(Locale.ROOT,
                            "<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" stroke-width=\"2\""
                                    + " data-group=\"%s\" data-series=\"%s\" data-min=\"%s\" data-max=\"%s\"><title>%s: %s to %s</title></line>%n",
                            wx, wx, TOP + plotH - plotH * bar.min() / top, TOP + plotH - plotH * bar.max() / top,
                            SvgLinePlot.escape(bar.group()), SvgLinePlot.escape(bar.series()), bar.min(), bar.max(), SvgLinePlot.escape(name), MarkdownTable.number(bar.min()),
                            MarkdownTable.number(bar.max())));
                }
            }
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%s</text>%n",
                    centre, TOP + plotH + 16, SvgLinePlot.escape(group)));
        }
        if (legend) {
            for (int s = 0; s < series.size(); s++) {
                double ly = TOP + 10 + s * 20;
                svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>"
                        + "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">%s</text>%n",
                        LEFT + plotW + 12, ly - 3, SvgLinePlot.COLOURS[s % SvgLinePlot.COLOURS.length], LEFT + plotW + 32, ly + 6,
                        SvgLinePlot.escape(series.get(s))));
            }
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">%s</text>%n",
                LEFT + plotW / 2, HEIGHT - 14, SvgLinePlot.escape(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s</text>%n",
                TOP + plotH / 2, TOP + plotH / 2, SvgLinePlot.escape(yLabel)));
        svg.append("</svg>\n");
        return svg.toString();
    }
}
