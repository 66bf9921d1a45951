package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.process.cgroup.CgroupHierarchy;
import org.edgelab.experiments.process.cgroup.CgroupRequirement;
import org.edgelab.experiments.process.cgroup.Cgroups;
import org.edgelab.experiments.target.ProcessTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner bounds the process target's cache JVM with a real memory cgroup and writes its memory and I/O figures:
 * the limit, the cgroup's peak, the page cache at the measured run's start, device writes of the objects stored.
 */
class MemoryBoundRunTest {

    private static final long LIMIT = 448L << 20;

    @TempDir
    Path dir;

    private RunResult run(String targetSettings) throws IOException {
        Path file = dir.resolve("bounded.yaml");
        Files.writeString(file, """
                name: bounded
                target: process
                repetitions: 1
                servers:
                  - name: raw-files
                    engine: raw-files
                    settings: {dir: "${store}", capacity: 256MB}
                    target_settings: {heap: 256m, io_threads: 1%s}
                load:
                  connections: 4
                  threads: 1
                  duration: 1s
                  timeout: 10s
                  workload:
                    object_sizes: [256KB]
                    working_set: 8MB
                    target_hit_ratio: 0.5
                """.formatted(targetSettings));
        return ExperimentRunner.run(DescriptorLoader.load(file.toString(), false),
                RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null));
    }

    @Test
    void theCacheJvmRunsUnderTheLimitAndItsPeakPageCacheAndDeviceWritesAreRecorded() throws Exception {
        CgroupHierarchy hierarchy = CgroupRequirement.require();
        RunResult result = run(", memory: " + LIMIT);

        assertThat(result.complete()).isTrue();
        ResultRow row = result.rows().get(0);
        assertThat(row.get("memory_bound")).isEqualTo(hierarchy.version());
        assertThat(row.measured("memory_limit_bytes")).isEqualTo(LIMIT);
        assertThat(row.measured("cgroup_memory_peak_bytes")).isBetween(32.0 * (1 << 20), (double) LIMIT);
        assertThat(row.measured("rss_peak_bytes")).as("the JVM's peak RSS").isBetween(32.0 * (1 << 20), (double) LIMIT);
        assertThat(row.measured("page_cache_start_bytes")).as("the warm-up's files are in the cgroup's page cache")
                .isGreaterThan(1 << 20);
        assertThat(row.measured("server_bytes_from_origin")).isPositive();
        assertThat(row.measured("device_write_bytes")).as("misses are stored as files").isPositive();
        // The store (256 MB) holds everything the run fetches, so every stored byte is written once. With a store
        // that evicts, a file deleted before write-back cancels its dirty pages and the figure falls below 1 (0.42
        // in a 64 MB store; 0.013 once a 256 MB store was full): those bytes never reach the device.
        assertThat(row.measured("write_amplification")).isBetween(0.9, 1.5);
        assertThat(row.measured("read_syscalls")).isPositive();
        assertThat(row.get("read_amplification")).isNotEmpty();

        JsonNode manifest = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile());
        JsonNode memory = manifest.get("cells").get(0).get("memory");
        assertThat(memory.get("bound").asText()).startsWith(hierarchy.version()).contains("= " + LIMIT + " bytes (448 MiB asked)");
        assertThat(manifest.get("methods").get("memory").asText()).contains("cgroup.procs");
        Path cgroup = Path.of(memory.get("cgroup").asText());
        assertThat(cgroup).as("removed after the cell").doesNotExist();
        try (Stream<Path> left = Files.list(hierarchy.parent())) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .noneMatch(n -> n.startsWith(Cgroups.PREFIX + ProcessHandle.current().pid() + "-") && n.contains("bounded"));
        }
    }

    @Test
    void withoutAStatedLimitTheServerIsUnboundedButStillMeasuredInAnUnlimitedCgroup() throws Exception {
        CgroupRequirement.require();
        RunResult result = run("");

        ResultRow row = result.rows().get(0);
        assertThat(row.get("memory_bound")).isEqualTo("none");
        assertThat(row.get("memory_limit_bytes")).isEmpty();
        assertThat(row.measured("cgroup_memory_peak_bytes")).isPositive();
        JsonNode manifest = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile());
        assertThat(manifest.get("cells").get(0).get("memory").get("bound").asText()).startsWith("none: no memory stated");
    }

    @Test
    void aLimitTheMachineCannotEnforceFailsTheCellUnlessTheBuildAllowsAnUnboundedRun() throws Exception {
        CellResources.CgroupMaker refused = (label, limit) -> {
            throw new IOException("cgroup v1 at /sys/fs/cgroup/memory is not writable by this user");
        };
        ProcessTarget target = new ProcessTarget();
        ServerBuild strict = new ServerBuild("strict", "process", "memory", Map.of(), Map.of("memory", "1GiB"));
        assertThatThrownBy(() -> CellResources.open(target, strict, 0, "x", dir, refused))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("the memory limit of strict (1 GiB (1073741824 bytes)")
                .hasMessageContaining("cannot be enforced on this machine: cgroup v1 at /sys/fs/cgroup/memory is not writable")
                .hasMessageContaining("memory_fallback: unbounded");

        ServerBuild lenient = new ServerBuild("lenient", "process", "memory", Map.of(),
                Map.of("memory", "1GiB", "memory_fallback", "unbounded"));
        try (CellResources resources = CellResources.open(target, lenient, 0, "x", dir, refused)) {
            assertThat(resources.cgroup()).isNull();
            assertThat(resources.manifestEntry().get("bound").toString()).startsWith("unbounded (memory_fallback: unbounded)");
            assertThat(resources.columns(new CellResources.Sample(null, null, null), new CellResources.Sample(null, null, null), 1, 1))
                    .containsEntry("memory_bound", "unbounded").containsEntry("memory_limit_bytes", "")
                    .containsEntry("cgroup_memory_peak_bytes", "");
            assertThat(resources.manifestEntry().get("empty_columns").toString()).contains("cgroup_memory_peak_bytes=no cgroup: cgroup v1");
        }
    }
}
