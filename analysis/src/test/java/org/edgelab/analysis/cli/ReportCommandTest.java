package org.edgelab.analysis.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

class ReportCommandTest {
    @TempDir
    Path out;

    private final StringWriter stdout = new StringWriter();
    private final StringWriter stderr = new StringWriter();

    private int run(String... args) {
        CommandLine cli = new CommandLine(new ReportCommand());
        cli.setOut(new PrintWriter(stdout));
        cli.setErr(new PrintWriter(stderr));
        return cli.execute(args);
    }

    @Test
    void printsTheMainTableAndWritesTheFiles() throws Exception {
        Path fixtures = Path.of(getClass().getResource("/fixtures/results/varnish-edge").toURI());

        int exit = run(fixtures.toString(), "--by", "engine,object_size_bytes", "--out", out.toString());

        assertThat(exit).as(stderr.toString()).isZero();
        assertThat(stdout.toString()).contains("| engine | object_size_bytes | repetitions |").contains("| lmdb | 50000000 | 4 |");
        assertThat(Files.readAllLines(out.resolve("summary.csv"))).hasSize(1 + 6);
        assertThat(Files.readString(out.resolve("summary.md"))).contains("## Published and measured").contains("throughput_avg");
        assertThat(Files.readString(out.resolve("report.html"))).contains("<svg");
    }

    @Test
    void byDefaultGroupsByEveryVaryingDimension() throws Exception {
        Path fixtures = Path.of(getClass().getResource("/fixtures/results/varnish-edge").toURI());
        assertThat(run(fixtures.toString(), "--out", out.toString())).isZero();
        assertThat(Files.readAllLines(out.resolve("summary.csv")).get(0))
                .startsWith("experiment,server,engine,object_size_bytes,connections,repetitions");
        assertThat(Files.readAllLines(out.resolve("summary.csv"))).hasSize(1 + 12);
    }

    @Test
    void oneReportCoversRequestAndStreamsExperiments() throws Exception {
        Path all = Path.of(getClass().getResource("/fixtures/results").toURI());

        assertThat(run(all.toString(), "--out", out.toString())).as(stderr.toString()).isZero();

        String markdown = Files.readString(out.resolve("summary.md"));
        assertThat(markdown).contains("| video-streams |").contains("| booster-http |").contains("| varnish-edge |")
                .contains("streams_sustained").contains("per Gbps and stream bitrate")
                .contains("per core: measured x (32 published cores / 2 measured cores)");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("id=\"video-streams-streams-sustained\"").contains("id=\"booster-http-throughput-by-concurrency\"")
                .doesNotContain("id=\"video-streams-ttlb-p99-by-size\"");
    }

    @Test
    void withoutOutTheReportGoesIntoTheRunFolder() throws Exception {
        Path fixture = Path.of(getClass().getResource("/fixtures/results/varnish-edge/20261130-040000").toURI());
        Path run = out.resolve("run");
        try (var files = Files.walk(fixture)) {
            for (Path from : (Iterable<Path>) files::iterator) {
                Files.copy(from, run.resolve(fixture.relativize(from).toString()));
            }
        }

        assertThat(run(run.toString())).as(stderr.toString()).isZero();

        assertThat(run.resolve("report/report.html")).isRegularFile();
        assertThat(run.resolve("report/summary.csv")).isRegularFile();
        assertThat(stdout.toString()).contains("wrote " + run.resolve("report").resolve("summary.csv"));
        assertThat(ReportCommand.defaultOut(java.util.List.of(run.resolve("results.csv")))).isEqualTo(run.toAbsolutePath().resolve("report"));
        assertThat(ReportCommand.defaultOut(java.util.List.of(run, out))).isEqualTo(Path.of("report"));
    }

    @Test
    void badInputIsReportedWithExitCode2() {
        int exit = run(out.resolve("nowhere").toString(), "--out", out.toString());
        assertThat(exit).isEqualTo(2);
        assertThat(stderr.toString()).contains("report: ").contains("nowhere");
    }
}
