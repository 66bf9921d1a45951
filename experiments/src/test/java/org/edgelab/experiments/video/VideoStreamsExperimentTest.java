package org.edgelab.experiments.video;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.runner.DescriptorFixture;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.ResultsCsv;
import org.edgelab.experiments.runner.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stream-count search end to end on the embedded target: real origin, cache, store and players on loopback. */
class VideoStreamsExperimentTest {

    @TempDir
    Path dir;

    @Test
    void searchesEachBuildAndWritesOneRowPerBuildAndRepetition() throws IOException {
        Descriptor d = DescriptorFixture.load(dir, "tiny-video.yaml", """
                name: tiny-video
                kind: video-streams
                includes: [hardware/local]
                settings: {initial_streams: 1, step: 1, max_streams: 2, step_warm_up: 1s, step_measure: 500ms}
                servers:
                  - {name: memory, engine: memory, settings: {capacity: 64MB}}
                  - {name: disk, engine: raw-log, settings: {disks: "${store}", capacity: 64MB}}
                load:
                  threads: 1
                  workload:
                    kind: video
                    settings:
                      bitrate: 300KB
                      fps: 30
                      frames_per_object: 60
                      look_ahead_frames: 40
                      min_look_ahead_frames: 20
                      fetches_per_stream: 2
                matrix: [server]
                """);
        RunResult result = DescriptorFixture.run(dir, d, null);

        assertThat(result.complete()).isTrue();
        assertThat(Files.readAllLines(result.directory().resolve("results.csv")).get(0).split(","))
                .containsExactlyElementsOf(VideoStreamsExperiment.COLUMNS);
        List<ResultRow> rows = ResultsCsv.read(result.directory().resolve("results.csv"));
        assertThat(rows).extracting(r -> r.get("cell")).containsExactly("server=memory", "server=disk");
        for (ResultRow row : rows) {
            assertThat(row.get("experiment")).isEqualTo("tiny-video");
            assertThat(row.get("target")).isEqualTo("embedded");
            assertThat(row.measured("stream_bitrate_bps")).isEqualTo(300_000 * 8.0);
            assertThat(row.measured("frame_bytes")).isEqualTo(10_000.0);
            int sustained = (int) row.measured("streams_sustained");
            assertThat(sustained).isBetween(0, 2);
            if ("true".equals(row.get("search_capped"))) {
                assertThat(sustained).isEqualTo(2);
                assertThat(row.get("streams_first_unhealthy")).isEmpty();
            } else {
                assertThat(row.measured("streams_first_unhealthy")).isEqualTo(sustained + 1);
                assertThat(row.get("limit")).isNotEmpty();
            }
            if (sustained > 0) {
                assertThat(row.measured("frame_latency_p99_ms")).isLessThanOrEqualTo(30.0);
                assertThat(row.measured("min_lookahead_frames")).isGreaterThanOrEqualTo(20.0);
                assertThat(row.measured("dropped_frames")).isZero();
            }
            assertThat(row.measured("steps")).isEqualTo(Math.min(2, sustained + 1));
            assertThat(row.measured("frame_latency_p50_ms")).isLessThanOrEqualTo(row.measured("frame_latency_p99_ms"));
            assertThat(row.measured("frames_played")).isPositive();
            assertThat(row.measured("errors")).isZero();
            assertThat(row.measured("server_hits")).isPositive();
            assertThat(row.measured("cpu_s_server")).isPositive();
            assertThat(row.get("cpu_method")).isNotEmpty();
            assertThat(row.get("power_source")).isEqualTo("modelled");
            // hardware/local: 40 W idle + 10 W per busy core + 5 W per active disk + 5 W NIC, over the whole search
            double busy = Math.min(Runtime.getRuntime().availableProcessors(), row.measured("cpu_s_server") / row.measured("duration_s"));
            double disks = row.get("server").equals("disk") ? 1 : 0;
            assertThat(row.measured("power_w")).isCloseTo(40 + 10 * busy + 5 * disks + 5, org.assertj.core.data.Offset.offset(0.01));
        }
        JsonNode manifest = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile());
        assertThat(manifest.get("kind").asText()).isEqualTo("video-streams");
        assertThat(manifest.get("status").asText()).isEqualTo("complete");
        assertThat(manifest.get("methods").get("health").asText()).contains("p99 <= 30 ms").contains(">= 20 frames");
        assertThat(manifest.get("methods").get("scaling").asText()).contains("SCALED").contains("0.300 MB/s");
        assertThat(manifest.get("methods").get("power").asText()).startsWith("modelled");
        assertThat(result.notes()).anySatisfy(n -> assertThat(n).startsWith("scaling: SCALED"));
        assertThat(result.directory().resolve("descriptor.yaml")).hasContent(d.sourceText());
        assertThat(result.directory().resolve("stores")).doesNotExist();
    }
    @Test
    void aBoundOnTheNumberOfRequestsIsRefusedAsTheDescriptorLoads() {
        // it was ignored: each step of the search runs for step_measure, whatever load.requests said
        assertThatThrownBy(() -> DescriptorFixture.load(dir, "bounded-video.yaml", """
                name: bounded-video
                kind: video-streams
                includes: [hardware/local]
                servers:
                  - {name: memory, engine: memory, settings: {capacity: 64MB}}
                load:
                  requests: 500
                  workload: {kind: video}
                matrix: [server]
                """)).hasMessageContaining("bounded-video.yaml:")
                .hasMessageContaining("the video-streams experiment measures each stream count of its search for step_measure;"
                        + " remove requests");
    }
}
