package org.edgelab.experiments.runner;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.edgelab.cache.server.CacheServer;
import org.edgelab.experiments.client.ClientResult;
import org.edgelab.experiments.client.ClientRun;
import org.edgelab.experiments.client.LoadClient;
import org.edgelab.experiments.client.LoadClients;
import org.edgelab.experiments.client.LoadgenClient;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.Settle;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.matrix.MatrixExpander;
import org.edgelab.experiments.power.PowerMeter;
import org.edgelab.experiments.power.PowerReading;
import org.edgelab.experiments.target.CpuSample;
import org.edgelab.experiments.target.EmbeddedTarget;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.CellLoad;
import org.edgelab.loadgen.workload.MeasuredOnly;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.Targets;
import org.edgelab.experiments.workload.WorkloadPlugin;
import org.edgelab.experiments.workload.WorkloadPlugins;
import org.edgelab.experiments.workload.WorkloadRequest;
import org.edgelab.link.LinkSampler;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.StopSignal;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.units.Durations;
import org.edgelab.units.SignificantFigures;

/**
 * Runs a {@code matrix} experiment: for each cell, starts the build's target (origin, store and cache),
 * builds the cell's requests with the descriptor's workload plugin, warms the cache with its warm-up
 * pass (with loadgen), runs the cell's load client ({@code loadgen}, {@code wrk}, ...) once per repetition,
 * collects the server's counters and CPU time, gets
 * the power from the hardware profile's power model (modelled or measured) and writes one tidy row per
 * repetition.
 *
 * <p>Results go to {@code <root>/<experiment>/<yyyyMMdd-HHmmss>/}: {@code manifest.json},
 * {@code descriptor.yaml}, {@code results.csv} and {@code hlog/<cell>-r<rep>.hlog} (TTLB; TTFB in
 * {@code .ttfb.hlog}, where the client measures it), {@code series.csv} (the measured runs per second, {@link SeriesCsv},
 * where the client reports intervals: loadgen); an outside client's script and log stay in
 * {@code targets/<cell>/}. A cell's rows are appended only once all its repetitions have finished, and the
 * manifest says {@code partial} until the last cell is done, so an interrupted run (Ctrl-C, via a
 * shutdown hook) is consistent and can be resumed.
 *
 * <p>Hit-ratio method of the default {@code objects} workload: before each repetition, one unmeasured pass
 * fetches every object of the set (working set / object size objects, at most max_objects) through the
 * cache; during the measured run, each request goes to a never-seen object with probability 1 - target and
 * to the set otherwise, so a cache that holds the set reaches the target. The achieved ratio is measured,
 * by the client from {@code X-Cache} and by the server's counters.
 *
 * <p>Not thread-safe: one run per instance at a time; runs are independent.
 */
public final class ExperimentRunner {

    private static final Duration TARGET_START_TIMEOUT = Duration.ofSeconds(60);

    private final Descriptor descriptor;
    private final RunOptions options;
    private final List<Cell> cells;
    private final Path directory;
    private final Path storeRoot;
    private final Manifest manifest;
    private final Progress progress;
    private final WorkloadPlugin workloadKind;
    private final PluginSettings workloadSettings;
    private final PowerMeter power;

