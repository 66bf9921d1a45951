package org.edgelab.origin.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.edgelab.commandline.CommandLines;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.ContentVerifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class OriginCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private CommandLine commandLine(String... args) {
        CommandLine cli = CommandLines.configure(new CommandLine(new OriginCommand()), args);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli;
    }

    private OriginCommand parse(String... args) {
        CommandLine cli = commandLine(args);
        cli.parseArgs(args);
        return cli.getCommand();
    }

    @Test
    void printsTheListeningLineAndServesVerifiableObjects() throws Exception {
        try (OriginServer server = parse("--port", "0", "--bandwidth", "800Mbit/s").start()) {
            assertThat(out.toString()).startsWith("edgelab origin on " + server.baseUri() + " (")
                    .contains("100 MB/s per response", "stats at /_stats");
            HttpResponse<byte[]> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(server.baseUri().resolve("/objects/64KiB/origin-cli")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).hasSize(64 * 1024);
            assertThat(new ContentVerifier("origin-cli", 0).update(ByteBuffer.wrap(response.body()))).isTrue();
        }
    }

    @Test
    void aBadDurationNamesTheUnitAndExitsWithStatusTwo() {
        assertThat(commandLine("--first-byte-latency", "5 parsecs").execute("--first-byte-latency", "5 parsecs")).isEqualTo(2);
        assertThat(err.toString()).contains("--first-byte-latency", "parsecs");
    }

    @Test
    void aFilesDirectoryThatDoesNotExistIsAClearError(@TempDir Path dir) {
        String missing = dir.resolve("nope").toString();
        assertThat(commandLine().execute("--port", "0", "--files", missing)).isEqualTo(2);
        assertThat(err.toString()).contains("edgelab origin: --files", "is not a directory");
    }

    @Test
    void aMissingConfigFileIsAClearError() {
        assertThatThrownBy(() -> CommandLines.configure(new CommandLine(new OriginCommand()), "--config", "/nonexistent/x.properties"))
                .hasMessageContaining("/nonexistent/x.properties does not exist");
        assertThat(CommandLines.execute(new OriginCommand(), "--config", "/nonexistent/x.properties")).isEqualTo(2);
    }
}
