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
        assertThat(plots).hasSize(6).allMatch(HtmlReport.Plot::drawn);
        assertThat(count(html, "<svg")).isEqualTo(plots.size());
        assertThat(count(html, "</svg>")).isEqualTo(plots.size());
        // one polyline per series: latency per engine and connection count = 2 x 2 series of 3 sizes
        assertThat(count(plots.get(0).svg(), "<polyline")).isEqualTo(4);
        assertThat(plots.get(0).series()).isEqualTo(4);
        assertThat(plots.get(0).points()).isEqualTo(12);
        assertThat(count(plots.get(0).svg(), "<circle")).isEqualTo(12);
        assertThat(html).contains("<figure id=\"varnish-edge-ttlb-p99-by-size\"");
        assertThat(html).contains("<table>").contains("ttlb_p99_ms").contains("per core: measured x (32 published cores / 2 measured cores)");
    }

    @Test
    void aPlotWithoutDataIsExplainedNotDrawn() throws Exception {
        Table results = ResultSet.load(fixtures());
        results.removeColumns("connections");

        List<HtmlReport.Plot> plots = HtmlReport.plots(results);
        String html = HtmlReport.render("no connections", results, Summary.by(results, "engine"), null);

        assertThat(plots.get(1).drawn()).isFalse();
        assertThat(plots.get(1).note()).contains("connections");
        assertThat(count(html, "<svg")).isEqualTo(4);
        assertThat(html).contains("<li>Throughput against concurrency (varnish-edge): not drawn");
    }

    @Test
    void plotsAreDrawnPerExperimentOnlyWhereTheResultsHaveTheData() throws Exception {
        Table results = ResultSet.load(fixtures().getParent());

        List<HtmlReport.Plot> drawn = HtmlReport.plots(results).stream().filter(HtmlReport.Plot::drawn).toList();

        assertThat(drawn).extracting(HtmlReport.Plot::id).containsExactlyInAnyOrder(
                "varnish-edge-ttlb-p99-by-size", "varnish-edge-ttlb-p99-by-concurrency", "varnish-edge-throughput-by-concurrency",
                "varnish-edge-hit-ratio-by-size", "varnish-edge-requests-per-watt-by-size", "varnish-edge-gbps-per-watt-by-size",
                // booster-http measured one object size: no plot against size, and no request plot for video-streams
                "booster-http-ttlb-p99-by-concurrency", "booster-http-throughput-by-concurrency",
                "video-streams-streams-sustained");
        assertThat(HtmlReport.plots(results)).filteredOn(p -> p.id().equals("booster-http-ttlb-p99-by-size"))
                .extracting(HtmlReport.Plot::note).containsExactly("not drawn: one value of 'object_size_bytes' only");
        HtmlReport.Plot streams = drawn.stream().filter(p -> p.id().equals("video-streams-streams-sustained")).findFirst().orElseThrow();
        assertThat(streams.series()).isEqualTo(2);
        assertThat(count(streams.svg(), "class=\"bar\"")).isEqualTo(2);
        assertThat(count(streams.svg(), "class=\"whisker\"")).isEqualTo(2);
        assertThat(streams.svg()).contains("<title>raw-log-bypass: 140</title>").contains("<title>lmdb-l2: 96 to 104</title>");
        // booster: server follows engine, so series are engine x connections x range size (one object size each)
        HtmlReport.Plot boosterThroughput = drawn.stream().filter(p -> p.id().equals("booster-http-throughput-by-concurrency"))
                .findFirst().orElseThrow();
        assertThat(boosterThroughput.series()).isEqualTo(4);
        assertThat(boosterThroughput.points()).isEqualTo(8);
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
