package org.edgelab.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tech.tablesaw.api.Table;

class SummaryTest {
    @TempDir
    Path dir;

    /** Two repetitions: 1000 requests at 1 ms, then 10 requests at 100 ms. */
    private Table twoUnevenRepetitions() throws Exception {
        TestResults.writeHlog(dir.resolve("hlog/r0.hlog"), TestResults.repeat(1_000_000, 600), TestResults.repeat(1_000_000, 400));
        TestResults.writeHlog(dir.resolve("hlog/r1.hlog"), TestResults.repeat(100_000_000, 10));
        TestResults.writeCsv(dir, List.of(
                TestResults.row("cell=c", "repetition=0", "engine=raw-log", "req_per_s=100", "throughput_bps=8e9",
                        "ttlb_p50_ms=1", "ttlb_p99_ms=1", "errors_timeout=1", "hlog=hlog/r0.hlog"),
                TestResults.row("cell=c", "repetition=1", "engine=raw-log", "req_per_s=140", "throughput_bps=1.2e10",
                        "ttlb_p50_ms=100", "ttlb_p99_ms=100", "errors_timeout=2", "errors_integrity=1", "hlog=hlog/r1.hlog")));
        return ResultSet.load(dir);
    }

    @Test
    void percentilesComeFromTheMergedHistogramsNotFromAveragedPercentiles() throws Exception {
        Table results = twoUnevenRepetitions();
        double averagedP50 = results.doubleColumn("ttlb_p50_ms").mean();

        Table summary = Summary.by(results, "engine");

        assertThat(summary.rowCount()).isEqualTo(1);
        double mergedP50 = summary.doubleColumn("ttlb_p50_ms").getDouble(0);
        assertThat(averagedP50).isEqualTo(50.5);
        assertThat(mergedP50).isCloseTo(1.0, within(0.01));
        // 1010 samples: the 99th percentile is still a 1 ms request, the 99.9th is a 100 ms one.
        assertThat(summary.doubleColumn("ttlb_p99_ms").getDouble(0)).isCloseTo(1.0, within(0.01));
        assertThat(summary.doubleColumn("ttlb_p999_ms").getDouble(0)).isCloseTo(100.0, within(0.1));
        assertThat(summary.doubleColumn("latency_samples").getDouble(0)).isEqualTo(1010);
        assertThat(summary.stringColumn(Summary.LATENCY_SOURCE).get(0)).contains("ttlb: merged hlog of 2 repetitions");
        assertThat(summary.doubleColumn("ttlb_max_ms").getDouble(0)).isCloseTo(100.0, within(0.1));
    }

    @Test
    void theMemoryIoAndSettleFiguresOfEachRepetitionAreMediansNotDimensions() throws Exception {
        // Read as dimensions, each repetition's device bytes made a group of its own: three rows for one build.
        TestResults.writeCsv(dir, List.of(
                TestResults.row("cell=c", "repetition=1", "server=raw-log", "req_per_s=100", "read_amplification=1.5",
                        "device_read_bytes=3000", "rss_peak_bytes=200", "settle_s=30", "settle_max_reached=true",
                        "link_rtt_ms=80.1"),
                TestResults.row("cell=c", "repetition=2", "server=raw-log", "req_per_s=110", "read_amplification=1.1",
                        "device_read_bytes=2000", "rss_peak_bytes=210", "settle_s=4", "settle_max_reached=false",
                        "link_rtt_ms=80.3"),
                TestResults.row("cell=c", "repetition=3", "server=raw-log", "req_per_s=120", "read_amplification=1.2",
                        "device_read_bytes=2500", "rss_peak_bytes=205", "settle_s=3", "settle_max_reached=false",
                        "link_rtt_ms=80.2")));
        Table results = ResultSet.load(dir);

        assertThat(ResultColumns.dimensions(results)).contains("server")
                .doesNotContain("read_amplification", "device_read_bytes", "rss_peak_bytes", "settle_s", "settle_max_reached",
                        "link_rtt_ms");
        Table summary = Summary.withoutLatency(results, "server");
        assertThat(summary.rowCount()).isEqualTo(1);
        assertThat(summary.doubleColumn("read_amplification").getDouble(0)).isEqualTo(1.2);
        assertThat(summary.doubleColumn("device_read_bytes").getDouble(0)).isEqualTo(2500);
        assertThat(summary.doubleColumn("rss_peak_bytes").getDouble(0)).isEqualTo(205);
        assertThat(summary.doubleColumn("settle_s").getDouble(0)).isEqualTo(4);
        assertThat(summary.doubleColumn("link_rtt_ms").getDouble(0)).isEqualTo(80.2);
    }

