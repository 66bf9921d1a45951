package org.edgelab.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.edgelab.analysis.PublishedFigures;
import org.edgelab.analysis.ResultSet;
import org.edgelab.analysis.Summary;
import org.junit.jupiter.api.Test;

import tech.tablesaw.api.Table;

class HtmlReportTest {
    private static Path fixtures() throws URISyntaxException {
        return Path.of(HtmlReportTest.class.getResource("/fixtures/results/varnish-edge").toURI());
    }

    @Test
    void theReportIsSelfContainedWithOneSvgPerPlot() throws Exception {
        Table results = ResultSet.load(fixtures());
        Table summary = Summary.by(results, "engine", "object_size_bytes", "connections");
        Table published = PublishedFigures.load().beside(results, "varnish-edge", OptionalInt.of(2));

        String html = HtmlReport.render("fixture report", results, summary, published);
        List<HtmlReport.Plot> plots = HtmlReport.plots(results);

        assertThat(html).doesNotContainIgnoringCase("http://").doesNotContainIgnoringCase("https://")
                .doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("<link").doesNotContainIgnoringCase("<img")
                .doesNotContain("@import").doesNotContain("url(");
        // 3 sizes x (2 percentile plots + 2 bar charts + 2 over time) + 6 against size or concurrency
        assertThat(plots).hasSize(24).allMatch(HtmlReport.Plot::drawn);
        assertThat(count(html, "<svg")).isEqualTo(plots.size());
        assertThat(count(html, "</svg>")).isEqualTo(plots.size());
        // one polyline per series: latency per engine and connection count = 2 x 2 series of 3 sizes
        HtmlReport.Plot bySize = plot(plots, "varnish-edge-ttlb-p99-by-size");
        assertThat(count(bySize.svg(), "<polyline")).isEqualTo(4);
        assertThat(bySize.series()).isEqualTo(4);
        assertThat(bySize.points()).isEqualTo(12);
        assertThat(count(bySize.svg(), "<circle")).isEqualTo(12);
        assertThat(html).contains("<figure id=\"varnish-edge-ttlb-p99-by-size\"");
        assertThat(html).contains("<table>").contains("ttlb_p99_ms").contains("per core: measured x (32 published cores / 2 measured cores)");
    }

    @Test
    void legendsNameEachBuildOnceWithTheSettingsThatSplitIt() throws Exception {
        List<HtmlReport.Plot> plots = HtmlReport.plots(ResultSet.load(fixtures()));

        String svg = plot(plots, "varnish-edge-ttlb-p99-by-size").svg();
        assertThat(svg).contains(">raw-log-1g · 10 conn</text>").contains(">lmdb-1g · 100 conn</text>")
                .doesNotContain("engine=").doesNotContain("server=").doesNotContain("connections=");
        // sizes in human units on the axis, not 100000
        assertThat(svg).contains(">100 KB</text>").contains(">1 MB</text>").doesNotContain(">100000</text>");
        // over time: one colour and one legend entry per build and setting, a line per repetition
        HtmlReport.Plot overTime = plot(plots, "varnish-edge-100-kb-req-per-s-over-time");
        assertThat(overTime.series()).isEqualTo(8);
        assertThat(count(overTime.svg(), "class=\"legend\"")).isEqualTo(4);
        assertThat(count(overTime.svg(), "stroke-dasharray")).isEqualTo(4);
    }

