package org.edgelab.experiments.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.measure.LatencyLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON EdgeLab's wrk script writes, read back: figures, errors, CPU and the rebuilt latency histogram. */
class WrkReportTest {

    @TempDir
    Path dir;

    /** wrk's answer for a latency that is p microseconds at percentile p (1 us at p0, 100 us at p100). */
    private static String levels() {
        return WrkReport.LEVELS.stream().map(p -> String.format(Locale.ROOT, "[%s,%d]", p, Math.max(1, Math.round(p))))
                .collect(Collectors.joining(",", "[", "]"));
    }

    private Path write(String json) throws IOException {
        Path file = dir.resolve("wrk.json");
        Files.writeString(file, json);
        return file;
    }

    @Test
    void theRebuiltHistogramAnswersWrksOwnValueAtEveryReportedPercentile() throws IOException {
        Path file = write("""
                {"requests":10000,"duration_us":2000000,"bytes":1000000000,
                 "errors":{"connect":1,"read":2,"write":3,"status":4,"timeout":5},
                 "latency_us":{"count":10000,"min":1,"max":100,"mean":50.5,"percentiles":%s},
                 "proc_stat":"1234 (wrk) S 1 1234 1234 0 -1 4194560 100 0 0 0 150 50 0 0 20 0 3 0 100 1000000 300 1000"}
                """.formatted(levels()));
        WrkReport r = WrkReport.read("wrk", file, false, 3.5, 1_000);

        assertThat(r.requests()).isEqualTo(10_000);
        assertThat(r.seconds()).isEqualTo(2.0);
        assertThat(r.requestsPerSecond()).isEqualTo(5_000);
        assertThat(r.throughputBytesPerSecond()).isEqualTo(5e8);
        assertThat(r.errors()).containsEntry("errors_connect", 1L).containsEntry("errors_read", 2L).containsEntry("errors_write", 3L)
                .containsEntry("errors_status", 4L).containsEntry("errors_timeout", 5L).doesNotContainKey("errors_status_4xx");
        assertThat(r.clientCpuSeconds()).isEqualTo(2.0); // 150 + 50 ticks
        assertThat(r.clientInRunnerJvm()).isFalse();
        assertThat(r.runnerJvmCpuSeconds()).isEqualTo(3.5);
        assertThat(r.hitRatio()).isNaN();
        assertThat(r.goodputBytesPerSecond()).isNaN();
        assertThat(r.ttfb()).isNull();
        Histogram h = r.ttlb();
        assertThat(h.getTotalCount()).isEqualTo(10_000);
        for (double p : new double[] {50, 90, 99, 99.9}) {
            assertThat(h.getValueAtPercentile(p) / 1000.0).as("p" + p).isCloseTo(Math.round(p), within(Math.round(p) * 0.001));
        }
        assertThat(h.getMaxValue() / 1000.0).isCloseTo(100, within(0.1));
        Path hlog = dir.resolve("r1.hlog");
        assertThat(r.writeHlog(hlog, LatencyLog.Kind.TTLB)).isTrue();
        assertThat(hlog).content().contains("#[StartTime: 1.000").contains("rebuilt from wrk's latency");
        assertThat(r.writeHlog(dir.resolve("r1.ttfb.hlog"), LatencyLog.Kind.TTFB)).isFalse();
        assertThat(dir.resolve("r1.ttfb.hlog")).doesNotExist();
    }

    @Test
    void countedXCacheGivesTheHitRatiosAndSplitsTheStatusErrors() throws IOException {
        Path file = write("""
                {"requests":100,"duration_us":1000000,"bytes":5000,"errors":{"connect":0,"read":0,"write":0,"status":7,"timeout":0},
                 "latency_us":{"count":0},
                 "x_cache":{"responses":100,"hits":90,"body_bytes":1000,"hit_bytes":800,"status_4xx":5,"status_5xx":2}}
                """);
        WrkReport r = WrkReport.read("wrk", file, true, 0, 0);
        assertThat(r.hitRatio()).isEqualTo(0.9);
        assertThat(r.byteHitRatio()).isEqualTo(0.8);
        assertThat(r.errors()).containsEntry("errors_status_4xx", 5L).containsEntry("errors_status_5xx", 2L).doesNotContainKey("errors_status");
        assertThat(r.ttlb().getTotalCount()).isZero();
        assertThat(r.clientCpuSeconds()).isNaN();
    }

    @Test
    void somethingElseInTheFileFailsNamingIt() throws IOException {
        assertThatThrownBy(() -> WrkReport.read("wrk2", write("not json"), false, 0, 0)).isInstanceOf(IOException.class)
                .hasMessageContaining("wrk2's figures in").hasMessageContaining("not the JSON");
        assertThatThrownBy(() -> WrkReport.read("wrk", write("{\"requests\":1}"), false, 0, 0)).isInstanceOf(IOException.class)
                .hasMessageContaining("lack 'duration_us'");
    }

    @Test
    void luaStringLiteralsEscapeQuotesBackslashesAndBytesOutsideAscii() {
        assertThat(WrkTool.lua("/tmp/a \"b\"\\c")).isEqualTo("\"/tmp/a \\\"b\\\"\\\\c\"");
        assertThat(WrkTool.lua("é\n")).isEqualTo("\"\\195\\169\\010\"");
    }
}