    @Test
    void aTopologysTierWorkerAndLoopFiguresAreMediansNotDimensions() throws Exception {
        // Read as dimensions, each repetition's tier counts and loop delay made a group of its own (found at a3a7a28).
        TestResults.writeCsv(dir, List.of(
                TestResults.row("cell=c", "repetition=1", "server=two-tier", "req_per_s=100", "tier_edge_hit_ratio=0.9",
                        "tier_origin_requests=50", "workers=3", "start_skew_ms=0.6", "worker_requests=10;11;12",
                        "loadgen_loop_delay_p99_ms=3.1"),
                TestResults.row("cell=c", "repetition=2", "server=two-tier", "req_per_s=110", "tier_edge_hit_ratio=0.8",
                        "tier_origin_requests=70", "workers=3", "start_skew_ms=0.4", "worker_requests=12;11;13",
                        "loadgen_loop_delay_p99_ms=1.2"),
                TestResults.row("cell=c", "repetition=3", "server=two-tier", "req_per_s=120", "tier_edge_hit_ratio=0.95",
                        "tier_origin_requests=60", "workers=3", "start_skew_ms=0.5", "worker_requests=9;9;9",
                        "loadgen_loop_delay_p99_ms=2.0")));
        Table results = ResultSet.load(dir);

        assertThat(ResultColumns.dimensions(results)).contains("server").doesNotContain("tier_edge_hit_ratio",
                "tier_origin_requests", "workers", "start_skew_ms", "worker_requests", "loadgen_loop_delay_p99_ms");
        Table summary = Summary.withoutLatency(results, "server");
        assertThat(summary.rowCount()).isEqualTo(1);
        assertThat(summary.doubleColumn("tier_edge_hit_ratio").getDouble(0)).isEqualTo(0.9);
        assertThat(summary.doubleColumn("tier_origin_requests").getDouble(0)).isEqualTo(60);
        assertThat(summary.doubleColumn("start_skew_ms").getDouble(0)).isEqualTo(0.5);
        assertThat(summary.doubleColumn("workers").getDouble(0)).isEqualTo(3);
    }

    @Test
    void mediansSpreadsAndErrorTotals() throws Exception {
        Table summary = Summary.by(twoUnevenRepetitions(), "engine");

        assertThat(summary.intColumn("repetitions").get(0)).isEqualTo(2);
        assertThat(summary.doubleColumn("req_per_s").getDouble(0)).isEqualTo(120.0);
        assertThat(summary.doubleColumn("req_per_s_min").getDouble(0)).isEqualTo(100.0);
        assertThat(summary.doubleColumn("req_per_s_max").getDouble(0)).isEqualTo(140.0);
        assertThat(summary.doubleColumn("throughput_gbps").getDouble(0)).isCloseTo(10.0, within(1e-9));
        assertThat(summary.doubleColumn("errors_total").getDouble(0)).isEqualTo(4.0);
        // 4 errors in 0 + 0 requests (the rows leave requests at 0): no rate rather than a division by zero
        assertThat(summary.doubleColumn("success_rate").isMissing(0)).isTrue();
    }

