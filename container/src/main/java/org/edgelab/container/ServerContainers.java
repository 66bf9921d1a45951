package org.edgelab.container;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.edgelab.experiments.process.ProcessCpu;
import org.edgelab.experiments.target.CpuSample;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.ServerStatsReader;
import org.edgelab.experiments.target.TargetContext;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.utility.DockerImageName;

/**
 * The origin container and (unless the build has no cache) the cache container of one cell, started
 * in that order on the host network; each one's output goes to {@code <workDir>/<name>.log}.
 * {@link #close()} stops and removes both (idempotent, also after a failed start). Thread-safe for
 * {@link #counters()} and {@link #cpu()}.
 */
final class ServerContainers implements RunningTarget {

    /** How CPU figures of this target are measured. */
    static final String CPU_METHOD = "container: docker inspect State.Pid of the cache container, then " + ProcessCpu.METHOD
            + " (cache server only; the origin container is not counted)";
    static final String CPU_METHOD_NO_CACHE = "container: docker inspect State.Pid of the origin container, then " + ProcessCpu.METHOD;
    static final Pattern ORIGIN_LINE = Pattern.compile("edgelab origin on http://127\\.0\\.0\\.1:(\\d+)");
    static final Pattern CACHE_LINE = Pattern.compile("edgelab cache on http://127\\.0\\.0\\.1:(\\d+)");
    static final Pattern ADMIN_LINE = Pattern.compile("admin on http://127\\.0\\.0\\.1:(\\d+)/stats");

    private final List<Started> started = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile URI clientUri;
    private volatile URI statsUri;
    private volatile long measuredPid;
    private volatile boolean cached;

    private ServerContainers() {
    }

    /** A started container, its log file and the port it printed. */
    private record Started(String name, GenericContainer<?> container, LogFile log) {
    }

    /**
     * Starts the origin, then the cache with {@code --origin} appended to {@code cacheCommand} (null: no
     * cache, clients go to the origin), and returns once the last one printed where it listens.
     */
    static ServerContainers start(String image, List<String> originCommand, List<String> cacheCommand, ContainerLimits limits,
                                  TargetContext context) throws IOException {
        ServerContainers running = new ServerContainers();
        try {
            Started origin = running.run("origin", image, originCommand, context, null, hostConfig -> { });
            int originPort = Integer.parseInt(running.awaitLine(origin, ORIGIN_LINE, context.startTimeout()));
            URI originUri = URI.create("http://127.0.0.1:" + originPort);
            if (cacheCommand == null) {
                running.clientUri = originUri;
                running.statsUri = originUri.resolve("/_stats");
                running.measuredPid = pid(origin);
                return running;
            }
            List<String> command = new ArrayList<>(cacheCommand);
            command.addAll(List.of("--origin", originUri.toString()));
            Path store = context.storeDir().toAbsolutePath();
            Started cache = running.run("cache", image, command, context, store, hostConfig -> {
                if (limits.nanoCpus() > 0) {
                    hostConfig.withNanoCPUs(limits.nanoCpus());
                }
                if (limits.memoryBytes() > 0) {
                    hostConfig.withMemory(limits.memoryBytes()).withMemorySwap(limits.memoryBytes());
                }
            });
            int cachePort = Integer.parseInt(running.awaitLine(cache, CACHE_LINE, context.startTimeout()));
            int adminPort = Integer.parseInt(running.awaitLine(cache, ADMIN_LINE, context.startTimeout()));
            running.clientUri = URI.create("http://127.0.0.1:" + cachePort);
            running.statsUri = URI.create("http://127.0.0.1:" + adminPort + "/stats");
            running.measuredPid = pid(cache);
            running.cached = true;
            return running;
        } catch (IOException | RuntimeException e) {
            running.close();
            throw e;
        }
    }

