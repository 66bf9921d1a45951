package org.edgelab.experiments.events;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.edgelab.experiments.client.ClientChoice;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.Settle;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.runner.CellResources;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.RunFolders;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.SteadyRate;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.Targets;
import org.edgelab.experiments.workload.WorkloadPlugins;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.StopSignal;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.SettingException;

/**
 * One repetition of one cell of an event experiment on its target: a new store ({@code stores/<cell>-r<rep>}), the
 * server's memory cgroup and resource samples ({@link CellResources}), the cell's {@code objects} workload, its warm-up
 * pass, loads of the cell's connections and the columns a measured load gives a row. {@link #close()} stops the target,
 * removes the cgroup and deletes the store, also after a failure. Not thread-safe: owned by the runner's thread.
 */
final class EventCell implements AutoCloseable {

    private final Descriptor d;
    private final Cell cell;
    private final int repetition;
    private final Path directory;
    private final Path storeDir;
    private final Path workDir;
    private final Target target;
    private final CellResources resources;
    private final RunningTarget running;
    private final Workload workload;
    private final Consumer<String> say;

    private EventCell(Descriptor d, Cell cell, int repetition, Path directory, Path storeDir, Path workDir, Target target,
                      CellResources resources, RunningTarget running, Consumer<String> say) {
        this.d = d;
        this.cell = cell;
        this.repetition = repetition;
        this.directory = directory;
        this.storeDir = storeDir;
        this.workDir = workDir;
        this.target = target;
        this.resources = resources;
        this.running = running;
        this.say = say;
        this.workload = WorkloadPlugins.get(d.load().workloadKind()).create(ExperimentRunner.workloadRequest(d.load(),
                PluginSettings.of(d.load().workloadSettings()), cell));
    }

    /** The rows of one repetition of one cell, its series phases added to {@code series}. */
    @FunctionalInterface
    interface Repetition {
        List<org.edgelab.experiments.runner.ResultRow> run(Cell cell, int repetition, org.edgelab.experiments.runner.SeriesCsv.Recorder series)
                throws IOException, InterruptedException;
    }

