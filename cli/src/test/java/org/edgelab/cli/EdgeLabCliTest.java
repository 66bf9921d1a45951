package org.edgelab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.edgelab.origin.content.ContentVerifier;
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

    private ServeCommand parseServe(String... args) {
        CommandLine cli = EdgeLab.newCommandLine(args);
        cli.setOut(new PrintWriter(out, true));
        CommandLine.ParseResult parsed = cli.parseArgs(args);
        return (ServeCommand) parsed.subcommand().commandSpec().userObject();
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
    void servesAMissThenAHitInFrontOfTheEmbeddedOrigin() throws Exception {
        try (ServeCommand.Running running = parseServe("serve", "--port", "0", "--memory", "32m", "--admin-port", "0").start()) {
            assertThat(out.toString()).contains("embedded synthetic origin", "edgelab cache on " + running.baseUri());
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(running.baseUri().resolve("/objects/300KiB/cli-test")).build();
            HttpResponse<byte[]> first = client.send(get, HttpResponse.BodyHandlers.ofByteArray());
            HttpResponse<byte[]> second = client.send(get, HttpResponse.BodyHandlers.ofByteArray());
            assertThat(first.headers().firstValue("X-Cache")).hasValue("MISS");
            assertThat(second.headers().firstValue("X-Cache")).hasValue("HIT");
            for (HttpResponse<byte[]> response : java.util.List.of(first, second)) {
                assertThat(response.body()).hasSize(300 * 1024);
                ContentVerifier verifier = new ContentVerifier("cli-test", 0);
                assertThat(verifier.update(java.nio.ByteBuffer.wrap(response.body()))).isTrue();
            }
            HttpResponse<String> stats = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + running.server().adminPort() + "/stats")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(stats.statusCode()).isEqualTo(200);
            assertThat(stats.body()).contains("hits");
        }
    }

    @Test
    void optionsComeFromTheConfigFileUnlessGivenOnTheCommandLine(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("serve.properties");
        Files.writeString(config, "port=0\nmemory=16m\nmax-ranges=3\n");
        try (ServeCommand.Running running = parseServe("serve", "--config", config.toString(), "--memory", "8m").start()) {
            assertThat(running.server().port()).isPositive();
            assertThat(running.store().usage().capacityBytes()).isEqualTo(8L << 20);
        }
    }
}
