package org.edgelab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@link PageInCost} on a small real file: every method runs each round, and the medians compare them. */
class PageInCostTest {

    /** What a median says when the first method's CPU time measured zero (a short run on a coarse clock). */
    private static final String BELOW_RESOLUTION = "the first method's CPU below the clock's resolution: give a larger --total";

    @TempDir
    Path dir;

    @Test
    void everyMethodBringsRangesInEachRoundAndTheMediansAreCompared() throws Exception {
        Path file = dir.resolve("segment");
        Files.write(file, new byte[4 << 20]);
        String text = run("--file", file.toString(), "--total", "8MiB", "--piece", "1MiB", "--threads", "2",
                "--rounds", "2");
        assertThat(text).containsPattern("round 1 SENDFILE_TO_NULL +\\d+ MB/s  \\d+\\.\\d{3} CPU s/GB")
                .containsPattern("round 2 READ_INTO_BUFFER +\\d+ MB/s")
                .containsPattern("median SENDFILE_TO_NULL .*\\((1\\.00x the first method's CPU|" + BELOW_RESOLUTION + ")\\)")
                .containsPattern("median READ_INTO_BUFFER .*\\((\\d+\\.\\d\\dx the first method's CPU|" + BELOW_RESOLUTION + ")\\)")
                .containsPattern("median SENDFILE_READ_AHEAD .*\\((\\d+\\.\\d\\dx the first method's CPU|" + BELOW_RESOLUTION + ")\\)")
                .doesNotContain("NaN").doesNotContain("Infinity");
    }

    @Test
    void objectsAreBroughtInPieceByPieceAndSentASecondTime() throws Exception {
        Path file = dir.resolve("segment");
        Files.write(file, new byte[8 << 20]);
        String text = run("--file", file.toString(), "--total", "12MiB", "--piece", "1MiB", "--object", "3MiB",
                "--second-pass", "--threads", "2", "--rounds", "1");
        assertThat(text).contains("in pieces of 1MiB").containsPattern("round 1 SENDFILE_READ_AHEAD +\\d+ MB/s")
                .containsPattern("median SENDFILE_TO_NULL .*\\((1\\.00x the first method's CPU|" + BELOW_RESOLUTION + ")\\)");
    }

    @Test
    void aFileOfLessThanTwoPiecesIsRefused() throws Exception {
        Path file = dir.resolve("tiny");
        Files.write(file, new byte[1 << 20]);
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cli = new CommandLine(new PageInCost());
        cli.setErr(new java.io.PrintWriter(err));
        assertThat(cli.execute("--file", file.toString(), "--piece", "1MiB")).isNotZero();
        assertThat(err.toString()).contains("fewer than two pieces");
    }

    /** Runs the benchmark with {@code args}; returns what it printed, once it exited with 0. */
    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new PageInCost()).execute(args);
        } finally {
            System.setOut(stdout);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(text).isZero();
        return text;
    }
}
