package org.edgelab.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.experiments.target.BuildValidationException;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.Targets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/**
 * The container target for real: images built locally (once per JVM and content), origin and cache in
 * containers on the host network. Skipped without Docker, failed instead when EDGELAB_REQUIRE_DOCKER=1.
 */
class ContainerTargetTest {

    private static final String PREFIX = "edgelab-";

    @TempDir
    Path dir;

    @Test
    void theRunnersLoggingSettingsReachTheServersInTheirContainers() {
        String name = "org.slf4j.simpleLogger.defaultLogLevel";
        String before = System.getProperty(name);
        System.setProperty(name, "debug"); // what the runner's --log-level debug sets
        try {
            List<String> command = ContainerTarget.command(new ServerImages.ServerImage("edgelab-server:test", "/app/lib/*"),
                    List.of("-Xmx64m"), ContainerTarget.CACHE_MAIN, List.of("--port", "8080"));
            assertThat(command).contains("-D" + name + "=debug");
            assertThat(command.indexOf("-D" + name + "=debug")).isLessThan(command.indexOf(ContainerTarget.CACHE_MAIN));
        } finally {
            if (before == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, before);
            }
        }
    }

    @Test
    void quickExperimentRunsEndToEndInContainers() throws IOException {
        DockerRequirement.assumeDocker();
        // the same file scripts/ci-docker.sh runs with ./edgelab run ... --quick
        Path file = Path.of(URI.create(ContainerTargetTest.class.getResource("/container-quick.yaml").toString()));
        Descriptor descriptor = DescriptorLoader.load(file.toString(), true);
        RunResult result = ExperimentRunner.run(descriptor, RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(System.out));

        assertThat(result.complete()).isTrue();
        assertThat(result.rows()).hasSize(2);
        for (ResultRow row : result.rows()) {
            assertThat(row.measured("requests")).isGreaterThan(20);
            assertThat(row.measured("errors_integrity") + row.measured("errors_truncated") + row.measured("errors_status_5xx")
                    + row.measured("errors_connect")).isZero();
            assertThat(row.measured("server_requests")).isGreaterThanOrEqualTo(row.measured("requests"));
            assertThat(row.measured("server_hits") / row.measured("server_requests")).isCloseTo(row.measured("hit_ratio_requests"),
                    org.assertj.core.data.Offset.offset(0.1));
            assertThat(row.measured("hit_ratio_requests")).isBetween(0.6, 0.97);
            assertThat(row.get("cpu_method")).isEqualTo(ServerContainers.CPU_METHOD);
            assertThat(row.measured("cpu_s_server")).isPositive();
        }
        List<Path> cacheLogs;
        try (Stream<Path> files = Files.walk(result.directory().resolve("targets"))) {
            cacheLogs = files.filter(p -> p.getFileName().toString().equals("cache.log")).toList();
        }
        assertThat(cacheLogs).hasSize(2).anySatisfy(log -> assertThat(Files.readString(log))
                .contains("edgelab cache on http://127.0.0.1:", "engine raw-files"));
        assertThat(ourContainers()).isEmpty();
    }

    @Test
    void cacheContainerGetsTheLimitsTheStoreAndTheRunnersUserAndIsRemovedOnClose() throws Exception {
        DockerRequirement.assumeDocker();
        ContainerTarget target = (ContainerTarget) Targets.get("container");
        ServerBuild build = new ServerBuild("disk", "container", "raw-files",
                Map.of("dir", "${store}", "capacity", "16MB"), Map.of("cpus", "0.5", "memory", "256MiB"));
        target.validate(build);
        Path store = dir.resolve("store");
        TargetContext context = new TargetContext(store, dir.resolve("work"), 64, 0, Duration.ofSeconds(60));

        RunningTarget running = target.start(build, context);
        try {
            HttpClient http = HttpClient.newHttpClient();
            URI object = running.clientUri().resolve("/objects/100000/container-test");
            HttpResponse<byte[]> first = http.send(HttpRequest.newBuilder(object).build(), HttpResponse.BodyHandlers.ofByteArray());
            HttpResponse<byte[]> second = http.send(HttpRequest.newBuilder(object).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.headers().firstValue("X-Cache")).hasValue("MISS");
            assertThat(second.headers().firstValue("X-Cache")).hasValue("HIT");
            assertThat(second.body()).isEqualTo(first.body()).hasSize(100000);
            ServerCounters counters = running.counters();
            assertThat(counters.requests()).isEqualTo(2);
            assertThat(counters.hits()).isEqualTo(1);
            assertThat(counters.misses()).isEqualTo(1);
            assertThat(counters.bytesFromOrigin()).isEqualTo(100000);
            assertThat(running.cpu().serverSeconds()).isPositive();

            List<Container> containers = ourContainers();
            assertThat(containers).hasSize(2);
            InspectContainerResponse cache = docker().inspectContainerCmd(containers.stream()
                    .filter(c -> c.getNames()[0].contains("-cache-")).findFirst().orElseThrow().getId()).exec();
            assertThat(cache.getHostConfig().getNanoCPUs()).isEqualTo(500_000_000L);
            assertThat(cache.getHostConfig().getMemory()).isEqualTo(256L * 1024 * 1024);
            assertThat(cache.getHostConfig().getNetworkMode()).isEqualTo("host");
            assertThat(cache.getConfig().getUser()).isEqualTo(Files.getAttribute(Path.of("/proc/self"), "unix:uid") + ":"
                    + Files.getAttribute(Path.of("/proc/self"), "unix:gid"));
            try (Stream<Path> files = Files.walk(store)) {
                List<Path> written = files.filter(Files::isRegularFile).toList();
                assertThat(written).isNotEmpty();
                for (Path f : written) {
                    assertThat(Files.getAttribute(f, "unix:uid")).isEqualTo(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
                }
            }
        } finally {
            running.close();
            running.close();
        }
        assertThat(ourContainers()).isEmpty();
        assertThat(Files.readString(context.workDir().resolve("origin.log"))).contains("edgelab origin on http://127.0.0.1:");
    }

    @Test
    void theNoCacheBaselineRunsTheOriginAloneWithoutLimits() throws Exception {
        DockerRequirement.assumeDocker();
        ServerBuild build = new ServerBuild("direct", "container", "none", Map.of(), Map.of());
        try (RunningTarget running = Targets.get("container").start(build,
                new TargetContext(dir.resolve("store"), dir.resolve("work"), 1, 0, Duration.ofSeconds(60)))) {
            HttpResponse<Void> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    running.clientUri().resolve("/objects/1000/direct")).build(), HttpResponse.BodyHandlers.discarding());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(running.counters()).isEqualTo(new ServerCounters(1, -1, -1, 1000, 0));
            assertThat(ourContainers()).hasSize(1);
            assertThat(docker().inspectContainerCmd(ourContainers().get(0).getId()).exec().getHostConfig().getNanoCPUs())
                    .isIn(null, 0L);
        }
        assertThat(ourContainers()).isEmpty();
    }

    @Test
    void aServerThatCannotStartFailsWithItsLogAndLeavesNoContainer() {
        DockerRequirement.assumeDocker();
        ServerBuild build = new ServerBuild("bad", "container", "raw-files",
                Map.of("dir", "${store}", "capacity", "16MB"), Map.of("java_options", "-XX:+NoSuchJvmFlag"));
        assertThatThrownBy(() -> Targets.get("container").start(build,
                new TargetContext(dir.resolve("store"), dir.resolve("work"), 1, 0, Duration.ofSeconds(30))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cache container")
                .hasMessageContaining("NoSuchJvmFlag");
        assertThat(ourContainers()).isEmpty();
    }

    @Test
    void validationNamesTheTargetSettingAtFault() {
        ContainerTarget target = new ContainerTarget();
        assertThatThrownBy(() -> target.validate(new ServerBuild("m", "container", "memory", Map.of(),
                Map.of("cpu_list", "0-1")))).isInstanceOf(BuildValidationException.class)
                .hasMessageContaining("cpu_list").hasMessageContaining("cpus, java_options, memory")
                .extracting(e -> ((BuildValidationException) e).field()).isEqualTo("target_settings");
        assertThatThrownBy(() -> target.validate(new ServerBuild("m", "container", "memory", Map.of(),
                Map.of("memory", "10 MX")))).hasMessageContaining("memory:");
        assertThatThrownBy(() -> target.validate(new ServerBuild("m", "container", "no-such-engine", Map.of(),
                Map.of()))).extracting(e -> ((BuildValidationException) e).field()).isEqualTo("engine");
        target.validate(new ServerBuild("m", "container", "memory", Map.of("capacity", "1MB"),
                Map.of("cpus", "1.5", "memory", "1GiB", "java_options", "-Xss512k")));
    }

    private static DockerClient docker() {
        return DockerClientFactory.instance().client();
    }

    /** This JVM's containers (the target names them edgelab-<role>-<pid>-<nanos>), running or not. */
    private static List<Container> ourContainers() {
        String mine = "-" + ProcessHandle.current().pid() + "-";
        return docker().listContainersCmd().withShowAll(true).exec().stream()
                .filter(c -> c.getNames() != null && c.getNames().length > 0 && c.getNames()[0].startsWith("/" + PREFIX)
                        && c.getNames()[0].contains(mine))
                .toList();
    }
}
