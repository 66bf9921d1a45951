package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.edgelab.experiments.descriptor.Settle;
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
        // tolerance, as a busy machine can shift a window's completions into the next). The measured run is 200
        // requests at 200/s (60 s only the cap), not 1 s: the arrivals owed at a 1-s deadline are sent for at
        // most 1 s more, so on a busy machine the 1-s run's req/s was its own lateness
        RunResult result = run("steady", """
                name: steady
                repetitions: 1
                servers: [{engine: memory, settings: {capacity: 16MB}}]
                load:
                  connections: 4
                  threads: 1
                  duration: 60s
                  requests: 200
                  rate: 200
                  # jit: off, as this test is about req/s alone (the embedded target's JVM is the test JVM)
                  settle: {auto: true, max: 30s, tolerance: 10%, jit: off}
                  workload: {object_sizes: 8KB, working_set: 256KB, target_hit_ratio: 1.0}
                """);

        ResultRow row = result.rows().get(0);
        assertThat(row.get("settle_max_reached")).isEqualTo("false");
        assertThat(row.measured("settle_spread")).isBetween(0.0, 0.10);
        assertThat(row.get("settle_jit_ms_per_s")).as("the JIT is not watched").isEmpty();
        JsonNode entry = settleEntry(result);
        assertThat(entry.get("steady").asBoolean()).isTrue();
        assertThat(entry.get("max_reached").asBoolean()).isFalse();
        List<Double> windows = new ArrayList<>();
        entry.get("windows_req_per_s").forEach(w -> windows.add(w.asDouble()));
        assertThat(windows).hasSizeGreaterThanOrEqualTo(3);
        // As soon as three windows agree: no three consecutive windows before the last three did (their req/s are
        // rounded to 0.1 in the manifest, hence the 0.002). How many windows that takes depends on the machine
        // (a busy one shifts completions between windows), so it is not bounded here, only by the 30-s maximum.
        for (int i = 0; i + 3 < windows.size(); i++) {
            // (at ~200 req/s a spread near 10 % is ~20 requests, so the one-request rule never applies here)
            List<Double> three = windows.subList(i, i + 3);
            assertThat(SteadyRate.spread(three)).as("windows %d-%d of %s were steady, yet the settle went on", i + 1, i + 3, windows)
                    .isGreaterThan(0.10 - 0.002);
        }
        // reports are never early: the settle lasted at least its windows, and ended before its maximum
        assertThat(row.measured("settle_s")).isGreaterThanOrEqualTo(windows.size() - 0.01).isLessThan(30);
        // the measured run: its 200 requests, never faster than the rate (the 200th is due at 0.995 s: at most
        // 201.0 req/s on any machine); the lower bound is only a sanity margin (its last response within 2 s of
        // being due), as a loaded machine can make any response late
        assertThat(row.measured("requests")).isEqualTo(200);
        assertThat(row.measured("req_per_s")).isBetween(66.0, 201.1);
    }

    @Test
    void withTheJitWatchedASteadySettleRunsASecondTimeFromNewConnections() throws IOException {
        // A fresh cache JVM (process target) under a fixed rate of hits: req/s is steady within seconds. The JIT bound
        // is set so high that any JVM meets it once readings span the windows, so both runs end as soon as req/s is
        // steady, and what is tested is that there are two (the measured run starts after the same transition). Two
        // windows, the fewest a settle compares, as their count is not what this test is about.
        RunResult result = run("twice", """
                name: twice
                target: process
                repetitions: 1
                servers:
                  - engine: memory
                    settings: {capacity: 16MB}
                    target_settings: {heap: 256m, io_threads: 1}
                load:
                  connections: 4
                  threads: 1
                  duration: 500ms
                  rate: 200
                  settle: {auto: true, max: 40s, tolerance: 10%, windows: 2, jit: 100000ms/s}
                  workload: {object_sizes: 8KB, working_set: 256KB, target_hit_ratio: 1.0}
                """);

        ResultRow row = result.rows().get(0);
        assertThat(row.get("settle_max_reached")).isEqualTo("false");
        assertThat(row.measured("settle_jit_ms_per_s")).as("the JIT was read").isGreaterThanOrEqualTo(0);
        JsonNode entry = settleEntry(result);
        assertThat(entry.get("runs").asInt()).isEqualTo(2);
        assertThat(entry.get("steady").asBoolean()).isTrue();
        // each run lasts at least its two windows
        assertThat(entry.get("windows_req_per_s").size()).isGreaterThanOrEqualTo(4);
        assertThat(row.measured("settle_s")).isGreaterThanOrEqualTo(3.9).isLessThan(40);
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
                  duration: 500ms
                  warm_up: false
                  settle: {auto: true, max: 5s}
                  workload: {object_sizes: 8KB, working_set: 3200KB, max_objects: 400, target_hit_ratio: 1.0}
                """);

        ResultRow row = result.rows().get(0);
        assertThat(row.get("settle_max_reached")).isEqualTo("true");
        assertThat(row.measured("settle_s")).isBetween(4.9, 7.0);
        // the settle ran to its maximum for a reason its figures show: req/s still moving (the cache filling) or, where
        // the fresh JVMs' compiling held the rate flat on two busy cores (spread 0.043 in one CI run, 2026-12-07), the
        // cache JVM's JIT not yet quiet
        assertThat(row.measured("settle_spread") > Settle.DEFAULT_TOLERANCE
                || row.measured("settle_jit_ms_per_s") > Settle.DEFAULT_JIT_MS_PER_SECOND)
                .as("spread %s above %s or JIT %s ms/s above %s", row.get("settle_spread"), Settle.DEFAULT_TOLERANCE,
                        row.get("settle_jit_ms_per_s"), Settle.DEFAULT_JIT_MS_PER_SECOND)
                .isTrue();
        // the cache JVM's JIT was read all along (by default a steady-state settle also waits for it to go quiet):
        // a fresh JVM under load compiles, so its rate over the last windows is a positive figure
        // (not empty first: AssertJ's isPositive passes NaN, which is what an empty column reads as)
        assertThat(row.get("settle_jit_ms_per_s")).isNotEmpty();
        assertThat(row.measured("settle_jit_ms_per_s")).isPositive();
        JsonNode entry = settleEntry(result);
        assertThat(entry.get("jit_ms_per_s").asDouble()).isEqualTo(row.measured("settle_jit_ms_per_s"), offset(0.01));
        assertThat(entry.get("steady").asBoolean()).isFalse();
        List<Double> windows = new ArrayList<>();
        entry.get("windows_req_per_s").forEach(w -> windows.add(w.asDouble()));
        assertThat(windows).hasSizeGreaterThanOrEqualTo(3);
        assertThat(windows.get(windows.size() - 1)).as("req/s rose as the cache filled").isGreaterThan(windows.get(0) * 1.1);

        StringWriter table = new StringWriter();
        ComparisonTable.print(result.rows(), new PrintWriter(table));
        assertThat(table.toString()).contains(row.get("cell") + " " + ComparisonTable.NOT_STEADY)
                .contains("1 cell measured after a settle that reached its maximum before req/s was steady and a cache JVM's JIT quiet");
    }
}
