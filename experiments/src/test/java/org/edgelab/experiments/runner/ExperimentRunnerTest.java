package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end on the embedded target: real origin, cache server, stores and load generator on loopback. */
class ExperimentRunnerTest {

    /** The folder of {@link #tiny}'s run. */
    @TempDir
    static Path tinyDir;

    /**
     * One run of {@code tiny} (16 KB objects), made once: {@link #runsEveryCellAndWritesTidyResults} checks it as it
     * is, {@link #resumeRunsOnlyTheCellsNotYetInResults} grows a copy of it.
     */
    private static RunResult tiny;

    @TempDir
    Path dir;

    @BeforeAll
    static void runTiny() throws IOException {
        tiny = ExperimentRunner.run(descriptor(tinyDir, "16KB"),
                RunOptions.defaults().withOutputRoot(tinyDir.resolve("results")).withProgress(null));
    }

    /** Writes {@code yaml} as {@code <name>.yaml} in the test folder and loads it. */
    private Descriptor load(String name, String yaml) throws IOException {
        return load(dir, name, yaml);
    }

    /** Writes {@code yaml} as {@code <name>.yaml} in {@code dir} and loads it. */
    static Descriptor load(Path dir, String name, String yaml) throws IOException {
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, yaml);
        return DescriptorLoader.load(file.toString(), false);
    }

    private Descriptor descriptor(String sizes) throws IOException {
        return descriptor(dir, sizes);
    }

    /** The {@code tiny} experiment with these object sizes, written to {@code dir}. */
    private static Descriptor descriptor(Path dir, String sizes) throws IOException {
        Path file = dir.resolve("tiny.yaml");
        Files.writeString(file, """
                name: tiny
                description: a few seconds on the embedded target
                includes: [hardware/local]
                repetitions: 2
                servers:
                  - engine: memory
                    settings: {capacity: 32MB}
                  - name: disk
                    engine: raw-files
                    settings: {dir: "${store}", capacity: 32MB}
                load:
                  connections: 4
                  threads: 1
                  duration: 500ms
                  timeout: 5s
                  workload:
                    object_sizes: [%s]
                    working_set: 1MB
                    target_hit_ratio: 0.8
                matrix: [server, object_size]
                """.formatted(sizes));
        return DescriptorLoader.load(file.toString(), false);
    }

    @Test
    void runsEveryCellAndWritesTidyResults() throws IOException {
        Descriptor d = descriptor(tinyDir, "16KB");
        RunResult result = tiny;

        assertThat(result.complete()).isTrue();
        assertThat(result.directory().getParent()).isEqualTo(tinyDir.resolve("results").resolve("tiny"));
        assertThat(result.directory().getFileName().toString()).matches("\\d{8}-\\d{6}");
        List<ResultRow> rows = ResultsCsv.read(result.directory().resolve("results.csv"));
        assertThat(rows).hasSize(4);
        assertThat(rows).extracting(r -> r.get("cell")).containsExactly(
                "server=memory,object_size=16KB", "server=memory,object_size=16KB",
                "server=disk,object_size=16KB", "server=disk,object_size=16KB");
        assertThat(rows).extracting(r -> r.get("repetition")).containsExactly("1", "2", "1", "2");
        assertThat(Files.readAllLines(result.directory().resolve("results.csv")).get(0).split(","))
                .containsExactlyElementsOf(ResultsCsv.COLUMNS);
        for (ResultRow row : rows) {
            assertThat(row.get("experiment")).isEqualTo("tiny");
            assertThat(row.get("object_size_bytes")).isEqualTo("16000");
            assertThat(row.measured("requests")).isGreaterThan(20);
            assertThat(row.measured("req_per_s")).isPositive();
            assertThat(row.measured("bytes")).isGreaterThanOrEqualTo(row.measured("requests") * 16000);
            assertThat(row.measured("ttlb_p50_ms")).isGreaterThanOrEqualTo(row.measured("ttfb_p50_ms"));
            assertThat(row.measured("ttlb_p999_ms")).isGreaterThanOrEqualTo(row.measured("ttlb_p50_ms"));
            assertThat(row.measured("errors_integrity") + row.measured("errors_truncated") + row.measured("errors_status_5xx")).isZero();
            assertThat(row.measured("hit_ratio_requests")).isBetween(0.65, 0.95);
            assertThat(row.measured("server_hits") + row.measured("server_misses")).isGreaterThanOrEqualTo(row.measured("requests"));
            assertThat(row.measured("server_hits") / row.measured("server_requests")).isCloseTo(row.measured("hit_ratio_requests"),
                    org.assertj.core.data.Offset.offset(0.1));
            assertThat(row.get("power_source")).isEqualTo("modelled");
            assertThat(row.measured("power_w")).isGreaterThanOrEqualTo(45);
            assertThat(row.measured("req_per_s_per_watt")).isPositive();
            assertThat(row.get("cpu_method")).isEqualTo("embedded-shared-jvm");
            assertThat(row.measured("cpu_s_jvm_total")).isGreaterThanOrEqualTo(row.measured("cpu_s_loadgen"));
            assertThat(result.directory().resolve(row.get("hlog"))).isNotEmptyFile();
            assertThat(result.directory().resolve(row.get("hlog_ttfb"))).isNotEmptyFile();
        }
        assertThat(rows.get(0).measured("power_w")).isLessThan(rows.get(2).measured("power_w") + 10 * 2);

        JsonNode manifest = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile());
        assertThat(manifest.get("experiment").asText()).isEqualTo("tiny");
        assertThat(manifest.get("status").asText()).isEqualTo("complete");
        assertThat(manifest.get("seed").asLong()).isEqualTo(42);
        assertThat(manifest.get("jvm").get("version").asText()).isEqualTo(System.getProperty("java.version"));
        assertThat(manifest.get("cores").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(manifest.get("ended").isNull()).isFalse();
        assertThat(manifest.get("cells")).hasSize(2).allSatisfy(c -> assertThat(c.get("status").asText()).isEqualTo("done"));
        assertThat(manifest.has("git_commit")).isTrue();
        assertThat(result.directory().resolve("descriptor.yaml")).hasContent(d.sourceText());
        assertThat(result.directory().resolve("stores")).doesNotExist();
    }

    @Test
    void resumeRunsOnlyTheCellsNotYetInResults() throws IOException {
        // the earlier run is a copy of tiny's (16 KB): a folder of its own, as runsEveryCellAndWritesTidyResults reads
        // the original
        Path earlier = copy(tiny.directory(), dir.resolve("results").resolve("tiny").resolve(tiny.directory().getFileName()));
        RunOptions options = RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null);
        assertThat(ResultsCsv.read(earlier.resolve("results.csv"))).hasSize(4);
        List<String> before = Files.readAllLines(earlier.resolve("results.csv"));

        Descriptor grown = descriptor("16KB, 24KB");
        RunResult resumed = ExperimentRunner.run(grown, options.withResume(earlier));

        assertThat(resumed.directory()).isEqualTo(earlier);
        assertThat(resumed.cellsResumed()).isEqualTo(2);
        assertThat(resumed.cellsRun()).isEqualTo(2);
        assertThat(resumed.complete()).isTrue();
        List<String> after = Files.readAllLines(earlier.resolve("results.csv"));
        assertThat(after.subList(0, before.size())).isEqualTo(before);
        assertThat(resumed.rows()).extracting(r -> r.get("cell")).containsExactly(
                "server=memory,object_size=16KB", "server=memory,object_size=16KB",
                "server=disk,object_size=16KB", "server=disk,object_size=16KB",
                "server=memory,object_size=24KB", "server=memory,object_size=24KB",
                "server=disk,object_size=24KB", "server=disk,object_size=24KB");
        JsonNode manifest = new ObjectMapper().readTree(earlier.resolve("manifest.json").toFile());
        assertThat(manifest.get("resumed")).hasSize(1);
        assertThat(manifest.get("cells")).hasSize(4);
    }

    /** Copies the folder {@code from} and everything in it to {@code to}; returns {@code to}. */
    private static Path copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Files.copy(p, to.resolve(from.relativize(p).toString()));
            }
        }
        return to;
    }

    @Test
    void resumeRefusesAnotherExperimentsFolder() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("other"));
        Files.writeString(folder.resolve("manifest.json"), "{\"experiment\":\"something-else\"}");
        assertThatThrownBy(() -> ExperimentRunner.run(descriptor("8KB"), RunOptions.defaults().withResume(folder).withProgress(null)))
                .hasMessageContaining("holds a run of 'something-else'");
        assertThatThrownBy(() -> ExperimentRunner.run(descriptor("8KB"), RunOptions.defaults().withResume(dir).withProgress(null)))
                .hasMessageContaining("no manifest.json");
    }

    @Test
    void withoutATargetEveryRequestHitsTheWarmedSetAndTheNoCacheBaselineGoesToTheOrigin() throws IOException {
        Descriptor d = load("set", """
                name: set
                servers:
                  - {name: direct, engine: none}
                  - {engine: memory, settings: {capacity: 16MB}}
                load:
                  connections: 3
                  duration: 500ms
                  workload: {object_sizes: 256KB, working_set: 2MB, range_sizes: 64KB}
                """);
        RunResult result = ExperimentRunner.run(d, RunOptions.defaults().withOutputRoot(dir).withProgress(null));
        assertThat(result.rows()).hasSize(2);
        ResultRow direct = result.rows().get(0);
        assertThat(direct.get("engine")).isEqualTo("none");
        assertThat(direct.get("server_hits")).isEmpty();
        assertThat(direct.get("hit_ratio_requests")).isEmpty();
        assertThat(direct.measured("server_requests")).isGreaterThanOrEqualTo(direct.measured("requests"));
        assertThat(direct.measured("errors_integrity")).isZero();
        ResultRow memory = result.rows().get(1);
        assertThat(memory.get("range_size_bytes")).isEqualTo("64000");
        assertThat(memory.measured("hit_ratio_requests")).isEqualTo(1.0);
        assertThat(memory.measured("server_misses")).isZero();
        assertThat(memory.measured("bytes")).isLessThan(memory.measured("requests") * 256_000);
    }

    @Test
    void theSettleDoesNotFetchTheMeasuredRunsFirstTimeObjects() throws IOException {
        // The settle numbers its requests from 0 like the measured run; with the same first-time ids, this store
        // (1024 chunks of 64 KiB for a few hundred 8 KB objects) kept them and the measured run counted them as hits.
        Descriptor d = load("settle-target", """
                name: settle-target
                repetitions: 1
                servers: [{engine: memory, settings: {capacity: 64MB}}]
                load:
                  connections: 2
                  duration: 60s
                  requests: 400
                  settle: 1s
                  workload: {object_sizes: 8KB, working_set: 256KB, target_hit_ratio: 0.9}
                """);
        RunResult result = ExperimentRunner.run(d, RunOptions.defaults().withOutputRoot(dir).withProgress(null));
        // 400 requests, not 1 s of them: a loaded machine completed fewer than the 100 a 1-s run was asserted to
        // hold. Every tenth ticket is a first-time object, so 40 misses; a settle that had fetched them would
        // make them hits (the 60-s duration is only the cap). A 1-s settle of hits on loopback sends thousands of
        // requests, well past the measured run's 400 ids
        assertThat(result.rows()).hasSize(1).allSatisfy(row -> {
            assertThat(row.measured("requests")).isEqualTo(400);
            assertThat(row.measured("hit_ratio_set_requests")).isEqualTo(1.0);
            assertThat(row.measured("hit_ratio_requests")).isBetween(0.88, 0.92);
        });
    }

    @Test
    void settleSendsTheMeasuredLoadUnrecordedBeforeEachRepetition() throws IOException {
        Descriptor d = load("settle", """
                name: settle
                repetitions: 2
                servers: [{engine: memory, settings: {capacity: 16MB}}]
                load:
                  connections: 2
                  duration: 500ms
                  settle: 1s
                  workload: {object_sizes: 8KB, working_set: 256KB, target_hit_ratio: 1.0}
                """);
        assertThat(d.load().settle().length()).hasSeconds(1);
        long start = System.nanoTime();
        RunResult result = ExperimentRunner.run(d, RunOptions.defaults().withOutputRoot(dir).withProgress(null));
        // Each of the 2 repetitions settled for 1 s before its measured half second.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
        assertThat(result.rows()).hasSize(2).allSatisfy(row -> {
            // a measured run that took in its settle would last 1.5 s
            assertThat(row.measured("duration_s")).isLessThan(0.95);
            assertThat(row.measured("settle_s")).isBetween(0.95, 1.5);
            assertThat(row.get("settle_max_reached")).as("only a steady-state settle has a maximum").isEmpty();
            // The server counters, CPU and power of a row cover the measured run only, not the settling.
            assertThat(row.measured("server_requests")).isBetween(row.measured("requests"), row.measured("requests") * 1.1 + 2);
        });
    }
}