    @Test
    void aColdOrDisturbedRepetitionOfThreeDoesNotMoveTheCentralFigure() throws Exception {
        TestResults.writeCsv(dir, List.of(
                TestResults.row("cell=c", "repetition=1", "engine=memory", "req_per_s=30", "cpu_s_per_gb=3", "hit_ratio_requests=0.5"),
                TestResults.row("cell=c", "repetition=2", "engine=memory", "req_per_s=100", "cpu_s_per_gb=1", "hit_ratio_requests=0.92"),
                TestResults.row("cell=c", "repetition=3", "engine=memory", "req_per_s=110", "cpu_s_per_gb=1.2", "hit_ratio_requests=0.93")));
        Table summary = Summary.withoutLatency(ResultSet.load(dir), "engine");

        assertThat(summary.doubleColumn("req_per_s").getDouble(0)).isEqualTo(100.0);
        assertThat(summary.doubleColumn("req_per_s_min").getDouble(0)).isEqualTo(30.0);
        assertThat(summary.doubleColumn("req_per_s_max").getDouble(0)).isEqualTo(110.0);
        assertThat(summary.doubleColumn("cpu_s_per_gb").getDouble(0)).isEqualTo(1.2);
        assertThat(summary.doubleColumn("hit_ratio_requests").getDouble(0)).isEqualTo(0.92);
    }

    @Test
    void withoutLatencyGivesTheSameFiguresAndNoPercentiles() throws Exception {
        Table results = twoUnevenRepetitions();

        Table full = Summary.by(results, "engine");
        Table fast = Summary.withoutLatency(results, "engine");

        assertThat(fast.doubleColumn("req_per_s").getDouble(0)).isEqualTo(full.doubleColumn("req_per_s").getDouble(0));
        assertThat(fast.doubleColumn("errors_total").getDouble(0)).isEqualTo(4.0);
        assertThat(fast.doubleColumn("ttlb_p50_ms").isMissing(0)).isTrue();
        assertThat(fast.stringColumn(Summary.LATENCY_SOURCE).get(0)).contains("latency not computed");
    }

    @Test
    void streamsAreSummarisedWithTheWorstRepetitionAndNoInventedRequestFigures() {
        Table summary = Summary.by(ResultSet.load(TestResults.fixtures("video-streams")), "server");

        assertThat(summary.stringColumn("server").asList()).containsExactly("lmdb-l2", "raw-log-bypass");
        assertThat(summary.doubleColumn("streams_sustained").asList()).containsExactly(100.0, 140.0);
        assertThat(summary.doubleColumn("streams_sustained_min").asList()).containsExactly(96.0, 138.0);
        assertThat(summary.doubleColumn("streams_sustained_max").asList()).containsExactly(104.0, 142.0);
        assertThat(summary.doubleColumn("stream_bitrate_mbps").getDouble(0)).isCloseTo(5.6, within(1e-9));
        assertThat(summary.doubleColumn("stream_egress_gbps").getDouble(1)).isCloseTo(0.784, within(1e-9));
        assertThat(summary.doubleColumn("frame_latency_p99_ms_worst").asList()).containsExactly(31.0, 24.8);
        assertThat(summary.doubleColumn("min_lookahead_frames").asList()).containsExactly(298.0, 315.0);
        assertThat(summary.doubleColumn("dropped_frames").asList()).containsExactly(3.0, 0.0);
        assertThat(summary.stringColumn(Summary.STREAMS_NOTE).asList())
                .containsExactly("", "search capped in 1 of 3 repetitions: streams_sustained is a lower bound");
        assertThat(summary.doubleColumn("errors_total").asList()).containsExactly(0.0, 0.0); // the runner's 'errors' column
        for (String absent : List.of("req_per_s", "success_rate", "ttlb_p99_ms", "hit_ratio_requests")) {
            assertThat(summary.doubleColumn(absent).countMissing()).as(absent).isEqualTo(2);
        }
    }

