package org.edgelab.experiments.video;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.edgelab.experiments.process.cgroup.CgroupHierarchy;
import org.edgelab.experiments.process.cgroup.CgroupRequirement;
import org.edgelab.experiments.runner.DescriptorFixture;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stream-count search in the storage-bound regime, for real: raw-log in its own JVM (process target) inside a
 * 256 MiB memory cgroup, its streams playing a library of 512 MiB (2x the limit, the JVM's own memory included), so
 * that frames are read from the device; the row gives the device reads of the sustained step's window. The search
 * has one step, 4 streams (its maximum): the row's figures are that window's whatever the search did before it.
 */
class VideoStreamsMemoryBoundTest {

    private static final long LIMIT = 256L << 20;

    @TempDir
    Path dir;

    @Test
    void aMemoryBoundedBuildReadsItsFramesFromTheDeviceAndSaysHowMuch() throws IOException {
        CgroupHierarchy hierarchy = CgroupRequirement.require();
        RunResult result = DescriptorFixture.run(dir, "bounded-video.yaml", """
                name: bounded-video
                kind: video-streams
                includes: [hardware/local]
                target: process
                repetitions: 1
                hardware: {memory: %d}
                settings: {initial_streams: 4, max_streams: 4, resolution: 4, step_warm_up: 4s, step_measure: 2s}
                servers:
                  - name: raw-log
                    engine: raw-log
                    settings: {disks: "${store}", capacity: 1GB}
                    target_settings: {heap: 64m, io_threads: 4}
                load:
                  threads: 1
                  timeout: 10s
                  workload:
                    kind: video
                    settings: {bitrate: 1MB, fps: 30, frames_per_object: 150, working_set: 512MiB, look_ahead_frames: 60,
                               min_look_ahead_frames: 30, fetches_per_stream: 2, max_prefetch_p99: 2s}
                matrix: [server]
                """.formatted(LIMIT), System.out);

        assertThat(result.complete()).isTrue();
        ResultRow row = result.rows().get(0);
        assertThat(row.get("memory_bound")).isEqualTo(hierarchy.version());
        assertThat(row.measured("memory_limit_bytes")).isEqualTo(LIMIT);
        assertThat(row.measured("working_set_bytes")).as("the library: 108 objects of 5 MB").isEqualTo(108 * 4_999_950.0);
        // the kernel lets a charge that may not fail pass memory.max for a moment (the force charge in mm/memcontrol.c;
        // a peak one page over the limit was read), so the bound allows 256 KiB: an unbounded run of this library
        // (540 MB) would pass it by hundreds of MB
        assertThat(row.measured("cgroup_memory_peak_bytes")).isBetween(32.0 * (1 << 20), (double) LIMIT + (256 << 10));
        assertThat(row.get("search")).isEqualTo("bracket");
        assertThat(row.measured("served_bytes")).isPositive();
        assertThat(row.measured("device_read_bytes")).as("frames of a library 3x the limit come from the device").isPositive();
        assertThat(row.measured("device_read_bps")).isPositive();
        assertThat(row.measured("read_amplification"))
                .isCloseTo(row.measured("device_read_bytes") / row.measured("served_bytes"), org.assertj.core.data.Offset.offset(1e-3));
        assertThat(row.measured("window_s")).isGreaterThanOrEqualTo(2.0);
        // raw-log has no memory tier
        assertThat(row.get("tier_memory_hits")).isEmpty();
        JsonNode manifest = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile());
        assertThat(manifest.at("/cells/0/memory/bound").asText()).startsWith(hierarchy.version());
        assertThat(manifest.at("/methods/window_io").asText()).contains("streams_sustained");
        assertThat(manifest.at("/methods/warm_up").asText()).contains("108 objects of the library");
    }
}
