package org.edgelab.experiments.video;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.edgelab.experiments.runner.ResultRow;
import org.junit.jupiter.api.Test;

/** The printed verdict: a build raises the count only where its whole bracket is above the baseline's. */
class VideoStreamsVerdictTest {

    private static ResultRow row(String server, int sustained, String unhealthy, boolean capped, String amplification) {
        Map<String, String> v = new LinkedHashMap<>();
        for (String column : VideoStreamsExperiment.COLUMNS) {
            v.put(column, "");
        }
        v.put("cell", "server=" + server);
        v.put("repetition", "1");
        v.put("server", server);
        v.put("streams_sustained", String.valueOf(sustained));
        v.put("streams_first_unhealthy", unhealthy);
        v.put("search_capped", String.valueOf(capped));
        v.put("stream_bitrate_bps", "8000000");
        v.put("read_amplification", amplification);
        v.put("device_read_bps", amplification.isEmpty() ? "" : "4.0E7");
        return new ResultRow(v);
    }

    @Test
    void raisesLowersOrOverlapsAgainstTheFirstBuild() {
        List<String> lines = VideoStreamsExperiment.verdict(List.of(
                row("tiered", 40, "41", false, "3.31"), row("tiered", 42, "43", false, "3.1"),
                row("bypass", 43, "44", false, "1.0"), row("bypass", 45, "46", false, "0.99"),
                row("readahead", 20, "21", false, "13.5"),
                row("close", 42, "43", false, "3.2"),
                row("unbounded", 1024, "", true, "")));
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("verdict: bypass vs tiered: RAISES the stream count (43/45 vs 40/42 streams, +7 % by median)")
                .contains("per byte served 1.00 vs 3.21");
        assertThat(lines.get(1)).startsWith("verdict: readahead vs tiered: LOWERS the stream count");
        assertThat(lines.get(2)).contains("close vs tiered: no measured difference (the brackets overlap)");
        assertThat(lines.get(3)).contains("unbounded vs tiered: RAISES").contains("1024 (max reached)").contains("device bytes read per byte served - vs 3.21");
    }

    @Test
    void twoBuildsAtTheMaximumAreNotToldApartAndTheTableSaysTheMaximumWasReached() {
        List<ResultRow> rows = List.of(row("a", 1024, "", true, "1.0"), row("b", 1024, "", true, "1.0"));
        assertThat(VideoStreamsExperiment.verdict(rows)).containsExactly(
                "verdict: b vs a: both reached the search's maximum: not told apart (raise max_streams) (1024 (max reached) vs 1024"
                        + " (max reached) streams, +0 % by median); device bytes read per byte served 1.00 vs 1.00, device reads"
                        + " 40.0 vs 40.0 MB/s at the sustained step");
        StringWriter out = new StringWriter();
        new VideoStreamsExperiment().printSummary(rows, new PrintWriter(out));
        assertThat(out.toString()).contains("max 1024 reached").doesNotContain("1024+");
        assertThat(VideoStreamsExperiment.verdict(rows.subList(0, 1))).isEmpty();
    }
}
