package org.edgelab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class EdgeLabCliTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = EdgeLab.newCommandLine(args);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void listsEnginesAndPoliciesFoundOnTheClassPath() {
        assertThat(run("engines")).isZero();
        assertThat(out.toString()).contains("memory", "capacity", "lru", "sieve");
    }

    @Test
    void anUnknownEngineFailsNamingTheKnownOnes() {
        assertThat(run("serve", "--port", "0", "--engine", "nope")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown storage engine 'nope'", "memory");
    }

    @Test
    void aBadSizeNamesTheUnit() {
        assertThat(run("serve", "--memory", "10 MX")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown unit 'MX'");
    }

    @Test
    void aMissingConfigFileIsAClearError() {
        assertThatThrownBy(() -> EdgeLab.newCommandLine("serve", "--config", "/nonexistent/serve.properties"))
                .hasMessageContaining("/nonexistent/serve.properties does not exist");
    }

    @Test
    void serveAndOriginAreRegisteredWithTheirOptions() {
        assertThat(run("serve", "--help")).isZero();
        assertThat(out.toString()).contains("--admin-port", "--engine-opt", "--origin");
        assertThat(run("origin", "--help")).isZero();
        assertThat(out.toString()).contains("--first-byte-latency", "--faults");
    }

    @Test
    void aConfigFileSuppliesDefaultsToServe(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("serve.properties");
        Files.writeString(config, "memory=10 MX\n");
        assertThat(run("serve", "--config", config.toString(), "--port", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown unit 'MX'");
    }
}