    /** Starts a container on the host network, {@code bind} (if not null) mounted at the same path. */
    private Started run(String name, String image, List<String> command, TargetContext context, Path bind,
                        Consumer<HostConfig> limits) throws IOException {
        LogFile log = new LogFile(context.workDir().resolve(name + ".log"));
        @SuppressWarnings("resource") // closed in close()
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
                .withNetworkMode("host")
                .withCommand(command.toArray(String[]::new))
                .withTmpFs(Map.of("/tmp", "rw,exec,mode=1777"))
                .withLogConsumer(log)
                .withStartupTimeout(context.startTimeout())
                .waitingFor(new Immediately())
                .withCreateContainerCmdModifier(cmd -> {
                    cmd.withName("edgelab-" + name + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
                    runnerUser().ifPresent(cmd::withUser);
                    limits.accept(cmd.getHostConfig());
                    if (bind != null) {
                        // set on the create command itself: Testcontainers' withFileSystemBind first checks that
                        // mounting works by running an alpine image, which cannot be pulled here
                        cmd.getHostConfig().withBinds(new Bind(bind.toString(), new Volume(bind.toString()), AccessMode.rw));
                    }
                });
        Started started = new Started(name, container, log);
        this.started.add(started);
        startContainer(started);
        return started;
    }

    private void startContainer(Started s) throws IOException {
        try {
            s.container().start();
        } catch (RuntimeException e) {
            throw new IOException(s.name() + " container did not start: " + e.getMessage() + "; last lines of " + s.log().path()
                    + ":\n" + s.log().tail(20), e);
        }
    }

    /** Waits for a line matching {@code pattern} in the container's output and returns its first group. */
    private String awaitLine(Started s, Pattern pattern, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Matcher m = pattern.matcher(s.container().getLogs());
            if (m.find()) {
                return m.group(1);
            }
            if (!s.container().isRunning()) {
                throw new IOException(s.name() + " container exited before it printed a line matching /" + pattern + "/; last lines of "
                        + s.log().path() + ":\n" + s.log().tail(20));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(s.name() + " container did not print a line matching /" + pattern + "/ within "
                        + timeout.toSeconds() + " s; last lines of " + s.log().path() + ":\n" + s.log().tail(20));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the " + s.name() + " container", e);
            }
        }
    }

    private static long pid(Started s) {
        Long pid = s.container().getContainerInfo().getState().getPidLong();
        return pid == null ? -1 : pid;
    }

    /** {@code uid:gid} of this process, so files the containers write in the store are the runner's. */
    private static Optional<String> runnerUser() {
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            Object gid = Files.getAttribute(Path.of("/proc/self"), "unix:gid");
            return Optional.of(uid + ":" + gid);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public URI clientUri() {
        return clientUri;
    }

    @Override
    public ServerCounters counters() throws IOException {
        return new ServerStatsReader(statsUri).read();
    }

    @Override
    public CpuSample cpu() throws IOException {
        String method = cached ? CPU_METHOD : CPU_METHOD_NO_CACHE;
        if (!visibleInProc(measuredPid)) {
            // the container's processes are not in this JVM's PID namespace (Docker on another host, in a VM,
            // or this JVM in a container of its own): the pid Docker gives is not theirs here
            return new CpuSample(Double.NaN, "container: State.Pid not visible in this /proc (Docker in another PID namespace);"
                    + " not measured");
        }
        return new CpuSample(ProcessCpu.treeSeconds(measuredPid), method);
    }

    /** Whether {@code /proc/<pid>} here is the container's JVM (same PID namespace as Docker's daemon). */
    private static boolean visibleInProc(long pid) {
        if (pid <= 0 || !ProcessCpu.available()) {
            return false;
        }
        try {
            byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return new String(cmdline, java.nio.charset.StandardCharsets.UTF_8).startsWith(JavaRuntimeImage.JAVA_HOME_IN_IMAGE + "/bin/java");
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (int i = started.size() - 1; i >= 0; i--) {
            Started s = started.get(i);
            try {
                s.container().stop();
            } catch (RuntimeException e) {
                System.getLogger(ServerContainers.class.getName()).log(System.Logger.Level.WARNING,
                        "could not remove the " + s.name() + " container: " + e.getMessage());
            } finally {
                s.log().close();
            }
        }
    }

    /** A wait strategy that returns at once: readiness is a log line, checked by {@link #awaitLine}. */
    private static final class Immediately extends AbstractWaitStrategy {
        @Override
        protected void waitUntilReady() {
            // nothing: the caller waits for the port line itself
        }
    }

    /** Appends a container's output to a file; frames arrive on Docker's callback thread. Thread-safe. */
    private static final class LogFile implements Consumer<OutputFrame> {
        private final Path path;
        private final OutputStream out;

        LogFile(Path path) throws IOException {
            this.path = path;
            this.out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }

        Path path() {
            return path;
        }

        @Override
        public synchronized void accept(OutputFrame frame) {
            byte[] bytes = frame.getBytes();
            if (bytes == null) {
                return;
            }
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                // the cell is ending and the file was closed: the rest of the output is dropped
            }
        }

        String tail(int lines) {
            try {
                List<String> all = Files.readAllLines(path);
                return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
            } catch (IOException | java.io.UncheckedIOException e) {
                return "(log unreadable: " + e.getMessage() + ")";
            }
        }

        synchronized void close() {
            try {
                out.close();
            } catch (IOException e) {
                // nothing more to write
            }
        }
    }
}
