package org.edgelab.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CommandsTest {

    @TempDir
    Path dir;

    private static String execute(Object command, int expectedStatus, String... args) {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(out));
        assertThat(cli.execute(args)).as(out.toString()).isEqualTo(expectedStatus);
        return out.toString();
    }

    @Test
    void listShowsBuiltinExperimentsAndThePluginsOfEveryKind() {
        String out = execute(new ListCommand(), 0);
        assertThat(out).contains("varnish-edge", "report A", "video-streams", "report C")
                .contains("memory", "raw-log", "raw-files", "tiered", "lmdb");
        assertThat(out).contains("Storage engines", "Eviction policies", "Targets", "Workloads", "Load clients", "Power models",
                "Experiment kinds");
        assertThat(out).contains("loadgen", "wrk2");
        assertThat(out).containsPattern("\\n  lru +least recently used")
                .containsPattern("\\n  embedded +origin and cache in the runner's JVM")
                .containsPattern("\\n  trace +replay a CSV trace")
                .containsPattern("\\n  rapl +measured: Linux powercap RAPL")
                .containsPattern("\\n  video-streams +stream-count search");
    }

    @Test
    void runPrintsTheComparisonAndWhereResultsAre() throws IOException {
        Path file = dir.resolve("one.yaml");
        Files.writeString(file, """
                name: one
                includes: [hardware/local]
                servers: [{engine: memory, settings: {capacity: 16MB}}]
                load: {connections: 2, duration: 500ms, workload: {object_sizes: 4KB, working_set: 64KB, target_hit_ratio: 0.5}}
                """);
        String out = execute(new RunCommand(), 0, file.toString(), "--target", "embedded", "--out", dir.resolve("r").toString());
        assertThat(out).contains("req/s", "server=memory", "complete: 1 of 1 cells").contains(dir.resolve("r").resolve("one").toString());
    }

    @Test
    void runWithAnUnknownTargetListsTheKnownTargets() throws IOException {
        Path file = dir.resolve("one.yaml");
        Files.writeString(file, "name: one\nservers: [{engine: memory}]\n");
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new RunCommand());
        cli.setErr(new PrintWriter(err));
        cli.setExecutionExceptionHandler((ex, c, p) -> {
            c.getErr().println(ex.getMessage());
            return 2;
        });
        assertThat(cli.execute(file.toString(), "--target", "moon")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown target 'moon'; known targets: ").contains("embedded");
    }

    @Test
    void runReportsADescriptorErrorWithFileAndLine() throws IOException {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "name: bad\nservers: [{engine: memory}]\nload:\n  duration: 10 fortnights\n");
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new RunCommand());
        cli.setErr(new PrintWriter(err));
        cli.setExecutionExceptionHandler((ex, c, p) -> {
            c.getErr().println(ex.getMessage());
            return 2;
        });
        assertThat(cli.execute(file.toString())).isEqualTo(2);
        assertThat(err.toString()).contains(file + ":4:").contains("load.duration").contains("unknown unit 'fortnights'");
    }
}
