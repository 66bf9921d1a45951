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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.edgelab.cache.cli.ServeCommand;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

    @ParameterizedTest
    @ValueSource(strings = {"lmdb", "raw-log", "raw-files", "tiered"})
    void aDiskEngineWithoutADirectoryKeepsItsDataUnderTheDataDir(String engine, @TempDir Path dir) throws Exception {
        Path dataDir = dir.resolve("data");
        String[] args = {"serve", "--port", "0", "--engine", engine, "--data-dir", dataDir.toString()};
        CommandLine cli = EdgeLab.newCommandLine(args);
        cli.setOut(new PrintWriter(out, true));
        CommandLine.ParseResult parsed = cli.parseArgs(args);
        ServeCommand serve = parsed.subcommand().commandSpec().commandLine().getCommand();
        try (ServeCommand.Running running = serve.start()) {
            assertThat(out.toString()).contains("data directory " + dataDir.resolve(engine).toAbsolutePath());
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(running.baseUri().resolve("/objects/64KiB/data-dir")).build();
            assertThat(client.send(get, HttpResponse.BodyHandlers.discarding()).headers().firstValue("X-Cache")).hasValue("MISS");
            assertThat(client.send(get, HttpResponse.BodyHandlers.discarding()).headers().firstValue("X-Cache")).hasValue("HIT");
        }
        try (var files = Files.walk(dataDir.resolve(engine))) {
            assertThat(files.filter(Files::isRegularFile).count()).isPositive();
        }
    }

    @Test
    void theDataDirDefaultsToAFolderUnderTheCurrentOne() {
        CommandLine serve = EdgeLab.newCommandLine("serve").getSubcommands().get("serve");
        assertThat(serve.getCommandSpec().findOption("--data-dir").defaultValue()).isEqualTo("edgelab-data");
    }

    @Test
    void aKernelLinkNeedsTheEmbeddedServersAndAKnownEmulation() {
        assertThat(run("load", "http://127.0.0.1:1/x", "--link", "1gbit", "--link-emulation", "kernel")).isEqualTo(2);
        assertThat(err.toString()).contains("--link-emulation kernel needs the server inside the link's server namespace");
        assertThat(run("load", "--link", "1gbit", "--link-emulation", "netem")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown link emulation 'netem'", "kernel", "user-space");
    }

    /**
     * The report goes to the command's own output (picocli's), so a caller or a test captures it:
     * written to the process's standard output descriptor instead, it bypassed both and corrupted
     * surefire's channel to the forked test JVM.
     */
    @Test
    void loadWritesItsReportToTheCommandsOwnOutput() {
        assertThat(run("load", "-c", "2", "-t", "1", "-d", "1s")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("embedded: origin", "Requests/sec:",
                "Cache server (whole run incl. warm-up):");
    }

    @Test
    void loadRunsTheEmbeddedServersBehindAKernelLinkAndRemovesIt() throws Exception {
        java.util.Optional<String> missing = org.edgelab.link.NetworkLinks.kernelUnavailable();
        if (missing.isPresent() && "1".equals(System.getenv("EDGELAB_REQUIRE_ROOT"))) {
            org.junit.jupiter.api.Assertions.fail("EDGELAB_REQUIRE_ROOT=1 but " + missing.get());
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(missing.isEmpty(), () -> missing.orElse(""));
        assertThat(run("load", "--link", "100mbit", "--link-latency", "10ms", "--link-emulation", "kernel", "-c", "2", "-t", "1",
                "-d", "2s")).as(err.toString()).isZero();
        java.nio.file.Path names = java.nio.file.Path.of("/var/run/netns");
        try (var s = java.nio.file.Files.list(names)) {
            assertThat(s.map(p -> p.getFileName().toString()))
                    .noneMatch(n -> n.startsWith("edgelab-" + ProcessHandle.current().pid() + "-"));
        }
    }

    @Test
    void loadTakesWrksBareSecondsHeadersAndRatesWithUnits() {
        CommandLine.ParseResult load = EdgeLab.newCommandLine().parseArgs("load", "http://127.0.0.1:1/x", "-d", "30",
                "--timeout", "1.5", "-H", "X-A: 1", "--header", "X-B: 2", "--link", "1Gbit/s", "--bitrate", "560Mbit/s")
                .subcommand();
        assertThat(load.matchedOptionValue("-d", java.time.Duration.ZERO)).isEqualTo(java.time.Duration.ofSeconds(30));
        assertThat(load.matchedOptionValue("--timeout", java.time.Duration.ZERO)).isEqualTo(java.time.Duration.ofMillis(1500));
        assertThat(load.matchedOptionValue("-H", java.util.List.of())).isEqualTo(java.util.List.of("X-A: 1", "X-B: 2"));
        assertThat(load.matchedOptionValue("--link", org.edgelab.units.DataRate.ZERO).bitsPerSecond()).isEqualTo(1_000_000_000L);
        assertThat(load.matchedOptionValue("--bitrate", org.edgelab.units.DataRate.ZERO).wholeBytesPerSecond()).isEqualTo(70_000_000L);
    }

    @Test
    void aRateWithoutAUnitIsRefusedNamingTheForms() {
        assertThat(run("load", "http://127.0.0.1:1/x", "--link", "1000")).isEqualTo(2);
        assertThat(err.toString()).contains("'1000' has no unit", "Gbit/s", "MB/s");
    }
    @Test
    void aStartAtThatIsNeitherATimeNorStdinIsRefusedAsTheCommandLineIsParsed() {
        // refused by the converter: without a URL no embedded origin or cache was started for it
        assertThat(run("load", "--start-at", "soon")).isEqualTo(2);
        assertThat(err.toString()).contains("--start-at: 'soon' is not a time in milliseconds since the epoch", "'stdin'");
        CommandLine.ParseResult load = EdgeLab.newCommandLine().parseArgs("load", "http://127.0.0.1:1/x", "--start-at", "1700000000123")
                .subcommand();
        assertThat(load.matchedOptionValue("--start-at", (LoadCommand.StartBarrier) null).at())
                .isEqualTo(java.time.Instant.ofEpochMilli(1_700_000_000_123L));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "in a second\n"})
    void aStartAtStdinThatGetsNoTimeFailsSayingWhy(String input) {
        String[] args = {"load", "http://127.0.0.1:1/x", "-d", "1", "--start-at", "stdin"};
        CommandLine cli = EdgeLab.newCommandLine(args);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        LoadCommand load = cli.getSubcommands().get("load").getCommand();
        load.stdin = new java.io.ByteArrayInputStream(input.getBytes(java.nio.charset.StandardCharsets.US_ASCII));

        assertThat(cli.execute(args)).isEqualTo(2);
        assertThat(out.toString()).contains(LoadCommand.START_READY);
        assertThat(err.toString()).contains(input.isEmpty()
                ? "--start-at stdin: standard input ended before a start time (epoch ms) arrived"
                : "--start-at stdin: 'in a second' is not a time in milliseconds since the epoch");
    }
}