    @Test
    void successRateIsOneMinusErrorsOverRequestsAcrossRepetitions() {
        Table results = ResultSet.load(TestResults.fixtures("booster-http"));
        Table at1000 = results.where(results.stringColumn("connections").isEqualTo("1000"));

        Table summary = Summary.by(at1000, "server", "range_size_bytes");

        // fixture: 200 requests per repetition; no-cache timed out 70 and 90 times, memory 10 and 30
        for (int i = 0; i < summary.rowCount(); i++) {
            double expected = summary.stringColumn("server").get(i).equals("no-cache") ? 1 - 160 / 400.0 : 1 - 40 / 400.0;
            assertThat(summary.doubleColumn("success_rate").getDouble(i)).isCloseTo(expected, within(1e-12));
        }
        assertThat(summary.columnNames()).doesNotContain("streams_sustained", Summary.STREAMS_NOTE);
    }

    @Test
    void aMissingHlogLeavesPercentilesMissingAndSaysSo() throws Exception {
        TestResults.writeHlog(dir.resolve("hlog/r0.hlog"), TestResults.repeat(1_000_000, 10));
        TestResults.writeCsv(dir, List.of(
                TestResults.row("repetition=0", "engine=lmdb", "ttlb_p50_ms=1", "hlog=hlog/r0.hlog"),
                TestResults.row("repetition=1", "engine=lmdb", "ttlb_p50_ms=3", "hlog=hlog/gone.hlog")));

        Table summary = Summary.by(ResultSet.load(dir), "engine");

        assertThat(summary.doubleColumn("ttlb_p50_ms").isMissing(0)).isTrue();
        assertThat(summary.doubleColumn("ttlb_p99_ms").isMissing(0)).isTrue();
        assertThat(summary.stringColumn(Summary.LATENCY_SOURCE).get(0))
                .contains("ttlb: hlog missing for 1 of 2 repetitions").contains("gone.hlog");
    }

    @Test
    void summarisesTheFixtureByAnyDimensions() {
        Table results = ResultSet.load(TestResults.fixtures());

        Table byCell = Summary.by(results, "engine", "object_size_bytes", "connections");
        Table byEngine = Summary.by(results, "engine");

        assertThat(byCell.rowCount()).isEqualTo(12);
        assertThat(byCell.intColumn("repetitions").asList()).containsOnly(2);
        assertThat(byCell.doubleColumn("ttfb_p99_ms").countMissing()).isZero();
        assertThat(byCell.doubleColumn("errors_total").sum()).isEqualTo(4.0);
        assertThat(byEngine.rowCount()).isEqualTo(2);
        assertThat(byEngine.doubleColumn("latency_samples").sum()).isEqualTo(24 * 450);
        assertThat(byEngine.stringColumn("power_source").asList()).containsOnly("modelled");
    }

    @Test
    void oneRepetitionsHistogramReproducesThePercentilesItsRowReports() {
        Table results = ResultSet.load(TestResults.fixtures());

        Table perRow = Summary.by(results, "cell", "repetition");

        assertThat(perRow.rowCount()).isEqualTo(results.rowCount());
        for (int i = 0; i < perRow.rowCount(); i++) {
            String cell = perRow.stringColumn("cell").get(i);
            String repetition = perRow.stringColumn("repetition").get(i);
            Table row = results.where(results.stringColumn("cell").isEqualTo(cell).and(results.stringColumn("repetition").isEqualTo(repetition)));
            for (String column : List.of("ttlb_p50_ms", "ttlb_p99_ms", "ttlb_p999_ms", "ttfb_p99_ms")) {
                double reported = row.doubleColumn(column).getDouble(0);
                assertThat(perRow.doubleColumn(column).getDouble(i)).as(cell + " r" + repetition + " " + column)
                        .isCloseTo(reported, within(reported * 1e-5));
            }
        }
    }

    @Test
    void anUnknownDimensionIsNamed() {
        Table results = ResultSet.load(TestResults.fixtures());
        assertThatThrownBy(() -> Summary.by(results, "enigne"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'enigne'").hasMessageContaining("engine");
        assertThatThrownBy(() -> Summary.by(results, "req_per_s"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'req_per_s': it is a measurement");
    }
}
