package org.edgelab.experiments.target;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.edgelab.cache.cli.ServeCommand;
import org.edgelab.experiments.process.Executables;
import org.edgelab.experiments.process.LoopbackPorts;
import org.edgelab.experiments.process.ManagedProcess;
import org.edgelab.experiments.process.ProcessCpu;
import org.edgelab.origin.cli.OriginCommand;
import org.edgelab.origin.fault.FaultRules;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.units.ByteSize;
import org.edgelab.units.Durations;

/**
 * The {@code process} target: the synthetic origin and the cache each in a JVM of its own
 * ({@link OriginCommand} and {@link ServeCommand} on this JVM's class path), on ephemeral loopback ports
 * (the origin's chosen before it starts, so that both JVMs start at once; the cache's read from the lines it
 * prints), optionally pinned to CPUs with {@code taskset}. A cell is handed out once both listen. Counters come
 * from the cache's admin {@code /stats} (the origin's {@code /_stats} for the {@code none} baseline); CPU is the
 * cache JVM's process tree from {@code /proc} (the origin JVM's for {@code none}), so the load generator
 * is not counted. Logs go to the cell's work folder. Immutable and thread-safe; {@link #start} blocks until the
 * servers listen.
 *
 * <p>target_settings: {@code cpus} (e.g. {@code 1} or {@code 0-1}: the cache JVM's CPUs), {@code origin_cpus}
 * (the origin JVM's), {@code heap} (the cache JVM's -Xmx, default 2g or, for a larger memory tier, its capacity
 * plus 384 MiB; it also bounds direct memory, where the memory engine keeps objects), {@code io_threads} (the cache's event loops, default one per core),
 * {@code origin_faults} (fault rules the origin applies to every response, its {@code --faults}, e.g.
 * {@code first-byte-delay=20ms}: with the {@code none} baseline, a server whose answer time is known, so that
 * any two clients make the same load), {@code memory} and {@code memory_fallback} ({@link ServerMemory}: the cache
 * JVM, or the origin JVM for {@code none}, runs in the cell's memory cgroup, which it joins before the JVM starts).
 */
public final class ProcessTarget implements Target {

    /** The cache JVM's heap when {@code heap} is not set. */
    static final String DEFAULT_HEAP = "2g";
    /** The target settings this target understands. */
    static final List<Setting> SETTINGS = withMemory(
            new Setting("cpus", null, "the cache JVM's CPUs, a taskset -c list such as 1 or 0-1"),
            new Setting("origin_cpus", null, "the origin JVM's CPUs"),
            new Setting("heap", DEFAULT_HEAP, "the cache JVM's -Xmx (it also bounds direct memory, where the memory engine keeps objects)"),
            new Setting("io_threads", "0", "the cache's event loops (0: one per core)"),
            EdgeLabBuilds.STORE_WRITE_SHED_AFTER,
            new Setting("origin_faults", null, "fault rules the origin applies to every response, e.g. first-byte-delay=20ms"));

    private static List<Setting> withMemory(Setting... own) {
        List<Setting> all = new ArrayList<>(List.of(own));
        all.addAll(ServerMemory.SETTINGS);
        return List.copyOf(all);
    }

    /** The origin JVM's heap (it holds no objects: synthetic bodies are generated as they are sent). */
    public static final long ORIGIN_HEAP = 512L << 20;
    /** Heap and direct memory the cache needs beyond its memory tier (Netty buffers, index, JIT). */
    static final long HEADROOM = 128L << 20;

    private static final Pattern CPU_LIST = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");
    /** The origin JVM's line once it listens; group 1 is its port. */
    public static final Pattern ORIGIN_LINE = Pattern.compile("edgelab origin on http://[0-9.]+:(\\d+)");
    /** The cache JVM's line once it listens; group 1 is its port. */
    public static final Pattern CACHE_LINE = Pattern.compile("edgelab cache on http://[0-9.]+:(\\d+) ");
    /** The cache JVM's line once its admin port listens; group 1 is that port. */
    public static final Pattern ADMIN_LINE = Pattern.compile("admin on http://127\\.0\\.0\\.1:(\\d+)/stats");

    private static final System.Logger LOG = System.getLogger(ProcessTarget.class.getName());
    /** What the origin's log says when its port was taken before it bound it. */
    private static final Pattern ADDRESS_IN_USE = Pattern.compile("(?i)address already in use");

    /** Chooses the loopback port the origin will listen on, before it starts. */
    @FunctionalInterface
    interface PortPicker {
        /** A port that was free a moment ago. */
        int pick() throws IOException;
    }

    private final PortPicker originPorts;

    /** The target, choosing each origin's port with {@link LoopbackPorts#free()}. */
    public ProcessTarget() {
        this(LoopbackPorts::free);
    }

