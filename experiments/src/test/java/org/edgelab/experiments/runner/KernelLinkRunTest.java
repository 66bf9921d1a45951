package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.edgelab.experiments.client.LoadClients;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.Targets;
import org.edgelab.link.LinkUnavailableException;
import org.edgelab.link.kernel.KernelSupport;
import org.edgelab.plugin.PluginSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cells behind a kernel link on the embedded and process targets: shaped, delayed, measured, and cleaned up. */
public class KernelLinkRunTest {
    private static final long RATE = 200_000_000L;

    @TempDir
    Path dir;

    /** Skips where namespaces cannot be made, or fails when {@code EDGELAB_REQUIRE_ROOT=1}; call first. */
    public static void assumeKernelLinks() {
        Optional<String> reason = KernelSupport.unavailableReason();
        if (reason.isPresent() && KernelSupport.rootRequired()) {
            fail(KernelSupport.REQUIRE_ROOT + "=1 but " + reason.get());
        }
        assumeTrue(reason.isEmpty(), () -> reason.orElse(""));
    }

    private Descriptor load(String yaml) throws IOException {
        Path file = dir.resolve("k.yaml");
        Files.writeString(file, yaml);
        return DescriptorLoader.load(file.toString(), false);
    }

    /** The namespaces this JVM made that still exist. */
    static List<String> ownNamespaces() throws IOException {
        Path names = Path.of("/var/run/netns");
        if (!Files.isDirectory(names)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(names)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("edgelab-" + ProcessHandle.current().pid() + "-")).toList();
        }
    }

    @Test
    void cellsRunBehindAKernelLinkAndTheirRowsSaySo() throws IOException {
        assumeKernelLinks();
        // target: embedded keeps the first two cells in this JVM: with no target named, a build of its own on the process
        // target would put every build on it (EdgeLab's builds beside others run like with like)
        Descriptor d = load("""
                name: kernel-cells
                includes: [hardware/local]
                target: embedded
                servers:
                  - {name: origin, engine: none}
                  - {name: memory, engine: memory, settings: {capacity: 64MB}}
                  - {name: origin-process, engine: none, target: process}
                load:
                  connections: 4
                  threads: 1
                  duration: 3s
                  timeout: 20s
                  links:
                    - {name: 200mbit+20ms, bandwidth: 200mbit, latency: 20ms, emulation: kernel}
                  workload:
                    object_sizes: [1MB]
                    working_set: 8MB
                matrix: [server]
                """);
        RunResult result = ExperimentRunner.run(d, RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null));
        assertThat(result.complete()).isTrue();
        List<ResultRow> rows = ResultsCsv.read(result.directory().resolve("results.csv"));
        assertThat(rows).hasSize(3);
        assertThat(rows).extracting(r -> r.get("target")).containsExactlyInAnyOrder("embedded", "embedded", "process");
        for (ResultRow row : rows) {
            assertThat(row.get("link_emulation")).as(row.get("cell")).isEqualTo("kernel");
            assertThat(row.measured("link_rtt_ms")).as("probed RTT of " + row.get("cell")).isBetween(38.0, 46.0);
            assertThat(row.measured("goodput_bps")).as("goodput of " + row.get("cell")).isPositive().isLessThan(RATE * 1.02);
            assertThat(row.measured("link_down_bps")).as("shaper rate of " + row.get("cell")).isLessThan(RATE * 1.02)
                    .isGreaterThanOrEqualTo(row.measured("goodput_bps") * 0.99);
            // every response's first byte waits at least a round trip
            assertThat(row.measured("ttfb_p50_ms")).isGreaterThan(38.0);
        }
        JsonNode manifest = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile());
        for (JsonNode cell : manifest.get("cells")) {
            assertThat(cell.path("link").path("emulation").asText()).isEqualTo("kernel");
            assertThat(cell.path("link").path("rtt_ms").asDouble()).isBetween(38.0, 46.0);
            assertThat(cell.path("link").path("measured_down_bps").asDouble()).isPositive();
        }
        assertThat(ownNamespaces()).isEmpty();
    }

    @Test
    void wrkRunsInTheClientNamespaceBehindAKernelLink() throws IOException {
        assumeKernelLinks();
        Optional<String> missing = LoadClients.get("wrk").unavailableReason(PluginSettings.EMPTY);
        if (missing.isPresent() && "1".equals(System.getenv("EDGELAB_REQUIRE_PEERS"))) {
            fail("EDGELAB_REQUIRE_PEERS=1 but " + missing.get());
        }
        assumeTrue(missing.isEmpty(), () -> "wrk is not installed: " + missing.orElse(""));
        Descriptor d = load("""
                name: kernel-wrk
                includes: [hardware/local]
                servers:
                  - {name: memory, engine: memory, settings: {capacity: 64MB}}
                load:
                  client: wrk
                  connections: 4
                  threads: 2
                  duration: 3s
                  timeout: 20s
                  links:
                    - {name: 200mbit+20ms, bandwidth: 200mbit, latency: 20ms, emulation: kernel}
                  workload:
                    object_sizes: [1MB]
                    working_set: 8MB
                """);
        RunResult result = ExperimentRunner.run(d, RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null));
        assertThat(result.complete()).isTrue();
        ResultRow row = ResultsCsv.read(result.directory().resolve("results.csv")).get(0);
        assertThat(row.get("client")).isEqualTo("wrk");
        assertThat(row.get("link_emulation")).isEqualTo("kernel");
        // wrk reached the server namespace's address, which only the client namespace routes to, through the shaper:
        // the row would have failed had the shaper carried fewer bytes than wrk read
        assertThat(row.measured("requests")).isPositive();
        assertThat(row.measured("throughput_bps")).isLessThan(RATE * 1.02);
        assertThat(row.measured("link_down_bps")).isLessThan(RATE * 1.02).isGreaterThanOrEqualTo(row.measured("throughput_bps") * 0.99);
        assertThat(row.measured("ttlb_p50_ms")).as("at least a round trip").isGreaterThan(38.0);
        assertThat(ownNamespaces()).isEmpty();
    }

    @Test
    void aCellWhoseTargetFailsToStartLeavesNoNamespaceBehind() throws IOException {
        assumeKernelLinks();
        Descriptor d = load("""
                name: kernel-failing
                includes: [hardware/local]
                servers:
                  - {name: broken, engine: memory, settings: {capacity: 64MB}, target: process, target_settings: {cpus: "97"}}
                load:
                  connections: 1
                  duration: 1s
                  timeout: 5s
                  links:
                    - {bandwidth: 100mbit, latency: 5ms}
                  workload:
                    object_sizes: [10KB]
                    working_set: 100KB
                """);
        // taskset cannot pin the cache JVM to a CPU this machine does not have: the target fails after the link is up
        boolean failed;
        try {
            failed = !ExperimentRunner.run(d, RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null)).complete();
        } catch (IOException | RuntimeException e) {
            failed = true;
        }
        assertThat(failed).as("the cell failed").isTrue();
        assertThat(ownNamespaces()).isEmpty();
    }

    @Test
    void aTargetThatCannotServeFromANamespaceFallsBackOnlyWhenAllowed() throws Exception {
        Target external = Targets.get("external");
        ServerBuild build = new ServerBuild("ext", "external", "none", Map.of(), Map.of());
        List<String> notes = new ArrayList<>();
        Descriptor.Link strict = new Descriptor.Link("l", RATE, Duration.ofMillis(5), "kernel", false, 0);
        assertThatThrownBy(() -> CellLink.open(strict, external, build, notes::add))
                .isInstanceOf(LinkUnavailableException.class)
                .hasMessageContaining("external target cannot serve from a network namespace")
                .hasMessageContaining("fallback: user-space");
        Descriptor.Link lenient = new Descriptor.Link("l", RATE, Duration.ofMillis(5), "kernel", true, 0);
        try (CellLink link = CellLink.open(lenient, external, build, notes::add)) {
            assertThat(link.emulation()).isEqualTo("user-space");
            assertThat(link.loadEmulation().bitsPerSecond()).isEqualTo(RATE);
        }
        assertThat(notes).singleElement().asString().contains("fell back from the kernel").contains("external");
    }
}