    private ExperimentRunner(Descriptor descriptor, RunOptions options, Path directory) {
        this.descriptor = descriptor;
        this.options = options;
        this.cells = MatrixExpander.expand(descriptor);
        this.directory = directory;
        this.storeRoot = options.storeRoot() != null ? options.storeRoot() : directory.resolve("stores");
        this.workloadKind = WorkloadPlugins.get(descriptor.load().workloadKind());
        this.workloadSettings = PluginSettings.of(descriptor.load().workloadSettings());
        this.power = descriptor.hardware().powerMeter();
        Map<String, String> methods = new LinkedHashMap<>();
        methods.put("workload", workloadKind.name() + ": " + workloadKind.description());
        methods.put("hit_ratio", workloadKind.method());
        Settle settle = descriptor.load().settle();
        methods.put("measurement", settle.isNone()
                ? "each repetition is measured from its first request, right after the cache warm-up"
                : "each repetition is measured after " + settle.describe() + " (load.settle), right after the cache warm-up"
                        + (settle.auto() ? "; loadgen sends it whatever the cell's client, each window its own count of"
                        + " completions; settle_s is how long it ran, settle_max_reached true when req/s was not steady (or a JVM"
                        + " still compiling) by"
                        + " the maximum, settle_spread the spread of its last windows, settle_jit_ms_per_s the cache JVM's JIT"
                        + " compile time per second over them (cells[].settle: every window's req/s)"
                        : "; settle_s is how long it ran"));
        methods.put("req_per_s_interval", "req_per_s_windows and req_per_s_window_sd: the count and standard deviation of"
                + " the req/s of the measured run's 1 s windows, where the client reports them (loadgen; not wrk); the"
                + " comparison table's '" + ComparisonTable.INTERVAL_HEADER + "' pools a cell's windows over its repetitions and"
                + " gives the half-width of the " + Math.round(WindowStats.CONFIDENCE * 100) + " % confidence interval of its"
                + " mean req/s (Student's t), each window a sample as JMH takes each iteration: it understates the"
                + " uncertainty when successive windows are correlated (a run still drifting)");
        methods.put("cpu", Manifest.CPU_NOTE);
        methods.put("jit", "server_jit_ms: the JIT compile time of EdgeLab's cache JVM over the measured run, from its /stats"
                + " gauge " + CacheServer.JIT_GAUGE + " (HotSpot's CompilationMXBean) read before and after it; well above 0, the"
                + " run measured a JVM still warming up. Embedded: the runner's own JVM, loadgen's compiling included. Empty"
                + " for the peers and the no-cache origin");
        methods.put("power", power.method());
        methods.put("latency", "ttfb/ttlb percentiles from the load client's histograms (clients: how each measures),"
                + " nanoseconds from each request's intended start, written in ms");
        methods.put("clients", descriptor.load().clients().stream()
                .map(c -> (c.name().equals(c.kind()) ? "" : c.name() + " = ") + LoadClients.get(c.kind()).method())
                .collect(Collectors.joining("; ")) + "; the cache warm-up before each repetition is always loadgen's");
        methods.put("link", "link_emulation kernel: client and server in network namespaces EdgeLab makes and removes, joined"
                + " through a hub by veth pairs, each direction shaped by tbf at the sender (one cap shared by every"
                + " connection) and delayed by a TUN delay line, so TCP sees the round trip; every load client runs in the"
                + " client namespace; user-space: loadgen shapes its own sockets (the delay is above TCP); none: no link."
                + " link_rtt_ms is the median of the kernel's round-trip estimates (ss -ti after the handshake) of "
                + CellLink.PROBE_SAMPLES + " TCP connections across the idle link when the"
                + " cell starts (kernel only); link_down_bps/link_up_bps are the rates the shapers sent at while the measured"
                + " run kept the link busy (headers included; their counters read every " + LinkSampler.PERIOD.toMillis()
                + " ms, an interval busy when it carried at least " + Math.round(LinkSampler.BUSY_SHARE * 100)
                + " % of the cap towards the client); link_late_mean_ms/link_late_max_ms say how far past its delay the delay line sent packets");
        if (descriptor.servers().stream().anyMatch(ServerBuild::hasTopology)) {
            methods.put("tiers", TierColumns.METHOD);
        }
        methods.put("throughput", "throughput_bps and goodput_bps are bits per second; bytes counts all bytes received");
        methods.put("memory", Manifest.MEMORY_NOTE);
        methods.put("io", Manifest.IO_NOTE);
        methods.put("page_cache", Manifest.PAGE_CACHE_NOTE);
        this.manifest = new Manifest(directory.resolve("manifest.json"), descriptor, cells, methods);
        this.progress = new Progress(options.progress(), cells.size(), descriptor.repetitions(),
                descriptor.load().duration().plus(settle.length()));
    }

    /** Runs every cell not already finished and returns what the run folder holds. */
    public static RunResult run(Descriptor descriptor, RunOptions options) throws IOException {
        Path directory = RunFolders.open(descriptor, options);
        return new ExperimentRunner(descriptor, options, directory).runAll();
    }

