package org.edgelab.experiments.events;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.Settle;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.runner.CellResources;
import org.edgelab.experiments.runner.CellServer;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.KindChecks;
import org.edgelab.experiments.runner.LoadColumns;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.SteadyRate;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.workload.WorkloadPlugins;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.RateSchedule;
import org.edgelab.loadgen.StopSignal;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.SettingException;

/**
 * One repetition of one cell of an event experiment on its target: its server on a new store
 * ({@code stores/<cell>-r<rep>}) with its memory cgroup and resource samples ({@link CellServer}), the cell's
 * {@code objects} workload, its warm-up pass, loads of the cell's connections and the columns a measured load gives a
 * row. {@link #close()} stops the target, removes the cgroup and deletes the store, also after a failure. Not
 * thread-safe: owned by the runner's thread.
 */
final class EventCell implements AutoCloseable {

    private final Descriptor d;
    private final Cell cell;
    private final int repetition;
    private final Path directory;
    private final CellServer server;
    private final RunningTarget running;
    private final Workload workload;
    private final Consumer<String> say;

    private EventCell(Descriptor d, Cell cell, int repetition, Path directory, CellServer server, Consumer<String> say) {
        this.d = d;
        this.cell = cell;
        this.repetition = repetition;
        this.directory = directory;
        this.server = server;
        this.running = server.running();
        this.say = say;
        this.workload = WorkloadPlugins.get(d.load().workloadKind()).create(ExperimentRunner.workloadRequest(d.load(),
                PluginSettings.of(d.load().workloadSettings()), cell));
    }

    /** A share as a percentage with one decimal, {@code -} for NaN (for the kinds' printed summaries). */
    static String pct(double v) {
        return Double.isNaN(v) ? "-" : String.format(java.util.Locale.ROOT, "%.1f", v * 100);
    }

    /** The checks every event kind makes of a descriptor: loadgen, the {@code objects} workload, no link, full fetches. */
    static void validate(Descriptor d, String kind) {
        KindChecks.workload(d, kind, "objects", "runs the 'objects' workload");
        KindChecks.loadgenOnly(d, kind, "follows loadgen's per-second counters");
        KindChecks.loopbackOnly(d, kind);
        if (d.load().rangeSizes().stream().anyMatch(r -> r.bytes() != 0)) {
            throw new SettingException("/load/workload/range_sizes", "the " + kind + " experiment fetches whole objects;"
                    + " remove range_sizes");
        }
    }

    /** Starts {@code cell}'s target on a new store for {@code repetition}; on failure leaves nothing behind. */
    static EventCell start(Descriptor d, RunOptions options, Path directory, Cell cell, int repetition, Consumer<String> say)
            throws IOException {
        CellServer server = CellServer.start(d, options, directory, cell, cell.fileName() + "-r" + repetition);
        try {
            return new EventCell(d, cell, repetition, directory, server, say);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    RunningTarget running() {
        return running;
    }

    CellResources resources() {
        return server.resources();
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

    /**
     * A load of the cell's connections and threads, timeout, verification and {@code load.rate} (open loop when the
     * descriptor sets one), running {@code w} for at most {@code duration}.
     */
    LoadConfig.Builder load(Workload w, Duration duration, long seed) {
        int threads = Math.min(d.load().threads(), cell.connections());
        String rate = d.load().rate();
        return LoadConfig.builder().url(running.clientUri()).connections(cell.connections()).threads(threads)
                .duration(duration).timeout(d.load().timeout()).workload(w).verify(running.syntheticContent()).seed(seed)
                .rate(rate == null ? null : RateSchedule.parse(rate, duration));
    }

    /** Fetches every object of the set once through the cache, unmeasured (the matrix runner's warm-up pass). */
    void warmUp(long seed) throws InterruptedException {
        Workload warm = workload.warmUp();
        if (!d.load().warmUp() || warm == null || cell.server().engine().equals(ServerBuild.NO_CACHE)) {
            return;
        }
        long objects = warm.size();
        int connections = (int) Math.max(1, Math.min(cell.connections(), objects));
        // closed loop whatever load.rate says: the warm-up fetches the set as fast as the server takes it
        LoadResult r = LoadRunner.measure(load(warm, Duration.ofMinutes(10), seed).connections(connections)
                .threads(Math.min(d.load().threads(), connections)).requests(objects).rate(null).build());
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
     * The columns of a measured load ({@link LoadColumns}: requests to hit ratios, latency percentiles, errors by class,
     * its TTLB and TTFB interval logs written as {@code hlog/<cell>-r<rep>-<label>.hlog}) and the descriptor's target hit ratio.
     */
    Map<String, String> loadColumns(LoadResult r, String label) throws IOException {
        Map<String, String> v = LoadColumns.of(r, directory, cell.fileName() + "-r" + repetition + "-" + label);
        v.put("target_hit_ratio", ExperimentRunner.num(d.load().targetHitRatio()));
        return v;
    }

    /** Column names a row of {@link #identity()} and {@link #loadColumns} has, in order. */
    static List<String> columns() {
        List<String> c = new ArrayList<>(List.of("experiment", "cell", "repetition", "server", "target", "engine",
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
        server.close();
    }
}
