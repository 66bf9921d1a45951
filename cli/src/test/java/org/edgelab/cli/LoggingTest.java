package org.edgelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.Slf4JLoggerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** One logging sink: System.Logger, Netty and SLF4J users end in slf4j-simple, set by one {@code --log-level}, with no warning. */
class LoggingTest {

    @Test
    void systemLoggerNettyAndSlf4jShareOneBinding() {
        assertThat(LoggerFactory.getILoggerFactory().getClass().getName()).isEqualTo("org.slf4j.simple.SimpleLoggerFactory");
        assertThat(System.getLogger("org.edgelab.test").getClass().getName()).startsWith("org.slf4j.jdk.platform.logging.");
        assertThat(InternalLoggerFactory.getDefaultFactory()).isInstanceOf(Slf4JLoggerFactory.class);
    }

    @Test
    void theLevelIsReadFromTheArgumentsOfAnySubcommand() {
        assertThat(Logging.level(new String[] {"serve", "--log-level", "DEBUG", "--port", "0"})).contains("debug");
        assertThat(Logging.level(new String[] {"run", "x", "--log-level=warn"})).contains("warn");
        assertThat(Logging.level(new String[] {"load", "--", "--log-level", "warn"})).isEmpty();
        assertThat(Logging.level(new String[] {"serve"})).isEmpty();
    }

    @Test
    void serveLogsThroughSlf4jSimpleWithoutWarnings() throws Exception {
        List<String> lines = serveUntilListening();
        assertThat(lines).anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\[INFO\\] CacheServer - edge cache listening on .*"));
        assertThat(lines).noneMatch(l -> l.contains("SLF4J")).noneMatch(l -> l.contains("WARN"));
    }

    @Test
    void oneLogLevelQuietsEdgeLabAndNettyAlike() throws Exception {
        List<String> quiet = serveUntilListening("--log-level", "warn");
        assertThat(quiet).noneMatch(l -> l.contains("[INFO]")).noneMatch(l -> l.contains("SLF4J"));
        List<String> loud = serveUntilListening("--log-level", "debug");
        assertThat(loud).anyMatch(l -> l.contains("[DEBUG] InternalLoggerFactory - Using SLF4J"))
                .anyMatch(l -> l.contains("[INFO] CacheServer - edge cache listening"));
    }

    /** The runner's level reaches the servers it starts in JVMs of their own (the process target's origin and cache). */
    @Test
    void theProcessTargetsServerJvmsLogAtTheRunnersLevel(@TempDir Path dir) throws Exception {
        Path descriptor = dir.resolve("levels.yaml");
        Files.writeString(descriptor, """
                name: levels
                target: process
                repetitions: 1
                servers: [{engine: memory, settings: {capacity: 8MB}, target_settings: {heap: 256m, io_threads: 1}}]
                load:
                  connections: 1
                  threads: 1
                  duration: 1s
                  workload: {object_sizes: [10KB], working_set: 100KB}
                """);
        // the runner's JVM C1 only, as serveUntilListening's: read for the logs it leaves, not timed (the servers it
        // starts are the process target's own JVMs)
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), EdgeLab.class.getName(), "run", descriptor.toString(),
                "--out", dir.resolve("results").toString(), "--log-level", "debug"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("run.log").toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the run did not end within 120 s");
        }
        assertThat(process.exitValue()).as(Files.readString(dir.resolve("run.log"))).isZero();
        List<Path> logs;
        try (Stream<Path> files = Files.walk(dir.resolve("results"))) {
            logs = files.filter(p -> p.getFileName().toString().matches("(cache|origin)\\.log")).toList();
        }
        assertThat(logs).hasSize(2);
        for (Path log : logs) {
            assertThat(Files.readString(log)).as(log.toString()).contains("[DEBUG]");
        }
    }

    @Test
    void anUnknownLevelIsAClearError() {
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cli = EdgeLab.newCommandLine("serve", "--log-level", "loud");
        cli.setErr(new java.io.PrintWriter(err, true));
        assertThat(cli.execute("serve", "--log-level", "loud")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown log level 'loud'", "error, warn, info, debug, trace, off");
    }

    /** Starts {@code edgelab serve} in a JVM of its own (this test's class path) and returns its output up to the ready line. */
    private static List<String> serveUntilListening(String... extra) throws Exception {
        // C1 only: this JVM is read for its log lines, never timed, and reaches its ready line in half the time
        // (1.4-1.9 s against 2.5-4.3 s for serve with the load average at 9)
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), EdgeLab.class.getName(), "serve",
                "--port", "0", "--admin-port", "-1"));
        command.addAll(List.of(extra));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
                if (line.startsWith("edgelab cache on ")) {
                    return lines;
                }
            }
            throw new AssertionError("serve ended before it was ready: " + lines);
        } finally {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
