package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The matrix runner with the non-default workload kinds and a measured power source, end to end on loopback. */
class WorkloadAndPowerPluginsTest {

    @TempDir
    Path dir;

    private RunResult run(String yaml) throws IOException {
        Path file = dir.resolve("d.yaml");
        Files.writeString(file, yaml);
        return new MatrixExperiment().run(DescriptorLoader.load(file.toString(), false),
                RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null));
    }

    @Test
    void traceIsReplayedWhollyAndRaplCountersGiveMeasuredPower() throws Exception {
        StringBuilder trace = new StringBuilder("timestamp,key,size\n");
        for (int i = 0; i < 40; i++) {
            trace.append(i * 0.01).append(",clip-").append(i % 10).append(",16KB\n");
        }
        Files.writeString(dir.resolve("trace.csv"), trace);
        Path zone = Files.createDirectories(dir.resolve("powercap/intel-rapl:0"));
        Files.writeString(zone.resolve("max_energy_range_uj"), "262143328850");
        AtomicLong microjoules = new AtomicLong();
        Files.writeString(zone.resolve("energy_uj"), "0");
        ScheduledExecutorService counter = Executors.newSingleThreadScheduledExecutor();
        counter.scheduleAtFixedRate(() -> {
            try {
                // 25 W: 2.5 J every 100 ms
                Files.writeString(zone.resolve("energy_uj.tmp"), String.valueOf(microjoules.addAndGet(2_500_000)));
                Files.move(zone.resolve("energy_uj.tmp"), zone.resolve("energy_uj"), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
        RunResult result;
        try {
            result = run("""
                    name: replay
                    servers: [{engine: memory, settings: {capacity: 16MB}}]
                    hardware:
                      power: {model: rapl, powercap_root: "%s"}
                    load:
                      connections: 1
                      # the run ends when the trace is exhausted; the duration only bounds a stuck run
                      duration: 60s
                      workload:
                        kind: trace
                        settings: {file: trace.csv, timed: false}
                    """.formatted(dir.resolve("powercap")));
        } finally {
            counter.shutdownNow();
        }
        ResultRow row = result.rows().get(0);
        assertThat(row.measured("requests")).isEqualTo(40);
        assertThat(row.measured("errors_integrity") + row.measured("errors_truncated")).isZero();
        // one connection in trace order: the first request of each of the 10 keys misses, the other 30 hit
        assertThat(row.measured("hit_ratio_requests")).isEqualTo(0.75);
        assertThat(row.get("power_source")).isEqualTo("measured");
        assertThat(row.measured("power_w")).isBetween(0.0, 200.0);
        JsonNode methods = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile()).get("methods");
        assertThat(methods.get("power").asText()).startsWith("measured: RAPL");
        assertThat(methods.get("workload").asText()).startsWith("trace:");
        assertThat(result.notes()).anySatisfy(n -> assertThat(n).startsWith("power: measured"));
    }

    @Test
    void videoFramesArePacedByTheFrameClockAndRaplWithoutCountersLeavesPowerEmpty() throws IOException {
        RunResult result = run("""
                name: paced
                servers: [{engine: memory, settings: {capacity: 32MB}}]
                hardware:
                  power: {model: rapl, powercap_root: /nonexistent/powercap}
                load:
                  connections: 4
                  duration: 2s
                  workload:
                    kind: video
                    settings: {bitrate: 300KB, fps: 30, frames_per_object: 30, streams: 2}
                """);
        ResultRow row = result.rows().get(0);
        // 2 streams x 30 frames/s x 2 s, open loop
        // paced: never more than the frame clock allows (a closed loop would send thousands); some may still be in flight at the end
        assertThat(row.measured("requests")).isBetween(40.0, 122.0);
        assertThat(row.measured("range_size_bytes")).isZero();
        assertThat(row.measured("bytes")).isGreaterThanOrEqualTo(row.measured("requests") * 10_000);
        assertThat(row.measured("errors_integrity")).isZero();
        // loadgen's 1 s windows of the measured run, the samples of the table's interval: one or two in 2 s, each
        // at most the frame clock's 60 req/s (and a few late frames)
        assertThat(row.measured("req_per_s_windows")).isBetween(1.0, 2.0);
        assertThat(row.get("req_per_s_window_sd").isEmpty()).isEqualTo(row.measured("req_per_s_windows") < 2);
        assertThat(row.get("power_source")).isEqualTo("none");
        assertThat(row.get("power_w")).isEmpty();
        JsonNode manifest = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile());
        assertThat(manifest.get("methods").get("power").asText()).startsWith("none").contains("RAPL unavailable");
        assertThat(manifest.get("hardware_profile").get("power").get("model").asText()).isEqualTo("rapl");
    }
}