    private RunResult runAll() throws IOException {
        Files.createDirectories(directory.resolve("hlog"));
        Path csv = directory.resolve("results.csv");
        Set<String> finished = RunFolders.begin(directory, descriptor);
        int resumed = (int) cells.stream().filter(c -> finished.contains(c.id())).count();
        manifest.start(finished, options.resume() != null);
        descriptor.notes().forEach(note -> progress.note(note));

        CellLoop.Outcome outcome;
        try {
            outcome = CellLoop.run(cells, finished, manifest, directory, progress::note,
                    cell -> {
                        List<ResultRow> rows = runCell(cell);
                        ResultsCsv.append(csv, ResultsCsv.columns(ResultsCsv.COLUMNS, rows), rows);
                    });
        } finally {
            progress.close();
        }
        boolean complete = outcome.complete();
        int ran = outcome.ran();
        List<String> notes = new ArrayList<>(descriptor.notes());
        notes.add("cpu: " + Manifest.CPU_NOTE);
        notes.add("power: " + power.method());
        return new RunResult(directory, complete ? "complete" : "partial", cells.size(), ran, resumed,
                ResultsCsv.read(csv), notes);
    }

    private List<ResultRow> runCell(Cell cell) throws IOException, InterruptedException {
        Path storeDir = storeRoot.resolve(cell.fileName());
        Path workDir = directory.resolve("targets").resolve(cell.fileName());
        Files.createDirectories(workDir);
        Target target = Targets.get(cell.server().target());
        if (target.rendersOnly(cell.server())) {
            return renderCell(target, cell, storeDir, workDir);
        }
        List<ResultRow> rows = new ArrayList<>();
        SeriesCsv.Recorder series = new SeriesCsv.Recorder(cell.id());
        try (CellResources resources = CellResources.open(target, cell.server(), descriptor.hardware().memoryBytes(),
                descriptor.name() + "-" + cell.fileName(), storeDir);
             CellLink link = CellLink.open(cell.link(), target, cell.server(), progress::note)) {
            TargetContext context = link.context(targetContext(descriptor, storeDir, workDir, resources.cgroup()));
            // behind a kernel link the target starts from a thread in the server namespace: its listeners, child
            // processes and readiness checks are all there
            List<Map<String, Object>> settles = new ArrayList<>();
            try (RunningTarget running = link.onServer(() -> target.start(cell.server(), context))) {
                for (int rep = 1; rep <= descriptor.repetitions(); rep++) {
                    rows.add(runRepetition(target, running, link, resources, cell, rep, series, settles));
                    manifest.cellLink(cell.id(), link.manifestEntry(rows.get(rows.size() - 1).values()));
                }
            }
            if (!settles.isEmpty()) {
                manifest.cellDetail(cell.id(), "settle", settles);
            }
            manifest.cellDetail(cell.id(), "memory", resources.manifestEntry());
            series.write(directory);
        } finally {
            RunFolders.deleteRecursively(storeDir);
            RunFolders.deleteIfEmpty(workDir);
        }
        return rows;
    }

    /** Writes a render-only cell's files (its target's, e.g. manifests) into its work folder; runs nothing, so no rows. */
    private List<ResultRow> renderCell(Target target, Cell cell, Path storeDir, Path workDir) throws IOException {
        Descriptor.LoadProfile load = descriptor.load();
        CellLoad cellLoad = new CellLoad(cell.connections(), Math.min(load.threads(), cell.connections()), load.duration(),
                load.timeout(), load.rate(), load.workloadKind(), workloadRequest(load, workloadSettings, cell), load.warmUp(),
                descriptor.seed() * 1_000_003L + cell.index() * 1_009L + 1);
        Path written = target.render(cell.server(), targetContext(descriptor, storeDir, workDir), cellLoad);
        progress.note("cell " + cell.id() + " (target " + target.name() + ", render only): wrote " + written
                + "; nothing ran, so the cell has no result rows");
        return List.of();
    }

