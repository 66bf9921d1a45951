package org.edgelab.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.edgelab.experiments.target.EdgeLabBuilds;
import org.edgelab.experiments.target.JvmCommand;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.TargetSettings;
import org.edgelab.plugin.Setting;
import org.testcontainers.DockerClientFactory;

/**
 * The {@code container} target: EdgeLab's synthetic origin and its cache server each in their own
 * container, from one image built locally ({@link ServerImages}: a Java runtime and the runner's class
 * path, {@code FROM scratch}, no registry), run with Testcontainers on the host network so both bind
 * loopback ports (port 0, read back from their log lines). The cache's container gets CPU and memory
 * limits from the hardware assumptions ({@link ContainerLimits}); the origin's has none, being the
 * upstream and not under test. The build's store directory is bind-mounted at the same path. Counters
 * come from the cache's admin {@code /stats}; CPU time from the cache container's process tree.
 *
 * <p>Target settings: {@value ContainerLimits#CPUS}, {@value ContainerLimits#MEMORY}, and
 * {@value #JAVA_OPTIONS} (JVM flags for the cache server, space-separated; default
 * {@value #DEFAULT_JAVA_OPTIONS}).
 *
 * <p>Testcontainers here runs without its Ryuk reaper (no registry to pull it from): every container
 * is removed when its cell ends, and Testcontainers removes what is left when the JVM exits. Stateless
 * and thread-safe.
 */
public final class ContainerTarget implements Target {

    /** Target setting: JVM flags of the cache server. */
    public static final String JAVA_OPTIONS = "java_options";
    /** Heap at most half the container's memory, so the memory engine's direct buffers fit beside it. */
    public static final String DEFAULT_JAVA_OPTIONS = "-XX:MaxRAMPercentage=50";
    /** The message when Docker does not answer. */
    public static final String NO_DOCKER = "Docker is not available: apt-get install docker.io and start dockerd";
    static final List<Setting> SETTINGS = List.of(
            new Setting(ContainerLimits.CPUS, null, "CPUs of the cache's container (decimal), instead of the hardware's cores"),
            new Setting(ContainerLimits.MEMORY, null, "memory of the cache's container, instead of the hardware's"),
            new Setting(JAVA_OPTIONS, DEFAULT_JAVA_OPTIONS, "JVM flags of the cache server, space-separated"));
    static final String ORIGIN_MAIN = "org.edgelab.origin.cli.OriginCommand";
    static final String CACHE_MAIN = "org.edgelab.cache.cli.ServeCommand";

    private static volatile boolean dockerAnswered;

    @Override
    public String name() {
        return "container";
    }

    @Override
    public String description() {
        return "origin and cache each in a Docker container built locally (Testcontainers, host network, "
                + "CPU and memory limits from the hardware assumptions; target_settings: cpus, memory, java_options)";
    }

    @Override
    public List<Setting> settings() {
        return SETTINGS;
    }

    @Override
    public void validate(ServerBuild build) {
        TargetSettings.requireOnly(name(), build.targetSettings(), SETTINGS);
        ContainerLimits.validate(build.targetSettings());
        EdgeLabBuilds.validate(build);
    }

    @Override
    public Optional<String> unavailableReason(ServerBuild build) {
        Optional<String> engine = EdgeLabBuilds.unavailableReason(build);
        return engine.isPresent() ? engine : dockerUnavailableReason();
    }

    /** Empty when Docker answers and Testcontainers can use it here; else what is missing and how to fix it. */
    public static Optional<String> dockerUnavailableReason() {
        if (dockerAnswered) {
            return Optional.empty();
        }
        String dockerHost = System.getenv("DOCKER_HOST");
        if ((dockerHost == null || dockerHost.isBlank()) && !Files.exists(Path.of("/var/run/docker.sock"))) {
            return Optional.of(NO_DOCKER + " (no /var/run/docker.sock and no DOCKER_HOST)");
        }
        if (!"true".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
            return Optional.of("Testcontainers would first pull its Ryuk image from a registry: set TESTCONTAINERS_RYUK_DISABLED=true"
                    + " (the container target removes its own containers)");
        }
        try {
            if (DockerClientFactory.instance().isDockerAvailable()) {
                dockerAnswered = true;
                return Optional.empty();
            }
            return Optional.of(NO_DOCKER);
        } catch (RuntimeException e) {
            if (String.valueOf(e.getMessage()).contains("network bridge not found")) {
                return Optional.of("Docker runs without a bridge network and this JVM runs inside a container, so Testcontainers"
                        + " cannot find the Docker host's address: set TESTCONTAINERS_HOST_OVERRIDE=localhost"
                        + " (the container target uses the host network)");
            }
            return Optional.of(NO_DOCKER + " (" + e + ")");
        }
    }

    @Override
    public RunningTarget start(ServerBuild build, TargetContext context) throws IOException {
        Optional<String> unavailable = dockerUnavailableReason();
        if (unavailable.isPresent()) {
            throw new IOException(unavailable.get());
        }
        ServerImages.ServerImage image = ServerImages.serverImage();
        Files.createDirectories(context.workDir());
        ContainerLimits limits = ContainerLimits.of(context.cores(), context.memoryBytes(), build.targetSettings(), Runtime.getRuntime().availableProcessors());
        if (limits.capped()) {
            System.getLogger(ContainerTarget.class.getName()).log(System.Logger.Level.WARNING, "server '" + build.name()
                    + "': the hardware assumptions ask for " + context.cores() + " cores; this machine has "
                    + limits.cpus() + ", so the container is limited to " + limits.cpus());
        }
        List<String> originCommand = command(image, List.of(), ORIGIN_MAIN, List.of("--port", "0"));
        List<String> cacheArguments = new ArrayList<>();
        if (!build.engine().equals(ServerBuild.NO_CACHE)) {
            Files.createDirectories(context.storeDir());
            cacheArguments.addAll(List.of("--port", "0", "--admin-port", "0", "--engine", build.engine()));
            for (Map.Entry<String, String> setting : EdgeLabBuilds.storeSettings(build, context.storeDir()).entrySet()) {
                cacheArguments.addAll(List.of("-o", setting.getKey() + "=" + setting.getValue()));
            }
        }
        String javaOptions = build.targetSettings().getOrDefault(JAVA_OPTIONS, DEFAULT_JAVA_OPTIONS).trim();
        List<String> cacheJvmFlags = javaOptions.isEmpty() ? List.of() : List.of(javaOptions.split("\\s+"));
        return ServerContainers.start(image.name(), originCommand,
                build.engine().equals(ServerBuild.NO_CACHE) ? null : command(image, cacheJvmFlags, CACHE_MAIN, cacheArguments),
                limits, context);
    }

    /** The container's command: the image's entry point is {@code java}, so JVM flags, class path, main class, arguments. */
    static List<String> command(ServerImages.ServerImage image, List<String> jvmFlags, String mainClass, List<String> arguments) {
        // the runner's own --add-opens (lmdbjava's access to NIO internals), defined once in the root pom
        List<String> command = new ArrayList<>(JvmCommand.inheritedModuleFlags());
        command.addAll(JvmCommand.inheritedLoggingFlags()); // the runner's --log-level reaches the servers in containers too
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", image.classPath(), mainClass));
        command.addAll(arguments);
        return command;
    }
}
