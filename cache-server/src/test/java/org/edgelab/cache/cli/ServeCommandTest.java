package org.edgelab.cache.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.commandline.CommandLines;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.ContentVerifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ServeCommandTest {

    /** No origin listens here; a cache that fails before it fetches never contacts it. */
    private static final String NO_ORIGIN = "http://127.0.0.1:9";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private OriginServer origin;

    @BeforeEach
    void startOrigin() {
        origin = OriginServer.start(OriginConfig.builder().host("127.0.0.1").port(0).build());
    }

    @AfterEach
    void stopOrigin() {
        origin.close();
    }

    private CommandLine commandLine(String... args) {
        return commandLine(new ServeCommand(), args);
    }

    private CommandLine commandLine(ServeCommand command, String... args) {
        CommandLine cli = CommandLines.configure(new CommandLine(command), args);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli;
    }

    private int run(String... args) {
        return commandLine(args).execute(args);
    }

    private ServeCommand parse(String... args) {
        return parse(new ServeCommand(), args);
    }

    private ServeCommand parse(ServeCommand command, String... args) {
        CommandLine cli = commandLine(command, args);
        cli.parseArgs(args);
        return cli.getCommand();
    }

    @Test
    void anUnknownEngineFailsNamingTheKnownOnes() {
        assertThat(run("--port", "0", "--origin", NO_ORIGIN, "--engine", "nope")).isEqualTo(2);
        assertThat(err.toString()).contains("edgelab serve: ", "unknown storage engine 'nope'", "memory");
    }

    @Test
    void aBadSizeNamesTheUnit() {
        assertThat(run("--memory", "10 MX")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown unit 'MX'");
    }

    @Test
    void onItsOwnWithoutAnOriginItFailsNamingTheOption() {
        assertThat(run("--port", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("edgelab serve: --origin URL is required");
    }

    @Test
    void startsTheEmbeddedOriginItIsGivenWhenNoOriginIsNamedAndStopsItWithTheCache() throws Exception {
        AtomicBoolean stopped = new AtomicBoolean();
        ServeCommand command = new ServeCommand(() -> new ServeCommand.Started(origin.baseUri(), "test origin on " + origin.baseUri(),
                "/objects/1KiB/x", () -> stopped.set(true)));
        try (ServeCommand.Running running = parse(command, "--port", "0", "--memory", "8m").start()) {
            assertThat(running.embeddedOrigin().baseUri()).isEqualTo(origin.baseUri());
            assertThat(out.toString()).contains("test origin on " + origin.baseUri(),
                    "edgelab cache on " + running.baseUri() + " -> " + origin.baseUri(),
                    "try: curl -sv -o /dev/null " + running.baseUri() + "/objects/1KiB/x");
            assertThat(stopped).isFalse();
        }
        assertThat(stopped).isTrue();
    }

    @Test
    void servesAMissThenAHitInFrontOfItsOriginAndPrintsWhereItListens() throws Exception {
        try (ServeCommand.Running running = parse("--port", "0", "--origin", origin.baseUri().toString(), "--memory", "32m",
                "--admin-port", "0").start()) {
            int adminPort = running.server().adminPort();
            assertThat(out.toString()).contains("edgelab cache on " + running.baseUri() + " -> " + origin.baseUri(),
                    "admin on http://127.0.0.1:" + adminPort + "/stats and /metrics");
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(running.baseUri().resolve("/objects/300KiB/cli-test")).build();
            HttpResponse<byte[]> first = client.send(get, HttpResponse.BodyHandlers.ofByteArray());
            HttpResponse<byte[]> second = client.send(get, HttpResponse.BodyHandlers.ofByteArray());
            assertThat(first.headers().firstValue("X-Cache")).hasValue("MISS");
            assertThat(second.headers().firstValue("X-Cache")).hasValue("HIT");
            for (HttpResponse<byte[]> response : List.of(first, second)) {
                assertThat(response.body()).hasSize(300 * 1024);
                assertThat(new ContentVerifier("cli-test", 0).update(ByteBuffer.wrap(response.body()))).isTrue();
            }
            HttpResponse<String> stats = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + adminPort + "/stats")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(stats.statusCode()).isEqualTo(200);
            assertThat(stats.body()).contains("hits");
        }
    }

    @Test
    void upstreamsServeThroughTheRingAndShowInStats() throws Exception {
        OriginServer second = OriginServer.start(OriginConfig.builder().host("127.0.0.1").port(0).build());
        try (ServeCommand.Running running = parse("--port", "0", "--upstream", origin.baseUri() + "," + second.baseUri(),
                "--upstream-vnodes", "40", "--upstream-probe-interval", "250ms", "--memory", "8m", "--admin-port", "0",
                "--preserve-host").start()) {
            assertThat(out.toString()).contains("edgelab cache on " + running.baseUri() + " -> upstreams ["
                    + origin.baseUri() + ", " + second.baseUri() + "] (consistent hash of the path)");
            HttpClient client = HttpClient.newHttpClient();
            for (int i = 0; i < 20; i++) {
                HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(running.baseUri().resolve("/objects/1KiB/u" + i))
                        .build(), HttpResponse.BodyHandlers.ofByteArray());
                assertThat(r.statusCode()).isEqualTo(200);
            }
            assertThat(origin.stats().requests() + second.stats().requests()).isEqualTo(20);
            assertThat(origin.stats().requests()).as("both upstreams get paths").isPositive();
            assertThat(second.stats().requests()).as("both upstreams get paths").isPositive();
            String stats = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + running.server().adminPort()
                    + "/stats")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertThat(stats).contains("\"upstreams\"", "\"upstream\" : \"127.0.0.1:" + second.port() + "\"");
        } finally {
            second.close();
        }
    }

    @Test
    void badUpstreamFlagsFailWithAClearMessage() {
        assertThat(run("--port", "0", "--origin", NO_ORIGIN, "--upstream", "http://127.0.0.1:10")).isEqualTo(2);
        assertThat(err.toString()).contains("give --origin URL or --upstream URL,..., not both");
        assertThat(run("--port", "0", "--upstream", "http://127.0.0.1:10,http://127.0.0.1:10")).isEqualTo(2);
        assertThat(err.toString()).contains("upstream http://127.0.0.1:10 is listed twice");
        assertThat(run("--port", "0", "--upstream", "http://127.0.0.1:10,ftp://127.0.0.1:11")).isEqualTo(2);
        assertThat(err.toString()).contains("upstream 2 of 2 must be an http://host[:port] URI");
    }

    @Test
    void withoutAdminPortNoAdminLineIsPrinted() throws Exception {
        try (ServeCommand.Running running = parse("--port", "0", "--origin", NO_ORIGIN, "--memory", "8m").start()) {
            assertThat(running.server().adminPort()).isEqualTo(-1);
            assertThat(out.toString()).contains("edgelab cache on ").doesNotContain("admin on");
        }
    }

    @Test
    void optionsComeFromTheConfigFileUnlessGivenOnTheCommandLine(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("serve.properties");
        Files.writeString(config, "port=0\nmemory=16m\nmax-ranges=3\norigin=" + NO_ORIGIN + "\n");
        try (ServeCommand.Running running = parse("--config", config.toString(), "--memory", "8m").start()) {
            assertThat(running.server().port()).isPositive();
            assertThat(running.store().usage().capacityBytes()).isEqualTo(8L << 20);
        }
    }

    @Test
    void upstreamsComeFromTheConfigFileAsACommaSeparatedList(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("serve.properties");
        Files.writeString(config, "port=0\nmemory=8m\nupstream=http://127.0.0.1:10,http://127.0.0.1:11\n");
        try (ServeCommand.Running running = parse("--config", config.toString()).start()) {
            assertThat(out.toString()).contains("-> upstreams [http://127.0.0.1:10, http://127.0.0.1:11]");
            assertThat(running.server().stats().snapshot(running.store()).upstreams()).hasSize(2);
        }
    }

    @Test
    void headerTimeoutClosesAClientWhoseHeadersTrickleIn() throws Exception {
        try (ServeCommand.Running running = parse("--port", "0", "--origin", NO_ORIGIN, "--memory", "8m", "--header-timeout", "300ms").start();
             java.net.Socket socket = new java.net.Socket("127.0.0.1", running.server().port())) {
            socket.setSoTimeout(5000); // the default header timeout (10s) would let this read time out
            long start = System.nanoTime();
            socket.getOutputStream().write("GET /objects/1KB/slow HTTP/1.1\r\nHost: x\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat((System.nanoTime() - start) / 1e9).isBetween(0.25, 4.0);
        }
    }
}