    private ResultRow runRepetition(Target kind, RunningTarget target, CellLink link, CellResources resources, Cell cell, int rep,
                                    SeriesCsv.Recorder series, List<Map<String, Object>> settles)
            throws IOException, InterruptedException {
        Descriptor.LoadProfile load = descriptor.load();
        long seed = descriptor.seed() * 1_000_003L + cell.index() * 1_009L + rep;
        Workload workload = workloadKind.create(workloadRequest(load, workloadSettings, cell));
        int threads = Math.min(load.threads(), cell.connections());
        progress.phase(cell, rep, "warm-up");
        Workload warmUp = workload.warmUp();
        // a target whose own workers send the load (a topology's, in namespaces of their own) sends every run of it
        LoadClient own = target.ownLoad().orElse(null);
        if (own != null) {
            // its figures are made its own way (a divided load's req/s over the workers' common window): the manifest says how
            manifest.cellDetail(cell.id(), "load_client", Map.of("name", own.name(), "method", own.method()));
        }
        if (load.warmUp() && warmUp != null && !cell.server().engine().equals(ServerBuild.NO_CACHE)) {
            long objects = warmUp.size();
            int warmConnections = (int) Math.max(1, Math.min(cell.connections(), objects));
            if (own != null) {
                ClientRun warmRun = new ClientRun(target.clientUri(), new MeasuredOnly(warmUp), warmConnections,
                        Math.min(threads, warmConnections), max(Duration.ofSeconds(60), load.duration().multipliedBy(4)), objects,
                        load.timeout(), null, LinkEmulation.NONE, target.syntheticContent(), seed ^ 0x5bd1e995L,
                        directory.resolve("targets").resolve(cell.fileName()), "r" + rep + "-warm-up", PluginSettings.EMPTY,
                        progress::interval);
                ClientResult warm = link.onClient(() -> own.run(warmRun));
                long failed = warm.errors().values().stream().mapToLong(Long::longValue).sum();
                if (warm.requests() - failed < objects) {
                    progress.note("warm-up of " + cell.id() + " fetched " + (warm.requests() - failed) + " of " + objects
                            + " objects intact (errors " + warm.errors() + "); the hit ratio may fall short");
                }
            } else {
                LoadConfig warmConfig = LoadConfig.builder().url(target.clientUri()).connections(warmConnections)
                        .threads(Math.min(threads, warmConnections)).duration(max(Duration.ofSeconds(60), load.duration().multipliedBy(4)))
                        .timeout(load.timeout()).requests(objects).workload(new MeasuredOnly(warmUp)).seed(seed ^ 0x5bd1e995L)
                        .onInterval(progress::interval).build();
                LoadResult warm = link.onClient(() -> LoadRunner.run(warmConfig));
                if (warm.counters().goodResponses() < objects) {
                    progress.note("warm-up of " + cell.id() + " fetched " + warm.counters().goodResponses() + " of " + objects
                            + " objects intact (errors " + warm.counters().errorsByClass() + "); the hit ratio may fall short");
                }
            }
        }
        LoadClient client = own != null ? own : LoadClients.get(cell.client().kind());
        Map<String, String> settleColumns = settle(client, target, link, cell, workload, seed, rep, settles);
        // the per-second series (series.csv) of the measured run, where the client reports intervals
        SeriesCsv.Recorder.Phase measuredSeries = series.phase(rep, "measured");
        ClientRun measured = clientRun(target, link, cell, workload, load.duration(), load.requests(), seed, "r" + rep,
                IntervalListener.both(progress::interval, measuredSeries.listener()));
        ServerCounters before = link.onServer(() -> SettledCounters.read(target));
        Map<String, ServerCounters> tiersBefore = link.onServer(target::tierCounters);
        long jitBefore = link.onServer(() -> jitMillis(target));
        CpuSample cpuBefore = target.cpu();
        CellResources.Sample resourcesBefore = resources.sample(target);
        PowerMeter.Window window = power.start();
        progress.phase(cell, rep, "measuring");
        link.startWindow();
        // every client, loadgen's event loops and a tool's child process alike, starts from the client side's thread
        ClientResult result = link.onClient(() -> client.run(measured));
        Map<String, String> linkColumns = link.columns(result);
        ServerCounters after = link.onServer(() -> SettledCounters.read(target));
        Map<String, ServerCounters> tiersAfter = link.onServer(target::tierCounters);
        long jitAfter = link.onServer(() -> jitMillis(target));
        CpuSample cpuAfter = target.cpu();
        CellResources.Sample resourcesAfter = resources.sample(target);
        String hlog = "hlog/" + cell.fileName() + "-r" + rep + ".hlog";
        String hlogTtfb = "hlog/" + cell.fileName() + "-r" + rep + ".ttfb.hlog";
        hlog = result.writeHlog(directory.resolve(hlog), LatencyLog.Kind.TTLB) ? hlog : "";
        hlogTtfb = result.writeHlog(directory.resolve(hlogTtfb), LatencyLog.Kind.TTFB) ? hlogTtfb : "";
        progress.repetitionDone(result.requestsPerSecond());
        ResultRow row = row(kind, cell, rep, result, before, after, cpuBefore, cpuAfter, window, hlog, hlogTtfb);
        boolean origin = before.bytesFromOrigin() >= 0 && after.bytesFromOrigin() >= 0;
        Map<String, String> values = new LinkedHashMap<>(row.values());
        values.put("server_jit_ms", jitBefore < 0 || jitAfter < 0 ? "" : String.valueOf(jitAfter - jitBefore));
        values.putAll(windowColumns(WindowStats.of(measuredSeries.requestRates())));
        values.putAll(settleColumns);
        values.putAll(TierColumns.of(tiersBefore, tiersAfter));
        values.putAll(result.columns());
        values.putAll(linkColumns);
        values.putAll(resources.columns(resourcesBefore, resourcesAfter, result.bytes(),
                origin ? after.bytesFromOrigin() - before.bytesFromOrigin() : -1));
        return new ResultRow(values);
    }