    /**
     * The run-folder steps both event kinds share: the descriptor copied in, the cells already in {@code results.csv}
     * skipped (a resumed run), every other cell's repetitions run in {@link org.edgelab.experiments.runner.CellLoop}, its
     * rows (with {@code columns}) and its {@code series.csv} rows written once all its repetitions are done.
     */
    static org.edgelab.experiments.runner.RunResult runAll(Descriptor d, RunOptions options, Path directory, List<Cell> cells,
                                                           org.edgelab.experiments.runner.Manifest manifest, List<String> columns,
                                                           Consumer<String> say, Repetition repetition) throws IOException {
        Path descriptorCopy = directory.resolve("descriptor.yaml");
        if (!Files.exists(descriptorCopy)) {
            Files.writeString(descriptorCopy, d.sourceText(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Path csv = directory.resolve("results.csv");
        java.util.Set<String> finished = new java.util.HashSet<>();
        for (org.edgelab.experiments.runner.ResultRow row : org.edgelab.experiments.runner.ResultsCsv.read(csv)) {
            finished.add(row.get("cell"));
        }
        Targets.requireAvailable(d.servers());
        int resumed = (int) cells.stream().filter(c -> finished.contains(c.id())).count();
        manifest.start(finished, options.resume() != null);
        d.notes().forEach(n -> say.accept("note: " + n));
        org.edgelab.experiments.runner.CellLoop.Outcome outcome = org.edgelab.experiments.runner.CellLoop.run(cells, finished,
                manifest, directory, say, cell -> {
                    org.edgelab.experiments.runner.SeriesCsv.Recorder series = new org.edgelab.experiments.runner.SeriesCsv.Recorder(cell.id());
                    List<org.edgelab.experiments.runner.ResultRow> rows = new java.util.ArrayList<>();
                    for (int rep = 1; rep <= d.repetitions(); rep++) {
                        rows.addAll(repetition.run(cell, rep, series));
                    }
                    series.write(directory);
                    org.edgelab.experiments.runner.ResultsCsv.append(csv, columns, rows);
                });
        return new org.edgelab.experiments.runner.RunResult(directory, outcome.complete() ? "complete" : "partial", cells.size(),
                outcome.ran(), resumed, org.edgelab.experiments.runner.ResultsCsv.read(csv), d.notes());
    }

    /** Prints {@code line} to {@code out} (null: nowhere) at once. */
    static void say(java.io.PrintStream out, String line) {
        if (out != null) {
            out.println(line);
            out.flush();
        }
    }

    /** A share as a percentage with one decimal, {@code -} for NaN (for the kinds' printed summaries). */
    static String pct(double v) {
        return Double.isNaN(v) ? "-" : String.format(java.util.Locale.ROOT, "%.1f", v * 100);
    }

    /** {@code s}, or {@code -} when empty. */
    static String dash(String s) {
        return s.isEmpty() ? "-" : s;
    }

    /** The checks every event kind makes of a descriptor: loadgen, the {@code objects} workload, no kernel link, full fetches. */
    static void validate(Descriptor d, String kind) {
        if (!d.load().workloadKind().equals("objects")) {
            throw new SettingException("/load/workload/kind", "the " + kind + " experiment runs the 'objects' workload, got '"
                    + d.load().workloadKind() + "'");
        }
        if (!d.load().clients().equals(List.of(ClientChoice.LOADGEN))) {
            throw new SettingException("/load/client", "the " + kind + " experiment follows loadgen's per-second counters;"
                    + " remove load.client");
        }
        if (d.load().links().stream().anyMatch(l -> !l.isNone())) {
            throw new SettingException("/load/links", "the " + kind + " experiment runs on loopback; remove load.links");
        }
        if (d.load().rangeSizes().stream().anyMatch(r -> r.bytes() != 0)) {
            throw new SettingException("/load/workload/range_sizes", "the " + kind + " experiment fetches whole objects;"
                    + " remove range_sizes");
        }
    }

    /** Starts {@code cell}'s target on a new store for {@code repetition}; on failure leaves nothing behind. */
    static EventCell start(Descriptor d, RunOptions options, Path directory, Cell cell, int repetition, Consumer<String> say)
            throws IOException {
        String name = cell.fileName() + "-r" + repetition;
        Path storeDir = (options.storeRoot() != null ? options.storeRoot() : directory.resolve("stores")).resolve(name);
        Path workDir = directory.resolve("targets").resolve(name);
        Files.createDirectories(workDir);
        Target target = Targets.get(cell.server().target());
        CellResources resources = null;
        try {
            resources = CellResources.open(target, cell.server(), d.hardware().memoryBytes(), d.name() + "-" + name, storeDir);
            RunningTarget running = target.start(cell.server(),
                    ExperimentRunner.targetContext(d, storeDir, workDir, resources.cgroup()));
            try {
                return new EventCell(d, cell, repetition, directory, storeDir, workDir, target, resources, running, say);
            } catch (RuntimeException e) {
                running.close();
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            if (resources != null) {
                resources.close();
            }
            RunFolders.deleteRecursively(storeDir);
            RunFolders.deleteIfEmpty(workDir);
            throw e;
        }
    }

    RunningTarget running() {
        return running;
    }

    CellResources resources() {
        return resources;
    }

    Target target() {
        return target;
    }

    /** The cell's measured workload (its set, first-time share and popularity). */
    Workload workload() {
        return workload;
    }

    /** Bytes of the warmed set: its objects times the object size. */
    long setBytes() {
        Workload warm = workload.warmUp();
        return warm == null ? 0 : warm.size() * cell.objectSize().bytes();
    }

    /** A seed for phase {@code salt} of this repetition. */
    long seed(long salt) {
        return (d.seed() * 1_000_003L + cell.index() * 1_009L + repetition) ^ salt;
    }

    /** A load of the cell's connections and threads, timeout and verification, running {@code w} for at most {@code duration}. */
    LoadConfig.Builder load(Workload w, Duration duration, long seed) {
        int threads = Math.min(d.load().threads(), cell.connections());
        return LoadConfig.builder().url(running.clientUri()).connections(cell.connections()).threads(threads)
                .duration(duration).timeout(d.load().timeout()).workload(w).verify(running.syntheticContent()).seed(seed);
    }

    /** Fetches every object of the set once through the cache, unmeasured (the matrix runner's warm-up pass). */
    void warmUp(long seed) throws InterruptedException {
        Workload warm = workload.warmUp();
        if (!d.load().warmUp() || warm == null || cell.server().engine().equals(ServerBuild.NO_CACHE)) {
            return;
        }
        long objects = warm.size();
        int connections = (int) Math.max(1, Math.min(cell.connections(), objects));
        LoadResult r = LoadRunner.measure(load(warm, Duration.ofMinutes(10), seed).connections(connections)
                .threads(Math.min(d.load().threads(), connections)).requests(objects).build());
        if (r.counters().goodResponses() < objects) {
            say.accept("warm-up of " + cell.id() + " fetched " + r.counters().goodResponses() + " of " + objects
                    + " objects intact (errors " + r.counters().errorsByClass() + ")");
        }
    }

    /** Runs {@code load.settle} of the measured load unrecorded, when the descriptor sets one. */
    void settle(long seed) throws InterruptedException {
        settleWith(workload, seed);
    }

    /**
     * Runs {@code w} unrecorded as {@code load.settle} says: for its fixed length, or until req/s is steady
     * ({@link SteadyRate}) within its maximum. Blocks until done.
     */
    private void settleWith(Workload w, long seed) throws InterruptedException {
        Settle settle = d.load().settle();
        if (settle.isNone()) {
            return;
        }
        LoadConfig.Builder config = load(w, settle.length(), seed);
        if (settle.auto()) {
            StopSignal stop = new StopSignal();
            config.stopSignal(stop).onInterval(new SteadyRate(settle, stop, IntervalListener.NONE));
        }
        LoadRunner.measure(config.build());
    }

    /**
     * Runs {@code load.settle} unrecorded of requests for the set alone (no first-time object, so the store gets
     * nothing new): a fresh server's JIT and caches reach their hot path and the store stays as the warm-up left it.
     */
    void settleOnSet(long seed) throws InterruptedException {
        if (!d.load().settle().isNone()) {
            Descriptor.LoadProfile l = d.load();
            Workload setOnly = WorkloadPlugins.get(l.workloadKind()).create(new org.edgelab.experiments.workload.WorkloadRequest(
                    cell.objectSize().bytes(), cell.rangeSize().bytes(), l.workingSet(), l.maxObjects(), l.popularity(), 1.0,
                    PluginSettings.of(l.workloadSettings()), "c" + cell.index() + "-"));
            settleWith(setOnly, seed);
        }
    }

    /** The identifying columns of a row of this repetition. */
    Map<String, String> identity() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("experiment", d.name());
        v.put("cell", cell.id());
        v.put("repetition", String.valueOf(repetition));
        v.put("server", cell.server().name());
        v.put("target", cell.server().target());
        v.put("engine", cell.server().engine());
        v.put("object_size_bytes", String.valueOf(cell.objectSize().bytes()));
        v.put("connections", String.valueOf(cell.connections()));
        return v;
    }

    /**
     * The columns of a measured load (as the matrix runner names them: requests to hit ratios, latency percentiles,
     * errors by class) with its TTLB and TTFB interval logs written as {@code hlog/<cell>-r<rep>-<label>.hlog}.
     */
    Map<String, String> loadColumns(LoadResult r, String label) throws IOException {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("requests", String.valueOf(r.counters().completed()));
        v.put("duration_s", ExperimentRunner.num(r.elapsedSeconds()));
        v.put("req_per_s", ExperimentRunner.num(r.requestsPerSecond()));
        v.put("bytes", String.valueOf(r.counters().bytesRead()));
        v.put("throughput_bps", ExperimentRunner.num(r.throughputBytesPerSecond() * 8));
        v.put("goodput_bps", ExperimentRunner.num(r.goodputBytesPerSecond() * 8));
        percentiles(v, "ttfb", r.ttfb());
        percentiles(v, "ttlb", r.ttlb());
        for (ErrorClass e : ErrorClass.values()) {
            v.put("errors_" + e.label(), String.valueOf(r.errors(e)));
        }
        v.put("target_hit_ratio", ExperimentRunner.num(d.load().targetHitRatio()));
        v.put("hit_ratio_requests", ExperimentRunner.num(r.hitRatio()));
        v.put("hit_ratio_bytes", ExperimentRunner.num(r.byteHitRatio()));
        Files.createDirectories(directory.resolve("hlog"));
        String base = "hlog/" + cell.fileName() + "-r" + repetition + "-" + label;
        r.writeHlog(directory.resolve(base + ".hlog"), LatencyLog.Kind.TTLB);
        r.writeHlog(directory.resolve(base + ".ttfb.hlog"), LatencyLog.Kind.TTFB);
        v.put("hlog", base + ".hlog");
        v.put("hlog_ttfb", base + ".ttfb.hlog");
        return v;
    }

    private static void percentiles(Map<String, String> v, String prefix, Histogram h) {
        boolean empty = h == null || h.getTotalCount() == 0;
        for (double p : new double[] {50, 99}) {
            v.put(prefix + "_p" + (int) p + "_ms", empty ? "" : ExperimentRunner.num(h.getValueAtPercentile(p) / 1e6));
        }
    }

    /** Column names a row of {@link #identity()} and {@link #loadColumns} has, in order. */
    static List<String> columns() {
        List<String> c = new java.util.ArrayList<>(List.of("experiment", "cell", "repetition", "server", "target", "engine",
                "object_size_bytes", "connections", "requests", "duration_s", "req_per_s", "bytes", "throughput_bps",
                "goodput_bps", "ttfb_p50_ms", "ttfb_p99_ms", "ttlb_p50_ms", "ttlb_p99_ms"));
        for (ErrorClass e : ErrorClass.values()) {
            c.add("errors_" + e.label());
        }
        c.addAll(List.of("target_hit_ratio", "hit_ratio_requests", "hit_ratio_bytes"));
        return c;
    }

    @Override
    public void close() {
        try {
            running.close();
        } finally {
            try {
                resources.close();
            } finally {
                RunFolders.deleteRecursively(storeDir);
                RunFolders.deleteIfEmpty(workDir);
            }
        }
    }
}