    /** The target, choosing each origin's port with {@code originPorts} (tests hand out one that is taken). */
    ProcessTarget(PortPicker originPorts) {
        this.originPorts = originPorts;
    }

    @Override
    public String name() {
        return "process";
    }

    @Override
    public String description() {
        return "origin and cache each in its own JVM on loopback, optionally pinned to CPUs"
                + " (target_settings: cpus, origin_cpus, heap, io_threads, origin_faults)";
    }

    @Override
    public List<Setting> settings() {
        return SETTINGS;
    }

    @Override
    public void validate(ServerBuild build) {
        Map<String, String> ts = build.targetSettings();
        TargetSettings.requireOnly(name(), ts, SETTINGS);
        for (String key : List.of("cpus", "origin_cpus")) {
            TargetSettings.get(ts, key).ifPresent(list -> {
                if (!CPU_LIST.matcher(list).matches()) {
                    throw new BuildValidationException("target_settings", key + " is a CPU list for taskset -c such as 1, 0-1 or 0,2; got '"
                            + list + "'");
                }
            });
        }
        TargetSettings.get(ts, "io_threads").ifPresent(v -> {
            if (!v.matches("\\d{1,4}")) {
                throw new BuildValidationException("target_settings", "io_threads is a number of event-loop threads (0: one per core), got '"
                        + v + "'");
            }
        });
        EdgeLabBuilds.storeWriteShedAfter(build);
        TargetSettings.get(ts, "origin_faults").ifPresent(rules -> {
            try {
                FaultRules.parse(rules);
            } catch (IllegalArgumentException e) {
                throw new BuildValidationException("target_settings", "origin_faults: " + e.getMessage());
            }
        });
        ServerMemory.validate(ts);
        long heap = heapBytes(build);
        ServerMemory.limit(build, 0).ifPresent(limit -> {
            if (!build.engine().equals(ServerBuild.NO_CACHE) && limit < heap + HEADROOM) {
                throw new BuildValidationException("target_settings", "memory " + ByteSize.format(limit) + " must exceed the cache JVM's"
                        + " heap (" + ByteSize.format(heap) + ") by at least " + ByteSize.format(HEADROOM)
                        + ", or the kernel kills the JVM when its heap grows; set target_settings heap below it");
            }
        });
        EdgeLabBuilds.validate(build);
        requireHeapFits(build, heap, "target_settings");
    }

    /**
     * Throws {@link BuildValidationException} on {@code field} when a cache JVM of {@code build} with {@code heap} bytes
     * of heap (which also bounds direct memory) cannot hold its engine's memory tier and {@link #HEADROOM}.
     */
    public static void requireHeapFits(ServerBuild build, long heap, String field) {
        memoryTier(build).ifPresent(memory -> {
            if (memory + HEADROOM > heap) {
                throw new BuildValidationException(field, "the cache JVM's heap (" + ByteSize.format(heap)
                        + ", which also bounds the direct memory the memory tier lives in) must exceed the memory capacity ("
                        + ByteSize.format(memory) + ") by at least " + ByteSize.format(HEADROOM) + "; set target_settings heap, e.g. heap: "
                        + ((memory + HEADROOM + (1L << 30) - 1) >> 30) + "g");
            }
        });
    }

    private static long heapBytes(ServerBuild build) {
        Optional<String> set = TargetSettings.get(build.targetSettings(), "heap");
        if (set.isEmpty()) {
            // Unset: the default, or enough for the memory tier (direct memory is bounded by the heap) and its headroom.
            long fallback = ByteSize.parse(DEFAULT_HEAP);
            return Math.max(fallback, memoryTier(build).map(m -> roundUpToMiB(m + HEADROOM + (256L << 20))).orElse(fallback));
        }
        String heap = set.get();
        long bytes;
        try {
            bytes = ByteSize.parse(heap);
        } catch (IllegalArgumentException e) {
            throw new BuildValidationException("target_settings", "heap: " + e.getMessage());
        }
        if (bytes < (64L << 20)) {
            throw new BuildValidationException("target_settings", "heap " + heap + " is too small for the cache JVM; at least 64m");
        }
        return bytes;
    }

    private static long roundUpToMiB(long bytes) {
        return (bytes + (1L << 20) - 1) & -(1L << 20);
    }

    /** Bytes of memory the build's engine keeps objects in, for the engines that do (memory, tiered). */
    private static Optional<Long> memoryTier(ServerBuild build) {
        String key = switch (build.engine()) {
            case "memory" -> "capacity";
            case "tiered" -> "memory-capacity";
            default -> null;
        };
        if (key == null || !StorageEngines.names().contains(build.engine())) {
            return Optional.empty();
        }
        String value = build.settings().get(key);
        if (value == null) {
            value = StorageEngines.get(build.engine()).settings().stream().filter(s -> s.name().equals(key))
                    .map(Setting::defaultValue).findFirst().orElse(null);
        }
        try {
            return value == null ? Optional.empty() : Optional.of(ByteSize.parse(value));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // the engine's own validation names the bad value
        }
    }

