package org.edgelab.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import org.junit.jupiter.api.Test;

/** Runs notebooks/varnish-edge.jsh with jdk.jshell on the fixture results: every snippet must be valid and throw nothing. */
class NotebookTest {
    @Test
    void theVarnishEdgeNotebookRunsOnTheFixtures() throws Exception {
        Path notebook = Path.of("..", "notebooks", "varnish-edge.jsh");
        assertThat(notebook).isRegularFile();
        System.setProperty("edgelab.results", TestResults.fixtures().toString());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<String> problems = new ArrayList<>();
        PrintStream original = System.out;
        // The local execution engine runs snippets in this JVM: their System.out is this JVM's.
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (JShell shell = JShell.builder().executionEngine("local")
                .out(new PrintStream(printed, true, StandardCharsets.UTF_8)).err(new PrintStream(printed, true, StandardCharsets.UTF_8))
                .build()) {
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                shell.addToClasspath(entry);
            }
            SourceCodeAnalysis analysis = shell.sourceCodeAnalysis();
            // JShell commands (/exit) are for the jshell tool, not for the evaluator.
            String remaining = String.join("\n", Files.readAllLines(notebook).stream().filter(line -> !line.startsWith("/")).toList());
            while (!remaining.isBlank()) {
                SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(remaining);
                String source = info.source() == null ? remaining : info.source();
                for (SnippetEvent event : shell.eval(source)) {
                    if (event.status() == Snippet.Status.REJECTED) {
                        problems.add("rejected: " + source + " " + shell.diagnostics(event.snippet()).map(d -> d.getMessage(null)).toList());
                    }
                    if (event.exception() != null) {
                        problems.add("threw: " + source + " " + event.exception());
                    }
                }
                remaining = info.remaining();
            }
        } finally {
            System.setOut(original);
            System.clearProperty("edgelab.results");
        }
        assertThat(problems).isEmpty();
        String output = printed.toString(StandardCharsets.UTF_8);
        assertThat(output).contains("24 rows").contains("| engine | object_size_bytes |").contains("ratio_min")
                .contains("per core: measured x (32 published cores / 2 measured cores)");
    }
}