    /**
     * The columns of a repetition's 1 s windows ({@link WindowStats}): how many, and their req/s's standard deviation;
     * empty for a client that reports no intervals (wrk).
     */
    static Map<String, String> windowColumns(WindowStats windows) {
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put("req_per_s_windows", windows.windows() == 0 ? "" : String.valueOf(windows.windows()));
        columns.put("req_per_s_window_sd", num(windows.sd()));
        return columns;
    }

    /**
     * Runs the measured load unrecorded before repetition {@code rep} as {@code load.settle} says, a run of its own
     * before the counters are read, so the row's server CPU, hits and power cover the measured run only. A fixed
     * settle is sent by the cell's client; a steady-state one by loadgen, whose windows {@link SteadyRate} watches,
     * ending it once req/s is steady or at its maximum. Returns the row's settle columns; adds the manifest's entry.
     */
    private Map<String, String> settle(LoadClient client, RunningTarget target, CellLink link, Cell cell, Workload workload,
                                       long seed, int rep, List<Map<String, Object>> settles)
            throws IOException, InterruptedException {
        Settle settle = descriptor.load().settle();
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put("settle_s", "");
        columns.put("settle_max_reached", "");
        columns.put("settle_spread", "");
        columns.put("settle_jit_ms_per_s", "");
        if (settle.isNone()) {
            return columns;
        }
        progress.phase(cell, rep, "settling");
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("repetition", rep);
        if (!settle.auto()) {
            ClientRun run = clientRun(target, link, cell, workload, settle.length(), 0, seed ^ 0x27d4eb2dL, "r" + rep + "-settle",
                    progress::interval);
            ClientResult result = link.onClient(() -> client.run(run));
            columns.put("settle_s", num(result.seconds()));
            entry.put("seconds", result.seconds());
        } else {
            long jitAtStart = settle.watchesJit() ? link.onServer(() -> jitMillis(target)) : -1;
            double seconds = 0;
            int runs = 0;
            List<Double> windows = new ArrayList<>();
            SteadyRate watch;
            // With a JVM's JIT watched, a settle that ended steady is followed by a second run of its own, also until
            // steady: the measured run starts on new connections after the settle's were stopped mid-response, and
            // a JVM meeting that for the first time compiles again (a cell's first measured repetition compiled for
            // 0.6-3.4 s of its 10 s after a JIT-quiet settle, the later ones 11-300 ms; docs/BENCHMARKS.md). The
            // second run starts after the same transition and ends only once the JIT is quiet again.
            while (true) {
                Duration left = settle.length().minusNanos((long) (seconds * 1e9));
                ClientRun run = clientRun(target, link, cell, workload, left, 0, seed ^ 0x27d4eb2dL ^ runs,
                        "r" + rep + "-settle" + (runs == 0 ? "" : "-" + (runs + 1)), progress::interval);
                StopSignal stop = new StopSignal();
                SteadyRate phase = new SteadyRate(settle, stop, progress::interval, jitAtStart >= 0, seconds);
                LoadResult result;
                try (JitPoller poller = phase.watchingJit() ? new JitPoller(() -> link.onServer(() -> jitMillis(target)), phase) : null) {
                    result = link.onClient(() -> LoadRunner.run(LoadgenClient.config(run).stopSignal(stop).onInterval(phase).build()));
                }
                seconds += result.elapsedSeconds();
                windows.addAll(phase.windows());
                watch = phase;
                runs++;
                double leftSeconds = settle.length().toNanos() / 1e9 - seconds;
                boolean again = phase.watchingJit() && phase.steady() && runs < 2
                        && leftSeconds >= Settle.WINDOW.multipliedBy(settle.windows() + 1).toNanos() / 1e9;
                if (!again) {
                    break;
                }
            }
            // not steady: it ran to its maximum, unless the workload ran out of requests first
            boolean maxReached = !watch.steady() && seconds >= settle.length().toNanos() / 1e9 - 0.5;
            double spread = watch.spread();
            double jit = watch.jitMsPerSecond();
            columns.put("settle_s", num(seconds));
            columns.put("settle_max_reached", String.valueOf(maxReached));
            columns.put("settle_spread", num(spread));
            columns.put("settle_jit_ms_per_s", Double.isNaN(jit) ? "" : num(jit));
            entry.put("seconds", seconds);
            entry.put("runs", runs);
            entry.put("steady", watch.steady());
            entry.put("max_reached", maxReached);
            entry.put("spread", Double.isNaN(spread) || Double.isInfinite(spread) ? null : spread);
            entry.put("jit_ms_per_s", Double.isNaN(jit) ? null : jit);
            entry.put("windows_req_per_s", windows.stream().map(r -> Math.round(r * 10) / 10.0).toList());
            if (maxReached) {
                boolean rateSteady = Double.isFinite(spread) && spread <= settle.tolerance();
                String why = rateSteady && watch.watchingJit()
                        ? "the cache JVM was still compiling (" + (Double.isNaN(jit) ? "no JIT readings far enough apart"
                        : num(jit) + " ms of JIT per second, bound " + num(settle.jitMsPerSecond())) + ")"
                        : "req/s was not steady (" + (Double.isFinite(spread) ? "spread " + num(spread)
                        : Double.isNaN(spread) ? "fewer windows than it compares" : "a window without a completed request")
                        + " in the last " + settle.windows() + " windows)";
                progress.note(cell.id() + " r" + rep + ": after the settle's maximum of " + Durations.format(settle.length())
                        + " " + why + "; measuring anyway");
            }
        }
        settles.add(entry);
        return columns;
    }

