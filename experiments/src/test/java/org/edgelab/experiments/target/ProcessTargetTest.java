package org.edgelab.experiments.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.process.LoopbackPorts;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process target with real JVMs on loopback: the origin and cache run {@code OriginCommand} and {@code ServeCommand}. */
class ProcessTargetTest {

    @TempDir
    Path dir;

    private final ProcessTarget target = new ProcessTarget();

    private Set<Long> earlierDescendants;

    @BeforeEach
    void rememberProcessesStartedBefore() {
        earlierDescendants = ProcessHandle.current().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    @AfterEach
    void noServerJvmOutlivesItsTest() throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (startedHere().findAny().isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(startedHere().map(p -> p.pid() + " " + commandLine(p.pid()))).isEmpty();
    }

    private Stream<ProcessHandle> startedHere() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).filter(p -> !earlierDescendants.contains(p.pid()));
    }

    private static ServerBuild build(String engine, Map<String, String> settings, Map<String, String> targetSettings) {
        return new ServerBuild("b", "process", engine, settings, targetSettings);
    }

    @Test
    void isRegisteredUnderItsName() {
        assertThat(Targets.get("process")).isInstanceOf(ProcessTarget.class);
    }

    @Test
    void anUnknownTargetSettingIsRejectedListingTheKnownOnes() throws IOException {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, """
                name: bad
                target: process
                servers:
                  - engine: memory
                    target_settings: {cpu: 1}
                """);
        assertThatThrownBy(() -> DescriptorLoader.load(file.toString(), false))
                .hasMessageContaining("bad.yaml")
                .hasMessageContaining("servers[0].target_settings")
                .hasMessageContaining("target 'process' has no setting 'cpu'; its settings are: cpus, heap, io_threads, memory, memory_fallback, origin_cpus, origin_faults");
    }

    @Test
    void badValuesAreRejectedNamingTheSetting() {
        assertThatThrownBy(() -> target.validate(build("memory", Map.of(), Map.of("cpus", "first"))))
                .isInstanceOf(BuildValidationException.class).hasMessageContaining("cpus is a CPU list for taskset -c");
        assertThatThrownBy(() -> target.validate(build("memory", Map.of(), Map.of("heap", "lots"))))
                .hasMessageContaining("heap: 'lots' is not a byte size");
        assertThatThrownBy(() -> target.validate(build("memory", Map.of(), Map.of("io_threads", "-1"))))
                .hasMessageContaining("io_threads is a number");
        assertThatThrownBy(() -> target.validate(build("memory", Map.of("capacity", "4GiB"), Map.of("heap", "2g"))))
                .hasMessageContaining("must exceed the memory capacity (4 GiB)").hasMessageContaining("heap: 5g");
        assertThatThrownBy(() -> target.validate(build("nope", Map.of(), Map.of())))
                .isInstanceOf(BuildValidationException.class).extracting(e -> ((BuildValidationException) e).field()).isEqualTo("engine");
        target.validate(build("memory", Map.of("capacity", "4GiB"), Map.of("heap", "5g", "cpus", "0-1,3", "io_threads", "2")));
        target.validate(build("none", Map.of(), Map.of("origin_cpus", "1")));
        assertThatThrownBy(() -> target.validate(build("memory", Map.of(), Map.of("memory", "8MB"))))
                .hasMessageContaining("memory 8MB is below 16 MiB");
        assertThatThrownBy(() -> target.validate(build("memory", Map.of(), Map.of("memory", "1GiB", "heap", "1g"))))
                .hasMessageContaining("memory 1 GiB must exceed the cache JVM's heap (1 GiB)");
        assertThatThrownBy(() -> target.validate(build("memory", Map.of(), Map.of("memory_fallback", "yes"))))
                .hasMessageContaining("memory_fallback is 'unbounded' or absent");
        target.validate(build("raw-log", Map.of(), Map.of("memory", "1GiB", "heap", "512m", "memory_fallback", "unbounded")));
    }

    @Test
    void passesThroughModuleFlagsInEitherForm() {
        assertThat(JvmCommand.moduleFlags(List.of("-Xmx1g", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "-Dio.netty.leakDetection.level=paranoid")))
                .containsExactly("--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED");
    }

    @Test
    void childrenGetTheLoggingSettingsThatLogLevelSetInThisJvm() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("org.slf4j.simpleLogger.log.tech.tablesaw", "debug");
        p.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "debug");
        p.setProperty("io.netty.leakDetection.level", "paranoid");
        assertThat(JvmCommand.loggingFlags(p)).containsExactly("-Dorg.slf4j.simpleLogger.defaultLogLevel=debug",
                "-Dorg.slf4j.simpleLogger.log.tech.tablesaw=debug");
        assertThat(JvmCommand.loggingFlags(new java.util.Properties())).isEmpty();
    }

    @Test
    void childrenGetAnAbsoluteClassPathBecauseTheyRunInTheCellsFolder() {
        String cwd = Path.of("").toAbsolutePath().toString();
        assertThat(JvmCommand.absoluteClassPath("cli/target/edgelab-cli.jar" + java.io.File.pathSeparator + "/opt/x/../lib/a.jar"))
                .isEqualTo(cwd + "/cli/target/edgelab-cli.jar" + java.io.File.pathSeparator + "/opt/lib/a.jar");
    }

    @Test
    void runsTheCacheInItsOwnPinnedJvmAndReadsItsCountersAndCpu() throws Exception {
        assumeThat(target.unavailableReason(build("memory", Map.of(), Map.of("cpus", "0")))).isEmpty();
        ServerBuild build = build("memory", Map.of("capacity", "16MB"), Map.of("cpus", "0", "heap", "256m", "io_threads", "1"));
        target.validate(build);
        TargetContext context = new TargetContext(dir.resolve("store"), dir.resolve("work"), 1, 0, Duration.ofSeconds(60));
        RunningTarget running = target.start(build, context);
        try {
            long cache = ProcessHandle.current().children().map(ProcessHandle::pid)
                    .filter(pid -> commandLine(pid).contains("org.edgelab.cache.cli.ServeCommand"))
                    .findFirst().orElseThrow();
            assertThat(Files.readString(Path.of("/proc", Long.toString(cache), "status")))
                    .containsPattern("Cpus_allowed_list:\\s+0\\n");
            assertThat(commandLine(cache)).contains("-Xmx256m", "--io-threads 1", "--engine memory", "-o capacity=16MB");

            ServerCounters before = running.counters();
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(running.clientUri().resolve("/objects/100KB/p1")).build();
            List<String> xCache = List.of(
                    http.send(get, HttpResponse.BodyHandlers.discarding()).headers().firstValue("X-Cache").orElse(""),
                    http.send(get, HttpResponse.BodyHandlers.discarding()).headers().firstValue("X-Cache").orElse(""));
            ServerCounters after = running.counters();

            assertThat(xCache).containsExactly("MISS", "HIT");
            assertThat(after.requests() - before.requests()).isEqualTo(2);
            assertThat(after.hits() - before.hits()).isEqualTo(1);
            assertThat(after.misses() - before.misses()).isEqualTo(1);
            assertThat(after.bytesFromOrigin() - before.bytesFromOrigin()).isEqualTo(100_000);
            CpuSample cpu = running.cpu();
            assertThat(cpu.serverSeconds()).isPositive();
            assertThat(cpu.method()).startsWith("process: cache JVM, /proc/<pid>/stat");
            assertThat(context.workDir().resolve("cache.log")).content().contains("edgelab cache on http://127.0.0.1:");
            assertThat(context.workDir().resolve("origin.log")).content().contains("edgelab origin on http://127.0.0.1:");
        } finally {
            running.close();
        }
        running.close();
        assertThatThrownBy(running::counters).hasMessageContaining("exited");
    }

    @Test
    void theNoCacheBaselineServesFromAnOriginThatAppliesTheFaultRulesToEveryResponse() throws Exception {
        assertThatThrownBy(() -> target.validate(build("none", Map.of(), Map.of("origin_faults", "first-byte-delay=soon"))))
                .isInstanceOf(BuildValidationException.class).hasMessageContaining("origin_faults: bad fault rule");
        ServerBuild build = build("none", Map.of(), Map.of("origin_faults", "first-byte-delay=300ms"));
        target.validate(build);
        try (RunningTarget running = target.start(build, new TargetContext(dir.resolve("store"), dir.resolve("work"), 1, 0,
                Duration.ofSeconds(60)))) {
            HttpClient http = HttpClient.newHttpClient();
            long start = System.nanoTime();
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(running.clientUri().resolve("/objects/1000/f1")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).hasSize(1000);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(running.counters().requests()).isEqualTo(1);
        }
    }

    /** The command line of a live process, from /proc (ProcessHandle.Info may leave long ones out). */
    private static String commandLine(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    void aServerThatCannotStartFailsFastWithItsLogAndLeavesNothingRunning() {
        assumeThat(target.unavailableReason(build("none", Map.of(), Map.of("origin_cpus", "0")))).isEmpty();
        // a CPU this machine does not have: taskset refuses before any JVM starts, and says why in the log
        ServerBuild build = build("memory", Map.of(), Map.of("origin_cpus", "9999"));
        TargetContext context = new TargetContext(dir.resolve("store"), dir.resolve("work"), 1, 0, Duration.ofSeconds(60));
        long start = System.nanoTime();
        assertThatThrownBy(() -> target.start(build, context))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("origin exited with status")
                .hasMessageContaining("origin.log")
                .hasMessageContaining("taskset");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));

        // the cache starts beside the origin: its failure stops the origin too
        ServerBuild badCache = build("memory", Map.of(), Map.of("cpus", "9999"));
        TargetContext again = new TargetContext(dir.resolve("store2"), dir.resolve("work2"), 1, 0, Duration.ofSeconds(60));
        assertThatThrownBy(() -> target.start(badCache, again))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cache exited with status")
                .hasMessageContaining("cache.log")
                .hasMessageContaining("taskset");
    }

    @Test
    void anOriginPortTakenBeforeTheOriginBindsItIsChosenAnewAndTheFirstLogKept() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            AtomicInteger picks = new AtomicInteger();
            ProcessTarget unlucky = new ProcessTarget(() -> picks.getAndIncrement() == 0 ? taken.getLocalPort() : LoopbackPorts.free());
            ServerBuild build = build("memory", Map.of("capacity", "16MB"), Map.of("heap", "256m", "io_threads", "1"));
            TargetContext context = new TargetContext(dir.resolve("store"), dir.resolve("work"), 1, 0, Duration.ofSeconds(60));
            try (RunningTarget running = unlucky.start(build, context)) {
                HttpResponse<Void> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(running.clientUri()
                        .resolve("/objects/1000/t1")).build(), HttpResponse.BodyHandlers.discarding());
                assertThat(response.statusCode()).isEqualTo(200);
            }
            assertThat(picks).hasValue(2);
            assertThat(context.workDir().resolve("origin.port-taken-1.log")).content()
                    .contains("cannot listen on 127.0.0.1:" + taken.getLocalPort()).containsIgnoringCase("address already in use");
            assertThat(context.workDir().resolve("origin.log")).content().contains("edgelab origin on http://127.0.0.1:");
        }
    }

    @Test
    void aQuickExperimentRunsEndToEndOnTheProcessTarget() throws IOException {
        Optional<String> taskset = target.unavailableReason(build("memory", Map.of(), Map.of("cpus", "0")));
        Path file = dir.resolve("proc.yaml");
        Files.writeString(file, """
                name: proc
                target: process
                repetitions: 1
                servers:
                  - name: lmdb
                    engine: lmdb
                    settings: {capacity: 32MB}
                    target_settings: {heap: 256m, io_threads: 1%s}
                  - {name: direct, engine: none}
                load:
                  connections: 4
                  threads: 1
                  duration: 500ms
                  timeout: 5s
                  workload:
                    object_sizes: [32KB]
                    working_set: 1MB
                    target_hit_ratio: 0.8
                """.formatted(taskset.isEmpty() ? ", cpus: \"1\"" : ""));
        RunResult result = ExperimentRunner.run(DescriptorLoader.load(file.toString(), false),
                RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null));

        assertThat(result.complete()).isTrue();
        assertThat(result.rows()).hasSize(2);
        for (ResultRow row : result.rows()) {
            assertThat(row.measured("requests")).isGreaterThan(10);
            assertThat(row.measured("errors_integrity") + row.measured("errors_truncated") + row.measured("errors_status_5xx")).isZero();
            assertThat(row.measured("server_requests")).isGreaterThanOrEqualTo(row.measured("requests"));
            assertThat(row.measured("cpu_s_server")).isPositive();
        }
        ResultRow lmdb = result.rows().get(0);
        assertThat(lmdb.get("engine")).isEqualTo("lmdb");
        assertThat(lmdb.get("cpu_method")).startsWith("process: cache JVM");
        assertThat(lmdb.measured("server_hits") + lmdb.measured("server_misses")).isGreaterThanOrEqualTo(lmdb.measured("requests"));
        assertThat(lmdb.measured("server_hits") / lmdb.measured("server_requests"))
                .isCloseTo(lmdb.measured("hit_ratio_requests"), Offset.offset(0.1));
        // the cache JVM's compile time over the measured run, read from its /stats: a fresh JVM is still compiling
        assertThat(lmdb.get("server_jit_ms")).isNotEmpty();
        assertThat(lmdb.measured("server_jit_ms")).isGreaterThanOrEqualTo(0);
        ResultRow direct = result.rows().get(1);
        assertThat(direct.get("cpu_method")).startsWith("process: origin JVM");
        assertThat(direct.get("server_hits")).isEmpty();
        assertThat(direct.get("server_jit_ms")).as("no cache JVM to read").isEmpty();
        try (var logs = Files.walk(result.directory().resolve("targets"))) {
            assertThat(logs.map(p -> p.getFileName().toString())).contains("cache.log", "origin.log");
        }
    }
}
