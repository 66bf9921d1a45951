package org.edgelab.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import tech.tablesaw.api.Table;

class PublishedFiguresTest {
    private final PublishedFigures figures = PublishedFigures.load();
    private final Table results = ResultSet.load(TestResults.fixtures());

    @Test
    void everyPublishedFigureNamesItsSource() {
        Table all = figures.table();
        assertThat(all.rowCount()).isEqualTo(22);
        assertThat(all.stringColumn("source").countMissing()).isZero();
        assertThat(all.stringColumn("report").unique().asList()).containsExactlyInAnyOrder("varnish-edge", "booster-http", "onefs-streams");
        assertThat(figures.forExperiment("video-streams").rowCount()).isEqualTo(5);
    }

    @Test
    void throughputIsScaledPerCoreAndTheRuleIsStated() {
        Table beside = figures.beside(results, "varnish-edge", OptionalInt.of(2));

        Table large = beside.where(beside.stringColumn("metric").isEqualTo("throughput_avg")
                .and(beside.stringColumn("object_size").isEqualTo("large")));
        assertThat(large.rowCount()).isEqualTo(2); // one per engine, at the largest measured size
        assertThat(large.stringColumn("measured_group").asList()).allMatch(g -> g.contains("object_size_bytes=50000000"));
        for (int i = 0; i < large.rowCount(); i++) {
            double measured = large.doubleColumn("measured").getDouble(i);
            assertThat(large.doubleColumn("measured_scaled").getDouble(i)).isCloseTo(measured * 32 / 2, within(1e-9));
            assertThat(large.doubleColumn("scaled_over_published").getDouble(i)).isCloseTo(measured * 16 / 170.5, within(1e-9));
            assertThat(large.stringColumn("scaling").get(i)).isEqualTo("per core: measured x (32 published cores / 2 measured cores)");
        }
    }

    @Test
    void latencyIsComparedUnscaledAtTheSameObjectSize() {
        Table beside = figures.beside(results, "varnish-edge", OptionalInt.of(2));
        Table ttlb = beside.where(beside.stringColumn("metric").isEqualTo("ttlb_avg")
                .and(beside.stringColumn("object_size").isEqualTo("100KB")));
        Table summary = Summary.by(results, "engine", "object_size_bytes");
        double rawMean = summary.where(summary.stringColumn("engine").isEqualTo("raw-log")
                .and(summary.stringColumn("object_size_bytes").isEqualTo("100000"))).doubleColumn("ttlb_mean_ms").getDouble(0);

        Table raw = ttlb.where(ttlb.stringColumn("measured_group").containsString("engine=raw-log"));
        assertThat(raw.rowCount()).isEqualTo(1);
        assertThat(raw.doubleColumn("measured").getDouble(0)).isEqualTo(rawMean);
        assertThat(raw.doubleColumn("measured_scaled").getDouble(0)).isEqualTo(rawMean);
        assertThat(raw.stringColumn("scaling").get(0)).startsWith("none:");
    }

    @Test
    void withoutKnownCoresNoPerCoreFigureIsInvented() {
        Table beside = figures.beside(results, "varnish-edge", OptionalInt.empty());
        Table throughput = beside.where(beside.stringColumn("metric").isEqualTo("throughput_avg"));
        assertThat(throughput.doubleColumn("measured_scaled").countMissing()).isEqualTo(throughput.rowCount());
        assertThat(throughput.stringColumn("scaling").asList()).allMatch(s -> s.contains("cores unknown"));
        Table cpu = beside.where(beside.stringColumn("metric").isEqualTo("cpu_util"));
        assertThat(cpu.stringColumn("scaling").asList()).containsOnly("no measured counterpart in results.csv");
    }
}