    /**
     * One run of the cell's load client: {@code length} of the measured workload (its warm-up left out), or
     * {@code requests} of it if that comes first (0: no bound).
     */
    private ClientRun clientRun(RunningTarget target, CellLink cellLink, Cell cell, Workload workload, Duration length,
                                long requests, long seed, String label, IntervalListener onInterval) {
        Descriptor.LoadProfile load = descriptor.load();
        LinkEmulation link = cellLink.loadEmulation();
        return new ClientRun(target.clientUri(), new MeasuredOnly(workload), cell.connections(),
                Math.min(load.threads(), cell.connections()), length, requests, load.timeout(), load.rate(), link,
                target.syntheticContent(), seed, directory.resolve("targets").resolve(cell.fileName()), label,
                PluginSettings.of(cell.client().settings()), onInterval);
    }

    private ResultRow row(Target kind, Cell cell, int rep, ClientResult r, ServerCounters before, ServerCounters after,
                          CpuSample cpuBefore, CpuSample cpuAfter, PowerMeter.Window window, String hlog, String hlogTtfb) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("experiment", descriptor.name());
        v.put("cell", cell.id());
        v.put("repetition", String.valueOf(rep));
        v.put("server", cell.server().name());
        v.put("target", cell.server().target());
        v.put("engine", cell.server().engine());
        v.put("client", cell.client().name());
        v.put("object_size_bytes", String.valueOf(cell.objectSize().bytes()));
        v.put("connections", String.valueOf(cell.connections()));
        v.put("range_size_bytes", String.valueOf(cell.rangeSize().bytes()));
        v.put("link", cell.link().name());
        v.put("link_bps", String.valueOf(cell.link().bitsPerSecond()));
        v.put("link_latency_ms", num(cell.link().oneWayLatency().toNanos() / 1e6));
        double seconds = r.seconds();
        long bytes = r.bytes();
        double throughputBps = r.throughputBytesPerSecond() * 8;
        v.put("requests", String.valueOf(r.requests()));
        v.put("duration_s", num(seconds));
        v.put("req_per_s", num(r.requestsPerSecond()));
        v.put("bytes", String.valueOf(bytes));
        v.put("throughput_bps", num(throughputBps));
        v.put("goodput_bps", num(r.goodputBytesPerSecond() * 8));
        percentiles(v, "ttfb", r.ttfb());
        percentiles(v, "ttlb", r.ttlb());
        percentiles(v, "ttfb_hit", r.ttfbHit());
        percentiles(v, "ttfb_miss", r.ttfbMiss());
        percentiles(v, "ttlb_hit", r.ttlbHit());
        percentiles(v, "ttlb_miss", r.ttlbMiss());
        percentiles(v, "loadgen_loop_delay", r.loopDelay());
        for (String column : ResultsCsv.ERROR_COLUMNS) {
            Long count = r.errors().get(column);
            v.put(column, count == null ? "" : String.valueOf(count));
        }
        v.put("target_hit_ratio", num(descriptor.load().targetHitRatio()));
        v.put("hit_ratio_requests", num(r.hitRatio()));
        v.put("hit_ratio_bytes", num(r.byteHitRatio()));
        v.put("hit_ratio_set_requests", num(r.setHitRatio()));
        boolean cached = after.hasCacheCounters() && before.hasCacheCounters();
        v.put("server_hits", cached ? String.valueOf(after.hits() - before.hits()) : "");
        v.put("server_misses", cached ? String.valueOf(after.misses() - before.misses()) : "");
        v.put("server_requests", after.requests() < 0 ? "" : String.valueOf(after.requests() - before.requests()));
        v.put("server_bytes_to_clients", delta(before.bytesToClients(), after.bytesToClients()));
        v.put("server_bytes_from_origin", delta(before.bytesFromOrigin(), after.bytesFromOrigin()));
        double loadgenCpu = r.clientCpuSeconds();
        double jvmCpu = r.runnerJvmCpuSeconds();
        boolean measured = cpuBefore.measured() && cpuAfter.measured();
        // Only the embedded target shares this JVM, so only there is "JVM minus a client inside it" the server's
        // CPU; elsewhere an unmeasured figure stays empty rather than wrong.
        boolean sharedJvm = EmbeddedTarget.CPU_METHOD.equals(cpuAfter.method());
        double clientInJvm = r.clientInRunnerJvm() && !Double.isNaN(loadgenCpu) ? Math.max(0, loadgenCpu) : 0;
        double serverCpu = measured ? Math.max(0, cpuAfter.serverSeconds() - cpuBefore.serverSeconds())
                : sharedJvm ? Math.max(0, jvmCpu - clientInJvm) : Double.NaN;
        v.put("cpu_s_server", num(serverCpu));
        v.put("cpu_s_loadgen", num(loadgenCpu));
        v.put("cpu_s_jvm_total", num(jvmCpu));
        v.put("cpu_method", cpuAfter.method());
        v.put("cpu_s_per_gb", bytes == 0 || Double.isNaN(serverCpu) ? "" : num(serverCpu / (bytes / 1e9)));
        PowerReading power = Double.isNaN(serverCpu) ? PowerReading.ABSENT
                : window.finish(utilisation(descriptor, kind, cell.server(), serverCpu, seconds));
        double watts = power.watts();
        boolean present = power.present();
        v.put("power_w", present ? num(watts) : "");
        v.put("power_source", power.source());
        v.put("req_per_s_per_watt", present ? num(r.requestsPerSecond() / watts) : "");
        v.put("gbps_per_watt", present ? num(throughputBps / 1e9 / watts) : "");
        v.put("hlog", hlog);
        v.put("hlog_ttfb", hlogTtfb);
        return new ResultRow(v);
    }

    /** What a target may use for one cell of {@code descriptor}: the cell's folders and the hardware's cores and memory. */
    public static TargetContext targetContext(Descriptor descriptor, Path storeDir, Path workDir) {
        return targetContext(descriptor, storeDir, workDir, null);
    }

    /** {@link #targetContext(Descriptor, Path, Path)} with the cell's memory cgroup (null: none). */
    public static TargetContext targetContext(Descriptor descriptor, Path storeDir, Path workDir, org.edgelab.experiments.process.cgroup.Cgroup cgroup) {
        return new TargetContext(storeDir, workDir, descriptor.hardware().cores(), descriptor.hardware().memoryBytes(),
                TARGET_START_TIMEOUT, cgroup);
    }

    /** What the workload plugin builds {@code cell}'s requests from; object ids are prefixed {@code c<index>-}. */
    public static WorkloadRequest workloadRequest(Descriptor.LoadProfile load, PluginSettings settings, Cell cell) {
        return new WorkloadRequest(cell.objectSize().bytes(), cell.rangeSize().bytes(), load.workingSet(), load.maxObjects(),
                load.popularity(), load.targetHitRatio(), settings, "c" + cell.index() + "-");
    }

    /** What the server used in a window, for the power meter: busy cores capped at the profile's, disks if it uses them. */
    public static PowerMeter.Utilisation utilisation(Descriptor descriptor, Target kind, ServerBuild server,
                                                     double serverCpuSeconds, double seconds) {
        int activeDisks = kind.usesDisk(server) ? Math.max(1, descriptor.hardware().disks().size()) : 0;
        double busyCores = Math.min(descriptor.hardware().cores(), serverCpuSeconds / seconds);
        return new PowerMeter.Utilisation(seconds, busyCores, activeDisks);
    }

    /**
     * The JIT compile time of EdgeLab's cache JVM so far, in milliseconds, from its {@code /stats}; -1 for a server that
     * is not EdgeLab's cache or a JVM that does not time its compilers.
     */
    private static long jitMillis(RunningTarget target) throws IOException {
        return target.cacheStats().map(stats -> stats.path("gauges").path(CacheServer.JIT_GAUGE))
                .filter(JsonNode::isIntegralNumber).map(JsonNode::asLong).orElse(-1L);
    }

    private static String delta(long before, long after) {
        return before < 0 || after < 0 ? "" : String.valueOf(after - before);
    }

    private static void percentiles(Map<String, String> v, String prefix, Histogram h) {
        boolean empty = h == null || h.getTotalCount() == 0;
        v.put(prefix + "_p50_ms", empty ? "" : num(h.getValueAtPercentile(50) / 1e6));
        v.put(prefix + "_p90_ms", empty ? "" : num(h.getValueAtPercentile(90) / 1e6));
        v.put(prefix + "_p99_ms", empty ? "" : num(h.getValueAtPercentile(99) / 1e6));
        v.put(prefix + "_p999_ms", empty ? "" : num(h.getValueAtPercentile(99.9) / 1e6));
    }

    /** A figure as written to results.csv: six significant digits, empty for NaN or infinite. */
    public static String num(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "";
        }
        return SignificantFigures.format(value, 6);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** {@code workload} without its own warm-up pass, for a kind that warms the cache itself, unmeasured. */
    public static Workload measuredOnly(Workload workload) {
        return new MeasuredOnly(workload);
    }
}