    @Override
    public Optional<String> unavailableReason(ServerBuild build) {
        Optional<String> engine = EdgeLabBuilds.unavailableReason(build);
        if (engine.isPresent()) {
            return engine;
        }
        if (!ProcessCpu.available()) {
            return Optional.of("/proc/<pid>/stat is not readable: the process target measures the servers' CPU time there (Linux only)");
        }
        boolean pinned = build.targetSettings().containsKey("cpus") || build.targetSettings().containsKey("origin_cpus");
        if (pinned && Executables.find("taskset").isEmpty()) {
            return Optional.of("taskset not found: apt-get install util-linux");
        }
        return Optional.empty();
    }

    @Override
    public boolean runsServerInCgroup() {
        return true;
    }

    @Override
    public boolean listensOnAnyAddress() {
        return true;
    }

    @Override
    public RunningTarget start(ServerBuild build, TargetContext context) throws IOException {
        try {
            if (build.engine().equals(ServerBuild.NO_CACHE)) {
                return startOrigin(build, context);
            }
            for (int attempt = 1; ; attempt++) {
                Running running = startOriginAndCache(build, context, attempt);
                if (running != null) {
                    return running;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting " + build.name() + " on the process target", e);
        }
    }

    /** Without a cache: the origin is the server clients reach, on the listen address, in the cell's cgroup. */
    private static Running startOrigin(ServerBuild build, TargetContext context) throws IOException, InterruptedException {
        ManagedProcess origin = ManagedProcess.start("origin", context.serverCommand(originCommand(build, context.listenHost(), 0)),
                context.workDir());
        try {
            int port = Integer.parseInt(origin.awaitLogLine(ORIGIN_LINE, context.startTimeout()));
            URI uri = URI.create("http://" + context.listenHost() + ":" + port);
            return new Running(uri, origin, null, new ServerStatsReader(uri.resolve("/_stats")), List.of(origin));
        } catch (IOException | RuntimeException | InterruptedException e) {
            origin.close();
            throw e;
        }
    }

    /**
     * Starts the origin (on loopback, on a port chosen here) and the cache at the same time: the cache needs nothing from
     * the running origin but its address, and each JVM's start is the slow part. The cell is handed out only once both
     * listen. Returns null, having stopped both, when the origin found its port taken by then and this was attempt 1.
     */
    private Running startOriginAndCache(ServerBuild build, TargetContext context, int attempt) throws IOException, InterruptedException {
        // picked on this thread, so in the namespace the servers start in (behind a kernel link, the server side's)
        int originPort = originPorts.pick();
        URI originUri = URI.create("http://127.0.0.1:" + originPort);
        List<ManagedProcess> started = new ArrayList<>();
        ManagedProcess origin = null;
        try {
            origin = ManagedProcess.start("origin", originCommand(build, "127.0.0.1", originPort), context.workDir());
            started.add(origin);
            Files.createDirectories(context.storeDir());
            ManagedProcess cache = ManagedProcess.start("cache", cacheCommand(build, context, originUri, 0, 0), context.workDir());
            started.add(cache);
            origin.awaitLogLine(ORIGIN_LINE, context.startTimeout(), List.of(cache));
            int port = Integer.parseInt(cache.awaitLogLine(CACHE_LINE, context.startTimeout(), List.of(origin)));
            int adminPort = Integer.parseInt(cache.awaitLogLine(ADMIN_LINE, context.startTimeout(), List.of(origin)));
            Running running = new Running(URI.create("http://" + context.listenHost() + ":" + port), origin, cache,
                    new ServerStatsReader(URI.create("http://127.0.0.1:" + adminPort + "/stats")), started);
            running.restartWith(cacheCommand(build, context, originUri, port, adminPort), context,
                    new ServerStatsReader(originUri.resolve("/_stats")));
            return running;
        } catch (IOException | RuntimeException | InterruptedException e) {
            ManagedProcess.closeAll(started);
            if (attempt == 1 && e instanceof IOException && origin != null && ADDRESS_IN_USE.matcher(origin.tail(50)).find()) {
                Path kept = origin.keepLog("port-taken-" + attempt);
                LOG.log(System.Logger.Level.WARNING, "the origin of {0} found port {1} taken by another process before it"
                        + " bound it; starting the cell once more on another (its log is kept in {2})", build.name(),
                        String.valueOf(originPort), kept);
                return null;
            }
            throw e;
        }
    }

    /** The origin JVM's command, listening on {@code host} and {@code port} (0: any free one). */
    private static List<String> originCommand(ServerBuild build, String host, int port) {
        Map<String, String> ts = build.targetSettings();
        List<String> args = new ArrayList<>(List.of("--bind", host, "--port", String.valueOf(port)));
        TargetSettings.get(ts, "origin_faults").ifPresent(rules -> args.addAll(List.of("--faults", rules)));
        return JvmCommand.forMain(OriginCommand.class.getName(), ORIGIN_HEAP, TargetSettings.get(ts, "origin_cpus"), args);
    }

    /** The cache JVM's command: on {@code port} and {@code adminPort} (0: any free one), in the cell's cgroup. */
    private static List<String> cacheCommand(ServerBuild build, TargetContext context, URI originUri, int port, int adminPort) {
        Map<String, String> ts = build.targetSettings();
        List<String> args = new ArrayList<>(List.of("--bind", context.listenHost(), "--port", String.valueOf(port),
                "--admin-port", String.valueOf(adminPort), "--origin", originUri.toString(), "--engine", build.engine(),
                "--io-threads", TargetSettings.get(ts, "io_threads").orElse("0"),
                "--store-write-shed-after", Durations.format(EdgeLabBuilds.storeWriteShedAfter(build))));
        EdgeLabBuilds.storeSettings(build, context.storeDir()).forEach((k, v) -> {
            args.add("-o");
            args.add(k + "=" + v);
        });
        return context.serverCommand(JvmCommand.forMain(ServeCommand.class.getName(), heapBytes(build), TargetSettings.get(ts, "cpus"), args));
    }

    /**
     * The two JVMs of one cell. Counters and CPU are read over HTTP and from {@code /proc}: thread-safe. The cache JVM
     * can be killed and started again on its ports ({@link #restart()}); the origin JVM keeps running.
     */
    private static final class Running implements RunningTarget {
        private final URI clientUri;
        private final String cpuMethod;
        private final ServerStatsReader stats;
        private final List<ManagedProcess> processes;
        private final boolean cacheProcess;
        private final AtomicBoolean closed = new AtomicBoolean();
        private volatile ManagedProcess server;
        private volatile ServerRestart restart;

        Running(URI clientUri, ManagedProcess origin, ManagedProcess cache, ServerStatsReader stats, List<ManagedProcess> processes) {
            this.clientUri = clientUri;
                        this.server = cache == null ? origin : cache;
            this.cpuMethod = (cache == null ? "process: origin JVM (no cache), " : "process: cache JVM, ") + ProcessCpu.METHOD;
            this.stats = stats;
            this.processes = new java.util.concurrent.CopyOnWriteArrayList<>(processes);
            this.cacheProcess = cache != null;
        }

        /** Lets the cache JVM be restarted with {@code command} (its ports fixed); the origin's counters from {@code origin}. */
        void restartWith(List<String> command, TargetContext context, ServerStatsReader origin) {
            if (!cacheProcess) {
                return;
            }
            int[] starts = {0};
            this.restart = new ServerRestart() {
                @Override
                public synchronized void kill() throws IOException, InterruptedException {
                    server.kill();
                }

                @Override
                public synchronized void start() throws IOException, InterruptedException {
                    if (closed.get()) {
                        throw new IOException("the cell's target is closed");
                    }
                    ManagedProcess old = server;
                    if (old.alive()) {
                        throw new IOException("the cache JVM (pid " + old.pid() + ") is still running: kill it first");
                    }
                    ManagedProcess fresh = ManagedProcess.start("cache-restart-" + (++starts[0]), command, context.workDir());
                    processes.add(fresh);
                    server = fresh;
                    processes.remove(old);
                    old.close();
                    fresh.awaitLogLine(CACHE_LINE, context.startTimeout());
                }

                @Override
                public long originBytesSent() throws IOException {
                    return origin.read().bytesToClients();
                }
            };
        }

        @Override
        public Optional<ServerRestart> restart() {
            return Optional.ofNullable(restart);
        }

        @Override
        public URI clientUri() {
            return clientUri;
        }

        @Override
        public ServerCounters counters() throws IOException {
            requireAlive();
            return stats.read();
        }

        @Override
        public Optional<JsonNode> cacheStats() throws IOException {
            requireAlive();
            return cacheProcess ? Optional.of(stats.readJson()) : Optional.empty();
        }

        @Override
        public Optional<Long> serverPid() {
            return Optional.of(server.pid());
        }

        @Override
        public CpuSample cpu() throws IOException {
            requireAlive();
            return new CpuSample(server.cpuSeconds(), cpuMethod);
        }

        private void requireAlive() throws IOException {
            for (ManagedProcess p : processes) {
                if (!p.alive()) {
                    throw new IOException("a server JVM of this cell exited with status " + p.exitStatus().orElse(-1)
                            + "; last lines of " + p.log() + ":\n" + p.tail(20));
                }
            }
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                ManagedProcess.closeAll(new ArrayList<>(processes));
            }
        }
    }
}