    @Test
    void theHeadlineComparesEachBuildWithTheBaselineAtEachSize() throws Exception {
        Table results = ResultSet.load(fixtures());

        List<Headline.Section> sections = Headline.sections(results, "lmdb-1g");

        assertThat(sections).extracting(Headline.Section::objectSize).containsExactly("100 KB", "1 MB", "50 MB");
        Table small = sections.get(0).table();
        assertThat(small.stringColumn("build").asList()).containsExactly("raw-log-1g", "raw-log-1g", "lmdb-1g", "lmdb-1g");
        assertThat(small.stringColumn("setting").asList()).containsExactly("10 conn", "100 conn", "10 conn", "100 conn");
        // raw-log-1g at 100 KB, 10 connections: repetitions of 4591.84 and 4128.44 req/s; lmdb-1g: 3342.1 median
        Table rawLog10 = results.where(results.stringColumn("cell").isEqualTo("raw-log-1g-100000-c10"));
        Table lmdb10 = results.where(results.stringColumn("cell").isEqualTo("lmdb-1g-100000-c10"));
        double raw = rawLog10.doubleColumn("req_per_s").median();
        double lmdb = lmdb10.doubleColumn("req_per_s").median();
        assertThat(small.doubleColumn("req_per_s").get(0)).isCloseTo(raw, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(small.doubleColumn("req_per_s_ratio").get(0)).isCloseTo(raw / lmdb, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(small.doubleColumn("req_per_s_ratio").get(2)).isEqualTo(1.0);
        // without a choice (and no peer in the fixture) the first build is the baseline
        assertThat(Headline.sections(results, null).get(0).baseline()).isEqualTo("raw-log-1g");
        assertThat(Headline.sections(results, "nope").get(0).baseline()).isEqualTo("raw-log-1g");
    }

    @Test
    void thePercentileStepsStopWhereTheHistogramRunsOut() {
        assertThat(RequestPlots.percentiles(900)).startsWith(0.0, 10.0).contains(90.0, 99.0).doesNotContain(99.9)
                .hasSize(10 + 9 + 8);
        assertThat(RequestPlots.percentiles(1_000_000).get(RequestPlots.percentiles(1_000_000).size() - 1))
                .isCloseTo(99.9999, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(RequestPlots.percentiles(1)).containsExactly(0.0);
    }

    @Test
    void humanUnitsKeepTheUnitASizeWasChosenIn() {
        assertThat(HumanUnits.size(100_000)).isEqualTo("100 KB");
        assertThat(HumanUnits.size(50_000_000)).isEqualTo("50 MB");
        assertThat(HumanUnits.size(8_388_608)).isEqualTo("8 MiB");
        assertThat(HumanUnits.size(1_048_576)).isEqualTo("1 MiB");
        assertThat(HumanUnits.size(512)).isEqualTo("512 B");
        assertThat(HumanUnits.rate(12_390.4)).isEqualTo("12,390");
        assertThat(HumanUnits.significant(0.56525)).isEqualTo("0.565");
        assertThat(HumanUnits.percent(0.923202)).isEqualTo("92.3 %");
    }

    @Test
    void aPlotWithoutDataIsExplainedNotDrawn() throws Exception {
        Table results = ResultSet.load(fixtures());
        results.removeColumns("connections");

        List<HtmlReport.Plot> plots = HtmlReport.plots(results);
        String html = HtmlReport.render("no connections", results, Summary.by(results, "engine"), null);

        HtmlReport.Plot concurrency = plot(plots, "varnish-edge-throughput-by-concurrency");
        assertThat(concurrency.drawn()).isFalse();
        assertThat(concurrency.note()).contains("connections");
        assertThat(count(html, "<svg")).isEqualTo(plots.stream().filter(HtmlReport.Plot::drawn).count());
        assertThat(html).contains("<li>Throughput against concurrency (varnish-edge): not drawn");
    }

    @Test
    void plotsAreDrawnPerExperimentOnlyWhereTheResultsHaveTheData() throws Exception {
        Table results = ResultSet.load(fixtures().getParent());

        List<HtmlReport.Plot> drawn = HtmlReport.plots(results).stream().filter(HtmlReport.Plot::drawn).toList();

        assertThat(drawn).extracting(HtmlReport.Plot::id).filteredOn(id -> !id.contains("percentiles")
                        && !id.contains("-bars") && !id.contains("over-time")).containsExactlyInAnyOrder(
                "varnish-edge-ttlb-p99-by-size", "varnish-edge-ttlb-p99-by-concurrency", "varnish-edge-throughput-by-concurrency",
                "varnish-edge-hit-ratio-by-size", "varnish-edge-requests-per-watt-by-size", "varnish-edge-gbps-per-watt-by-size",
                // booster-http measured one object size: no plot against size, and no request plot for video-streams
                "booster-http-ttlb-p99-by-concurrency", "booster-http-throughput-by-concurrency",
                "video-streams-streams-sustained");
        assertThat(drawn).extracting(HtmlReport.Plot::id).filteredOn(id -> id.startsWith("booster-http-8-mib-")).containsExactly(
                "booster-http-8-mib-ttfb-percentiles", "booster-http-8-mib-ttlb-percentiles", "booster-http-8-mib-req-per-s-bars",
                "booster-http-8-mib-gbps-bars", "booster-http-8-mib-req-per-s-over-time", "booster-http-8-mib-ttfb-p99-over-time");
        assertThat(HtmlReport.plots(results)).filteredOn(p -> p.id().equals("booster-http-ttlb-p99-by-size"))
                .extracting(HtmlReport.Plot::note).containsExactly("not drawn: one value of 'object_size_bytes' only");
        HtmlReport.Plot streams = plot(drawn, "video-streams-streams-sustained");
        assertThat(streams.series()).isEqualTo(2);
        assertThat(count(streams.svg(), "class=\"bar\"")).isEqualTo(2);
        assertThat(count(streams.svg(), "class=\"whisker\"")).isEqualTo(2);
        assertThat(streams.svg()).contains("<title>raw-log-bypass: 140</title>").contains("<title>lmdb-l2: 96 to 104</title>");
        // booster: series are server x range size x connections (one object size each)
        HtmlReport.Plot boosterThroughput = plot(drawn, "booster-http-throughput-by-concurrency");
        assertThat(boosterThroughput.series()).isEqualTo(4);
        assertThat(boosterThroughput.points()).isEqualTo(8);
    }

    private static HtmlReport.Plot plot(List<HtmlReport.Plot> plots, String id) {
        return plots.stream().filter(p -> p.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no plot " + id + " in " + plots.stream().map(HtmlReport.Plot::id).toList()));
    }

    @Test
    void markdownTableHasHeaderRuleAndRows() throws Exception {
        Table summary = Summary.by(ResultSet.load(fixtures()), "engine");
        String md = MarkdownTable.render(summary);
        String[] lines = md.split("\n");
        assertThat(lines).hasSize(2 + 2);
        assertThat(lines[0]).startsWith("| engine | repetitions |");
        assertThat(lines[1]).startsWith("| --- | ---: |");
        assertThat(lines[2]).startsWith("| raw-log | 12 |");
    }

    private static int count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
