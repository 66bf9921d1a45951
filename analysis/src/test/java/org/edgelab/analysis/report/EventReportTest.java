package org.edgelab.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.edgelab.analysis.ResultSet;
import org.edgelab.analysis.Summary;
import org.junit.jupiter.api.Test;

import tech.tablesaw.api.Table;

/** The report of the event kinds over real run folders (fixtures/events: short runs, see fixtures/README.md). */
class EventReportTest {
    private static Path events(String run) throws URISyntaxException {
        return Path.of(EventReportTest.class.getResource("/fixtures/events/" + run).toURI());
    }

    @Test
    void aRestartRunDrawsHitRatioAndRatePerSecondAlignedOnTheKill() throws Exception {
        Table results = ResultSet.load(events("restart-r1"));
        List<HtmlReport.Plot> plots = HtmlReport.plots(results);

        HtmlReport.Plot hits = plots.stream().filter(p -> p.id().equals("r1-series-measured-hit-ratio")).findFirst().orElseThrow();
        HtmlReport.Plot rate = plots.stream().filter(p -> p.id().equals("r1-series-measured-req-per-s")).findFirst().orElseThrow();
        assertThat(hits.drawn()).isTrue();
        assertThat(hits.series()).isEqualTo(2); // raw-log and memory, one repetition each
        // every interval that answered has a hit ratio; those in the outage did not and are not drawn
        assertThat(hits.points()).isLessThan(rate.points());
        // x is seconds since the kill: every line has points before it (negative) and after it
        List<Double> xs = xs(hits.svg());
        assertThat(xs).anyMatch(x -> x < 0).anyMatch(x -> x > 0);
        assertThat(hits.note()).contains("server=memory r1: listening at").contains("first-hit at");

        String html = HtmlReport.render("restart", results, Summary.by(results, "server"), null);
        assertThat(html).contains("<figure id=\"r1-series-measured-hit-ratio\"").contains("<figcaption class=\"note\">")
                .contains("id=\"r1-restart-summary\"");
    }

    @Test
    void theRestartTableGivesEachBuildsMediansAndHowManyRecovered() throws Exception {
        Table results = ResultSet.load(events("restart-r1"));
        Table t = EventTables.restart(results);

        assertThat(t.rowCount()).isEqualTo(2);
        Table memory = t.where(t.stringColumn("server").isEqualTo("memory"));
        Table rawLog = t.where(t.stringColumn("server").isEqualTo("raw-log"));
        Table memoryRow = results.where(results.stringColumn("server").isEqualTo("memory"));
        // one repetition: the medians are the row's own figures
        for (String figure : EventTables.RESTART) {
            assertThat(memory.doubleColumn(figure).get(0)).as(figure).isEqualTo(memoryRow.doubleColumn(figure).get(0));
        }
        assertThat(memory.intColumn("recovered").get(0)).isEqualTo(1);
        // the memory engine refilled from the origin what its restart lost: most of its warmed set
        assertThat(memory.doubleColumn("refetched_share").get(0)).isGreaterThan(0.5);
        assertThat(rawLog.doubleColumn("refetched_share").get(0)).isLessThan(0.05);
        assertThat(EventTables.churn(results).isEmpty()).isTrue();
    }

    @Test
    void aChurnRunHasItsPhasesPlottedAndItsFreshAgainstChurnedTable() throws Exception {
        Table results = ResultSet.load(events("churn-c1"));
        List<HtmlReport.Plot> plots = HtmlReport.plots(results);

        assertThat(plots.stream().map(HtmlReport.Plot::id)).contains("c1-series-fresh-req-per-s", "c1-series-churn-req-per-s",
                "c1-series-churned-hit-ratio");
        Table t = EventTables.churn(results);
        assertThat(t.rowCount()).isEqualTo(1);
        double fresh = results.where(results.stringColumn("phase").isEqualTo("fresh")).doubleColumn("req_per_s").get(0);
        double churned = results.where(results.stringColumn("phase").isEqualTo("churned")).doubleColumn("req_per_s").get(0);
        assertThat(t.doubleColumn("req_per_s_fresh").get(0)).isEqualTo(fresh);
        assertThat(t.doubleColumn("req_per_s_churned").get(0)).isEqualTo(churned);
        assertThat(t.doubleColumn("req_per_s_vs_fresh").get(0)).isCloseTo(churned / fresh, org.assertj.core.data.Offset.offset(1e-4));
        assertThat(EventTables.restart(results).isEmpty()).isTrue();
    }

    private static List<Double> xs(String svg) {
        Matcher m = Pattern.compile("data-x=\"([-0-9.eE]+)\"").matcher(svg);
        List<Double> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(Double.parseDouble(m.group(1)));
        }
        return out;
    }
}
