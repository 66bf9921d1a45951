package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code load.settle: auto} against real servers: the settle ends as soon as req/s is steady, long before its maximum,
 * and runs to its maximum (and says so) while a cold cache fills from a slow origin and req/s keeps rising.
 */
class SettleAutoRunTest {

    @TempDir
    Path dir;

    private RunResult run(String name, String yaml) throws IOException {
        return ExperimentRunner.run(ExperimentRunnerTest.load(dir, name, yaml),
                RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null));
    }

    private static JsonNode settleEntry(RunResult result) throws IOException {
        JsonNode manifest = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile());
        assertThat(manifest.get("methods").get("measurement").asText()).contains("until its req/s is steady");
        return manifest.get("cells").get(0).get("settle").get(0);
    }

    @Test
    void aSteadyLoadEndsTheSettleAsSoonAsThreeWindowsAgreeNotAtItsMaximum() throws IOException {
        // hits of a warmed memory store at a fixed rate: the same req/s every second from the first on (a 10 %
        // tolerance, as a busy machine can shift a window's completions into the next)
        long start = System.nanoTime();
        RunResult result = run("steady", """
                name: steady
                repetitions: 1
                servers: [{engine: memory, settings: {capacity: 16MB}}]
                load:
                  connections: 4
                  threads: 1
                  duration: 1s
                  rate: 200
                  settle: {auto: true, max: 30s, tolerance: 10%}
                  workload: {object_sizes: 8KB, working_set: 256KB, target_hit_ratio: 1.0}
                """);
        double seconds = (System.nanoTime() - start) / 1e9;

        ResultRow row = result.rows().get(0);
        assertThat(row.get("settle_max_reached")).isEqualTo("false");
        assertThat(row.number("settle_s")).as("three 1 s windows and a little").isBetween(2.9, 15.0);
        assertThat(row.number("settle_spread")).isBetween(0.0, 0.10);
        assertThat(seconds).as("the whole run, below the 30 s maximum").isLessThan(25);
        assertThat(row.number("req_per_s")).isBetween(150.0, 250.0);
        JsonNode entry = settleEntry(result);
        assertThat(entry.get("steady").asBoolean()).isTrue();
        assertThat(entry.get("max_reached").asBoolean()).isFalse();
        assertThat(entry.get("windows_req_per_s").size()).isBetween(3, 16);
    }

    @Test
    void aCacheStillFillingFromASlowOriginIsNotSteadyAndTheSettleRunsToItsMaximumAndSaysSo() throws IOException {
        // No warm-up: every object starts as a miss the origin answers after 100 ms, so req/s rises each second as
        // more of the 400 objects are hits (at most 40 misses a second over 4 connections: a tenth of the set), and as
        // the fresh cache and origin JVMs warm up (0, 8 and 32 req/s in the first three windows of one run here).
        RunResult result = run("filling", """
                name: filling
                target: process
                repetitions: 1
                servers:
                  - engine: memory
                    settings: {capacity: 64MB}
                    target_settings: {heap: 256m, io_threads: 1, origin_faults: "first-byte-delay=100ms"}
                load:
                  connections: 4
                  threads: 1
                  duration: 1s
                  warm_up: false
                  settle: {auto: true, max: 5s}
                  workload: {object_sizes: 8KB, working_set: 3200KB, max_objects: 400, target_hit_ratio: 1.0}
                """);

        ResultRow row = result.rows().get(0);
        assertThat(row.get("settle_max_reached")).isEqualTo("true");
        assertThat(row.number("settle_s")).isBetween(4.9, 7.0);
        assertThat(row.number("settle_spread")).isGreaterThan(0.05);
        JsonNode entry = settleEntry(result);
        assertThat(entry.get("steady").asBoolean()).isFalse();
        List<Double> windows = new ArrayList<>();
        entry.get("windows_req_per_s").forEach(w -> windows.add(w.asDouble()));
        assertThat(windows).hasSizeGreaterThanOrEqualTo(3);
        assertThat(windows.get(windows.size() - 1)).as("req/s rose as the cache filled").isGreaterThan(windows.get(0) * 1.1);

        StringWriter table = new StringWriter();
        ComparisonTable.print(result.rows(), new PrintWriter(table));
        assertThat(table.toString()).contains(row.get("cell") + " " + ComparisonTable.NOT_STEADY)
                .contains("1 cell measured after a settle that reached its maximum before req/s was steady");
    }
}
