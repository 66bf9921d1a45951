package org.edgelab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.edgelab.cache.cli.ServeCommand;
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
    void serveWithoutAnOriginServesAMissThenAHitFromTheEmbeddedSyntheticOrigin() throws Exception {
        String[] args = {"serve", "--port", "0", "--memory", "32m"};
        CommandLine cli = EdgeLab.newCommandLine(args);
        CommandLine serve = cli.getSubcommands().get("serve");
        serve.setOut(new PrintWriter(out, true));
        cli.parseArgs(args);
        try (ServeCommand.Running running = serve.<ServeCommand>getCommand().start()) {
            assertThat(out.toString()).contains("embedded synthetic origin on " + running.embeddedOrigin().baseUri(),
                    "edgelab cache on " + running.baseUri() + " -> " + running.embeddedOrigin().baseUri(),
                    "try: curl -sv -o /dev/null " + running.baseUri() + "/objects/1MiB/hello");
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(running.baseUri().resolve("/objects/300KiB/cli-test")).build();
            List<String> xCache = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                HttpResponse<byte[]> response = client.send(get, HttpResponse.BodyHandlers.ofByteArray());
                assertThat(response.body()).hasSize(300 * 1024);
                assertThat(new ContentVerifier("cli-test", 0).update(ByteBuffer.wrap(response.body()))).isTrue();
                xCache.add(response.headers().firstValue("X-Cache").orElse(""));
            }
            assertThat(xCache).containsExactly("MISS", "HIT");
        }
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
