package org.edgelab.analysis.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A bar chart rendered as a standalone inline SVG element (no scripts, no external references): one bar
 * ({@code class="bar"}) per category with its value, and where given a whisker ({@code class="whisker"}) from the
 * smallest to the largest repetition.
 *
 * <p>Thread-safety: not thread-safe while bars are being added; {@link #render()} does not modify it.
 */
public final class SvgBarChart {
    private static final int WIDTH = 720;
    private static final int HEIGHT = 400;
    private static final int LEFT = 80;
    private static final int RIGHT = 40;
    private static final int TOP = 40;
    private static final int BOTTOM = 80;
    private static final String COLOUR = "#1f77b4";

    private record Bar(String label, double value, double min, double max) {
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

    /**
     * Adds a bar of height {@code value} for {@code label}, with a whisker from {@code min} to {@code max} (NaN: no
     * whisker); a non-finite or negative value is ignored.
     */
    public SvgBarChart add(String label, double value, double min, double max) {
        if (Double.isFinite(value) && value >= 0) {
            bars.add(new Bar(label, value, min, max));
        }
        return this;
    }

    /** How many bars were added. */
    public int barCount() {
        return bars.size();
    }

    /** Whether any bar was added. */
    public boolean isEmpty() {
        return bars.isEmpty();
    }

    /** The chart as one {@code <svg>} element. */
    public String render() {
        double top = 0;
        for (Bar bar : bars) {
            top = Math.max(top, Math.max(bar.value(), Double.isFinite(bar.max()) ? bar.max() : 0));
        }
        top = top == 0 ? 1 : SvgLinePlot.niceCeiling(top);
        double plotW = WIDTH - LEFT - RIGHT;
        double plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg class=\"plot\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\">%n",
                WIDTH, HEIGHT, WIDTH, HEIGHT, SvgLinePlot.escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" class=\"title\">%s</text>%n", LEFT, SvgLinePlot.escape(title)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" class=\"frame\"/>%n", LEFT, TOP, plotW, plotH));
        for (int i = 0; i <= 5; i++) {
            double y = TOP + plotH - plotH * i / 5;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>%n",
                    LEFT, LEFT + plotW, y, y, LEFT - 6, y + 4, MarkdownTable.number(top * i / 5)));
        }
        double slot = plotW / Math.max(1, bars.size());
        double width = Math.min(80, slot * 0.6);
        for (int i = 0; i < bars.size(); i++) {
            Bar bar = bars.get(i);
            double centre = LEFT + slot * (i + 0.5);
            double height = plotH * bar.value() / top;
            svg.append(String.format(Locale.ROOT,
                    "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %s</title></rect>%n",
                    centre - width / 2, TOP + plotH - height, width, height, COLOUR, SvgLinePlot.escape(bar.label()),
                    MarkdownTable.number(bar.value())));
            if (Double.isFinite(bar.min()) && Double.isFinite(bar.max())) {
                svg.append(String.format(Locale.ROOT,
                        "<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" stroke-width=\"2\">"
                                + "<title>%s: %s to %s</title></line>%n",
                        centre, centre, TOP + plotH - plotH * bar.min() / top, TOP + plotH - plotH * bar.max() / top,
                        SvgLinePlot.escape(bar.label()), MarkdownTable.number(bar.min()), MarkdownTable.number(bar.max())));
            }
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%s</text>%n",
                    centre, TOP + plotH + 16, SvgLinePlot.escape(bar.label())));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">%s</text>%n",
                LEFT + plotW / 2, HEIGHT - 14, SvgLinePlot.escape(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s</text>%n",
                TOP + plotH / 2, TOP + plotH / 2, SvgLinePlot.escape(yLabel)));
        svg.append("</svg>\n");
        return svg.toString();
    }
}
