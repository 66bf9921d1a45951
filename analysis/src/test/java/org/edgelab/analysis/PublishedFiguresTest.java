package org.edgelab.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tech.tablesaw.api.Table;

class PublishedFiguresTest {
    private final PublishedFigures figures = PublishedFigures.load();
    private final Table results = ResultSet.load(TestResults.fixtures());

    @Test
    void theBoosterHttpVariantsReproduceReportB() {
        assertThat(PublishedFigures.reportOf("booster-http-fetch")).isEqualTo("booster-http");
        assertThat(PublishedFigures.reportOf("booster-http-reduced")).isEqualTo("booster-http");
        assertThat(PublishedFigures.reportOf("varnish-edge")).isEqualTo("varnish-edge");
    }

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
            assertThat(large.stringColumn("scaling").get(i))
                    .isEqualTo("per core: measured x (32 published cores / 2 measured cores); not per Gbps: the run had no link cap");
        }
    }

    @Test
    void latencyIsComparedUnscaledAtTheSameObjectSize() {
        Table beside = figures.beside(results, "varnish-edge", OptionalInt.of(2));
        Table ttlb = beside.where(beside.stringColumn("metric").isEqualTo("ttlb_avg")
                .and(beside.stringColumn("object_size").isEqualTo("100KB")));
        // the published figure is at 100 connections, which the fixture measured: only those rows count
        Table at100 = results.where(results.stringColumn("connections").isEqualTo("100"));
        Table summary = Summary.by(at100, "engine", "object_size_bytes");
        double rawMean = summary.where(summary.stringColumn("engine").isEqualTo("raw-log")
                .and(summary.stringColumn("object_size_bytes").isEqualTo("100000"))).doubleColumn("ttlb_mean_ms").getDouble(0);

        Table raw = ttlb.where(ttlb.stringColumn("measured_group").containsString("engine=raw-log"));
        assertThat(raw.rowCount()).isEqualTo(1);
        assertThat(raw.stringColumn("measured_group").get(0)).endsWith("connections=100");
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

    @Test
    void throughputOverAnEmulatedLinkIsScaledPerGbps(@TempDir Path dir) throws Exception {
        TestResults.writeCsv(dir, List.of(
                TestResults.row("experiment=varnish-edge", "engine=raw-log", "object_size_bytes=50000000", "connections=100",
                        "link_bps=10000000000", "throughput_bps=4e9", "requests=10"),
                TestResults.row("experiment=varnish-edge", "repetition=1", "engine=raw-log", "object_size_bytes=50000000",
                        "connections=100", "link_bps=10000000000", "throughput_bps=6e9", "requests=10")));

        Table beside = figures.beside(ResultSet.load(dir), "varnish-edge", OptionalInt.of(2));

        Table large = beside.where(beside.stringColumn("metric").isEqualTo("throughput_avg")
                .and(beside.stringColumn("object_size").isEqualTo("large")));
        assertThat(large.rowCount()).isEqualTo(1);
        assertThat(large.doubleColumn("measured").getDouble(0)).isCloseTo(5.0, within(1e-9));
        // 5 Gbit/s over a 10 Gbit/s link is what the 200 GbE node would carry at 100 Gbit/s
        assertThat(large.doubleColumn("measured_scaled").getDouble(0)).isCloseTo(100.0, within(1e-9));
        assertThat(large.doubleColumn("scaled_over_published").getDouble(0)).isCloseTo(100 / 170.5, within(1e-9));
        assertThat(large.stringColumn("scaling").get(0))
                .isEqualTo("per Gbps (throughput-bound): measured x (200 Gbit/s published link / 10 Gbit/s measured link)");
    }

    @Test
    void streamsAreScaledPerGbpsAndPerStreamBitrate() {
        Table beside = figures.beside(ResultSet.load(TestResults.fixtures("video-streams")), "video-streams", OptionalInt.of(2));

        Table streams = beside.where(beside.stringColumn("metric").isEqualTo("streams_sustained"));
        assertThat(streams.rowCount()).isEqualTo(4); // two published systems x two measured server builds
        Table bypass = streams.where(streams.stringColumn("system").isEqualTo("onefs-9.5")
                .and(streams.stringColumn("measured_group").containsString("server=raw-log-bypass")));
        assertThat(bypass.doubleColumn("measured").getDouble(0)).isCloseTo(140.0, within(1e-9));
        // 140 streams of 5.6 Mbit/s on 1 Gbit/s = 140 streams of 560 Mbit/s on 100 Gbit/s
        assertThat(bypass.doubleColumn("measured_scaled").getDouble(0)).isCloseTo(140.0, within(1e-9));
        assertThat(bypass.doubleColumn("scaled_over_published").getDouble(0)).isCloseTo(1.0, within(1e-9));
        assertThat(bypass.stringColumn("scaling").get(0)).isEqualTo("per Gbps and stream bitrate: measured x (5.6 Mbit/s measured stream"
                + " / 560 Mbit/s published stream) x (100 Gbit/s published link / 1 Gbit/s measured link)");

        Table egress = beside.where(beside.stringColumn("metric").isEqualTo("node_egress")
                .and(beside.stringColumn("measured_group").containsString("server=raw-log-bypass")));
        assertThat(egress.doubleColumn("measured").getDouble(0)).isCloseTo(140 * 5.6e6 / 8e9, within(1e-12));
        assertThat(egress.doubleColumn("measured_scaled").getDouble(0)).isCloseTo(9.8, within(1e-9));
        assertThat(egress.stringColumn("scaling").get(0)).startsWith("per Gbps (throughput-bound): measured x (100 Gbit/s published link");

        Table latency = beside.where(beside.stringColumn("metric").isEqualTo("frame_prefetch_latency_healthy")
                .and(beside.stringColumn("measured_group").containsString("server=lmdb-l2")));
        assertThat(latency.doubleColumn("measured").getDouble(0)).isEqualTo(31.0);
        assertThat(latency.stringColumn("scaling").get(0)).startsWith("none:");
        Table lookahead = beside.where(beside.stringColumn("metric").isEqualTo("complete_ahead_of_play_healthy")
                .and(beside.stringColumn("measured_group").containsString("server=lmdb-l2")));
        assertThat(lookahead.doubleColumn("measured").getDouble(0)).isEqualTo(298.0);
    }

    @Test
    void streamsWithoutALinkCapAreNotScaledAndSaySo(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        java.nio.file.Files.createDirectories(run);
        java.nio.file.Files.write(run.resolve("results.csv"), List.of(
                "experiment,cell,repetition,server,link_bps,stream_bitrate_bps,streams_sustained,frame_latency_p99_ms,min_lookahead_frames",
                "video-streams,a,1,memory,0,5600000,12,20,300"));

        Table beside = figures.beside(ResultSet.load(dir), "video-streams", OptionalInt.of(2));

        Table streams = beside.where(beside.stringColumn("metric").isEqualTo("streams_sustained"));
        assertThat(streams.doubleColumn("measured").asList()).containsOnly(12.0);
        assertThat(streams.doubleColumn("measured_scaled").countMissing()).isEqualTo(streams.rowCount());
        assertThat(streams.stringColumn("scaling").asList()).containsOnly("per Gbps: not possible, the run had no link cap (link_bps 0 or absent)");
    }

    @Test
    void successRateIsComparedAtThePublishedConcurrency() {
        Table beside = figures.beside(ResultSet.load(TestResults.fixtures("booster-http")), "booster-http", OptionalInt.of(2));

        Table success = beside.where(beside.stringColumn("metric").isEqualTo("success_rate")
                .and(beside.stringColumn("system").isEqualTo("booster-http")));
        assertThat(success.rowCount()).isEqualTo(2);
        assertThat(success.stringColumn("measured_group").asList()).allMatch(g -> g.endsWith("connections=1000"));
        // fixture: at 1000 connections no-cache timed out 70 + 90 of 200 per range size, memory 10 + 30
        Table noCache = success.where(success.stringColumn("measured_group").containsString("server=no-cache"));
        Table memory = success.where(success.stringColumn("measured_group").containsString("server=memory"));
        assertThat(noCache.doubleColumn("measured").getDouble(0)).isCloseTo(60.0, within(1e-9));
        assertThat(memory.doubleColumn("measured").getDouble(0)).isCloseTo(90.0, within(1e-9));
        assertThat(noCache.stringColumn("scaling").get(0)).startsWith("none: share of requests");
    }
}
