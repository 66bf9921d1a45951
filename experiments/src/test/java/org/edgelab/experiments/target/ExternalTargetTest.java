package org.edgelab.experiments.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.edgelab.cache.server.CacheServer;
import org.edgelab.cache.server.CacheServerConfig;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The external target against an EdgeLab origin and cache this test starts itself on loopback. */
class ExternalTargetTest {

    @TempDir
    Path dir;

    private final ExternalTarget target = new ExternalTarget();

    private static ServerBuild build(Map<String, String> targetSettings) {
        return new ServerBuild("ext", "external", "varnish-6", Map.of(), targetSettings);
    }

    private TargetContext context() {
        return new TargetContext(dir.resolve("store"), dir.resolve("work"), 1, 0, Duration.ofSeconds(60));
    }

    @Test
    void isRegisteredUnderItsName() {
        assertThat(Targets.get("external")).isInstanceOf(ExternalTarget.class);
    }

    @Test
    void onlyLoopbackUrlsAreAccepted() throws IOException {
        Path file = dir.resolve("far.yaml");
        Files.writeString(file, """
                name: far
                target: external
                servers:
                  - engine: varnish
                    target_settings: {url: "http://192.0.2.10:8080"}
                """);
        assertThatThrownBy(() -> DescriptorLoader.load(file.toString(), false))
                .hasMessageContaining("servers[0].target_settings")
                .hasMessageContaining("url 'http://192.0.2.10:8080' is not a loopback http URL: EdgeLab only sends traffic to loopback");
        for (String far : new String[] {"https://127.0.0.1:8443", "http://localhost.example.com:80", "http://10.0.0.1:80", "ftp://127.0.0.1:21"}) {
            assertThatThrownBy(() -> target.validate(build(Map.of("url", far)))).as(far)
                    .isInstanceOf(BuildValidationException.class).hasMessageContaining("only sends traffic to loopback");
        }
        assertThatThrownBy(() -> target.validate(build(Map.of("url", "http://127.0.0.1:80", "stats_url", "http://203.0.113.5:9000/stats"))))
                .hasMessageContaining("stats_url 'http://203.0.113.5:9000/stats' is not a loopback http URL");
        target.validate(build(Map.of("url", "http://127.0.0.1:8080")));
        target.validate(build(Map.of("url", "http://[::1]:8080/", "synthetic", "false")));
        target.validate(build(Map.of("url", "http://localhost:8080", "stats_url", "http://localhost:8081/stats", "disk", "true")));
    }

    @Test
    void otherMistakesAreNamed() {
        assertThatThrownBy(() -> target.validate(build(Map.of())))
                .hasMessageContaining("the external target needs target_settings url");
        assertThatThrownBy(() -> target.validate(build(Map.of("url", "http://127.0.0.1:8080", "uri", "x"))))
                .hasMessageContaining("target 'external' has no setting 'uri'; its settings are: disk, stats_url, synthetic, url");
        assertThatThrownBy(() -> target.validate(build(Map.of("url", "http://127.0.0.1"))))
                .hasMessageContaining("needs a port");
        assertThatThrownBy(() -> target.validate(build(Map.of("url", "http://127.0.0.1:8080/cache"))))
                .hasMessageContaining("has a path");
        assertThatThrownBy(() -> target.validate(build(Map.of("url", "http://127.0.0.1:8080", "synthetic", "yes please"))))
                .hasMessageContaining("setting 'synthetic' must be true or false");
        assertThat(target.usesDisk(build(Map.of("url", "http://127.0.0.1:8080")))).isFalse();
        assertThat(target.usesDisk(build(Map.of("url", "http://127.0.0.1:8080", "disk", "true")))).isTrue();
    }

    @Test
    void startFailsClearlyWhenNothingAnswers() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;
        // a start timeout of 1 s rather than the runner's 60 (of which the target waits at most its own 3 s): the
        // same retries until the deadline, only fewer of them
        TargetContext impatient = new TargetContext(dir.resolve("store"), dir.resolve("work"), 1, 0, Duration.ofSeconds(1));
        assertThatThrownBy(() -> target.start(build(Map.of("url", url)), impatient))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("nothing answers HTTP at " + url)
                .hasMessageContaining("start the server first")
                .hasMessageContaining("within 1 s");
    }

    @Test
    void aStatsUrlThatIsNotEdgeLabStatisticsIsRefusedAtStart() throws IOException {
        try (OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).build())) {
            String base = origin.baseUri().toString();
            assertThatThrownBy(() -> target.start(build(Map.of("url", base, "stats_url", base + "/objects/100/x")), context()))
                    .hasMessageContaining("stats_url of server 'ext' cannot be read")
                    .hasMessageContaining("did not answer JSON");
            try (RunningTarget running = target.start(build(Map.of("url", base, "synthetic", "false")), context())) {
                assertThat(running.syntheticContent()).isFalse();
                assertThat(running.counters()).isEqualTo(new ServerCounters(-1, -1, -1, -1, -1));
                assertThat(running.cpu().measured()).isFalse();
                assertThat(running.cpu().method()).isEqualTo("external: not measured");
            }
        }
    }

    @Test
    void aQuickExperimentRunsEndToEndAgainstAServerAlreadyRunning() throws Exception {
        try (OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).build());
             ObjectStore store = StorageEngines.open("memory", PluginSettings.of("capacity", "16MB"));
             CacheServer cache = CacheServer.start(CacheServerConfig.builder().port(0).adminPort(0).origin(origin.baseUri()).build(), store)) {
            Path file = dir.resolve("ext.yaml");
            Files.writeString(file, """
                    name: ext
                    target: external
                    repetitions: 1
                    servers:
                      - name: edge
                        engine: edgelab-memory
                        target_settings: {url: "http://127.0.0.1:%d", stats_url: "http://127.0.0.1:%d/stats"}
                      - name: straight
                        engine: none
                        target_settings: {url: "%s/"}
                    load:
                      connections: 4
                      threads: 1
                      duration: 500ms
                      timeout: 5s
                      workload:
                        object_sizes: [32KB]
                        working_set: 1MB
                        target_hit_ratio: 0.8
                    """.formatted(cache.port(), cache.adminPort(), origin.baseUri()));
            RunResult result = ExperimentRunner.run(DescriptorLoader.load(file.toString(), false),
                    RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null));

            assertThat(result.complete()).isTrue();
            assertThat(result.rows()).hasSize(2);
            for (ResultRow row : result.rows()) {
                assertThat(row.get("cpu_method")).isEqualTo("external: not measured");
                assertThat(row.measured("requests")).isGreaterThan(10);
                assertThat(row.measured("errors_integrity") + row.measured("errors_truncated") + row.measured("errors_status_5xx")).isZero();
            }
            ResultRow edge = result.rows().get(0);
            assertThat(edge.get("engine")).isEqualTo("edgelab-memory");
            assertThat(edge.measured("server_requests")).isGreaterThanOrEqualTo(edge.measured("requests"));
            assertThat(edge.measured("server_hits")).isPositive();
            assertThat(edge.measured("server_hits") / edge.measured("server_requests"))
                    .isCloseTo(edge.measured("hit_ratio_requests"), org.assertj.core.data.Offset.offset(0.1));
            ResultRow straight = result.rows().get(1);
            assertThat(straight.get("server_requests")).isEmpty();
            assertThat(straight.get("server_hits")).isEmpty();
            assertThat(cache.stats().count(org.edgelab.cache.admin.CacheStats.Result.MISS)).isPositive();
        }
    }
}
