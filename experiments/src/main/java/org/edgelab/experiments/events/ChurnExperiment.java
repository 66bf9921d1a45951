package org.edgelab.experiments.events;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.runner.AbstractExperimentPlugin;
import org.edgelab.experiments.runner.CellResources;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.Manifest;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.experiments.runner.SeriesCsv;
import org.edgelab.experiments.runner.SettledCounters;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.ServerStatsReader;
import org.edgelab.experiments.workload.NumberedObjects;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.units.ByteSize;

/**
 * The {@code churn} experiment (report A's claim that a massive storage engine's eviction causes less fragmentation):
 * for each server build and repetition, on a new store, the set is warmed and the measured load runs ({@code fresh});
 * then {@code churn_factor} times the store's capacity of never-seen objects is written through the cache
 * ({@code churn}); then the set is warmed again and the same load runs on the churned store ({@code churned}). A row
 * per phase: req/s, TTFB and TTLB, hit ratio, the server's device writes per byte fetched from the origin
 * ({@code write_amplification}), and, where the engine reports it, the free space left inside its file below the
 * high-water mark (lmdb); the churned row gives its req/s and TTFB p99 as ratios to the fresh one. Stateless and
 * thread-safe; each run is independent.
 */
public final class ChurnExperiment extends AbstractExperimentPlugin {

    /** The columns of its results.csv. */
    public static final List<String> COLUMNS = columns();

    private static final List<Setting> SETTINGS = List.of(
            new Setting("churn_factor", "10", "the churn phase writes this many times the store's capacity of never-seen objects"),
            new Setting("capacity", null, "the store's capacity; default: the build's capacity (disk.capacity for tiered, size for a peer)"),
            new Setting("churn_timeout", "30m", "the churn phase stops here even if not all its objects were written"));

    private static List<String> columns() {
        List<String> c = new ArrayList<>(EventCell.columns());
        c.add(8, "phase");
        c.addAll(List.of("churn_factor", "store_capacity_bytes", "churned_bytes", "server_bytes_from_origin",
                "req_per_s_vs_fresh", "ttfb_p99_vs_fresh", "ttlb_p99_vs_fresh",
                "memory_bound", "memory_limit_bytes", "device_read_bytes", "device_write_bytes", "write_amplification",
                "read_amplification", "diskstats_write_bytes", "store_bytes_written", "store_evictions", "store_file_free_share",
                "hlog", "hlog_ttfb"));
        return List.copyOf(c);
    }

    public ChurnExperiment() {
        super("churn", "write many times the store's capacity of never-seen objects, then the steady state against the same store fresh",
                SETTINGS, Run::new);
    }

    @Override
    public void validate(Descriptor d) {
        EventCell.validate(d, name());
        PluginSettings s = PluginSettings.of(d.settings());
        s.integer("churn_factor", 10, 1, 1000);
        if (s.duration("churn_timeout", Duration.ofMinutes(30)).isZero()) {
            throw new SettingException("churn_timeout", "must be more than 0");
        }
        for (ServerBuild b : d.servers()) {
            if (b.engine().equals(ServerBuild.NO_CACHE)) {
                throw new SettingException("/servers", "build " + b.name() + " has no store to churn");
            }
            capacity(b, s);
        }
    }

    /** The store's capacity: the {@code capacity} setting, else the build's own, else its engine's default. */
    static long capacity(ServerBuild b, PluginSettings s) {
        if (s.string("capacity", null) != null) {
            return s.bytes("capacity", 0);
        }
        for (String key : List.of("capacity", "disk.capacity", "size")) {
            String v = b.settings().get(key);
            if (v != null) {
                return ByteSize.parse(v);
            }
        }
        Optional<String> engineDefault = StorageEngines.names().contains(b.engine())
                ? StorageEngines.get(b.engine()).settings().stream().filter(x -> x.name().equals("capacity"))
                        .map(Setting::defaultValue).filter(v -> v != null).findFirst()
                : Optional.empty();
        return engineDefault.map(ByteSize::parse).orElseThrow(() -> new SettingException("capacity", "build " + b.name()
                + " states no capacity (settings capacity, disk.capacity or size): give the churn experiment settings.capacity"));
    }

    @Override
    public void printSummary(List<ResultRow> rows, PrintWriter out) {
        out.printf(Locale.ROOT, "%-34s %4s %-8s %10s %11s %9s %9s %9s %8s %8s%n", "cell", "rep", "phase", "req/s", "TTFB p99 ms",
                "hit %", "write amp", "free in f", "req/s x", "p99 x");
        for (ResultRow r : rows) {
            out.printf(Locale.ROOT, "%-34s %4s %-8s %10s %11s %9s %9s %9s %8s %8s%n", r.get("cell"), r.get("repetition"), r.get("phase"),
                    dash(r.get("req_per_s")), dash(r.get("ttfb_p99_ms")), EventCell.pct(r.number("hit_ratio_requests")),
                    dash(r.get("write_amplification")), EventCell.pct(r.number("store_file_free_share")), dash(r.get("req_per_s_vs_fresh")),
                    dash(r.get("ttfb_p99_vs_fresh")));
        }
        out.println("churned row: req/s and TTFB p99 as ratios to the fresh store (x); write amp: device bytes written per byte"
                + " fetched from the origin; free in f: lmdb's free pages below its file's high-water mark");
        out.flush();
    }

    /** A workload of {@code count} objects of {@code size} bytes no request has asked for before, ids {@code prefix<n>}. */
    static Workload neverSeen(String prefix, long size, long count) {
        return new NumberedObjects(prefix, 0, count, size, count + " never-seen objects of " + ByteSize.format(size));
    }

    /** One run: its settings, then the three phases in every repetition. Confined to the calling thread. */
    private static final class Run extends KindRun {
        private final PluginSettings settings;
        private final int factor;

        Run(Descriptor d, RunOptions options, Path directory) {
            super(d, options, directory);
            this.settings = PluginSettings.of(d.settings());
            this.factor = settings.integer("churn_factor", 10, 1, 1000);
        }

        @Override
        protected Map<String, String> methods() {
            Map<String, String> methods = new LinkedHashMap<>();
            methods.put("churn", "each repetition on a new store: warm-up pass, load.settle unrecorded of requests for the set"
                    + " alone (nothing new stored), the measured load (phase"
                    + " fresh); then " + factor + " x the store's capacity (store_capacity_bytes) of never-seen objects of the cell's"
                    + " size fetched once each through the cache with the cell's connections (phase churn; churned_bytes: what the"
                    + " origin sent for them); then the warm-up pass again (the set was evicted), load.settle on the set, and the same measured"
                    + " load (phase churned); req_per_s_vs_fresh, ttfb_p99_vs_fresh, ttlb_p99_vs_fresh: churned / fresh");
            methods.put("write_amplification", "device_write_bytes (the server's /proc/<pid>/io write_bytes, or its cgroup's"
                    + " processes) / server_bytes_from_origin over each phase; diskstats_write_bytes: the store device's, whole device");
            methods.put("store_file_free_share", "lmdb only: (map_high_water_bytes - lmdb_pages_in_use_bytes) / map_high_water_bytes"
                    + " from its /stats at the end of the phase: pages freed inside the file below its high-water mark, which new"
                    + " writes reuse scattered; raw-log and tiered free whole segments (no free-space fragmentation inside the log"
                    + " by construction, not reported), raw-files leaves placement to the file system and the peers report none");
            methods.put("series", "series.csv: each phase per report interval (1 s)");
            methods.put("memory", Manifest.MEMORY_NOTE);
            methods.put("io", Manifest.IO_NOTE);
            return methods;
        }

        @Override
        protected RunResult all() throws IOException {
            sayNotes();
            return inFolder(COLUMNS, cell -> withSeries(cell, this::repetition));
        }

        private List<ResultRow> repetition(Cell cell, int rep, SeriesCsv.Recorder series) throws IOException, InterruptedException {
            long capacity = capacity(cell.server(), settings);
            long size = cell.objectSize().bytes();
            long count = (factor * capacity + size - 1) / size;
            sayRepetition(cell, rep, String.format(Locale.ROOT, "fresh store, then %d x %s of churn (%d objects), then churned",
                    factor, ByteSize.format(capacity), count));
            try (EventCell c = EventCell.start(d, options, directory, cell, rep, this::say)) {
                c.warmUp(c.seed(0x5bd1e995L));
                c.settleOnSet(c.seed(0x27d4eb2dL));
                Map<String, String> fresh = phase(c, rep, series, "fresh", c.workload(), d.load().duration(), d.load().requests(), c.seed(0));
                Workload churn = neverSeen("c" + cell.index() + "-churn-r" + rep + "-", size, count);
                Map<String, String> churned = phase(c, rep, series, "churn", churn,
                        settings.duration("churn_timeout", Duration.ofMinutes(30)), count, c.seed(0x632be5abL));
                say("  churn: " + churned.get("requests") + " objects, " + churned.get("churned_bytes") + " bytes from the origin");
                c.warmUp(c.seed(0x85ebca6bL));
                c.settleOnSet(c.seed(0xc2b2ae35L));
                Map<String, String> after = phase(c, rep, series, "churned", c.workload(), d.load().duration(), d.load().requests(), c.seed(1));
                after.put("req_per_s_vs_fresh", ratio(after, fresh, "req_per_s"));
                after.put("ttfb_p99_vs_fresh", ratio(after, fresh, "ttfb_p99_ms"));
                after.put("ttlb_p99_vs_fresh", ratio(after, fresh, "ttlb_p99_ms"));
                for (Map<String, String> v : List.of(fresh, churned, after)) {
                    v.put("churn_factor", String.valueOf(factor));
                    v.put("store_capacity_bytes", String.valueOf(capacity));
                }
                manifest().cellDetail(cell.id(), "memory", c.resources().manifestEntry());
                return List.of(new ResultRow(fresh), new ResultRow(churned), new ResultRow(after));
            }
        }

        private static String ratio(Map<String, String> a, Map<String, String> b, String column) {
            try {
                double x = Double.parseDouble(a.get(column));
                double y = Double.parseDouble(b.get(column));
                return y == 0 ? "" : ExperimentRunner.num(x / y);
            } catch (NumberFormatException | NullPointerException e) {
                return "";
            }
        }

        /** Runs one phase of {@code w} (at most {@code requests} when positive) and returns its row's values. */
        private Map<String, String> phase(EventCell c, int rep, SeriesCsv.Recorder series, String name, Workload w,
                                          Duration duration, long requests, long seed) throws IOException, InterruptedException {
            SeriesCsv.Recorder.Phase phase = series.phase(rep, name);
            ServerCounters before = SettledCounters.read(c.running());
            CellResources.Sample resourcesBefore = c.resources().sample(c.running());
            var config = c.load(w, duration, seed).requests(requests).onInterval(phase.listener()).build();
            LoadResult r = LoadRunner.measure(config);
            phase.finish(r.start(), r.counters(), r.elapsedSeconds());
            ServerCounters after = SettledCounters.read(c.running());
            CellResources.Sample resourcesAfter = c.resources().sample(c.running());
            Map<String, String> v = c.identity();
            v.put("phase", name);
            v.putAll(c.loadColumns(r, name));
            boolean origin = before.bytesFromOrigin() >= 0 && after.bytesFromOrigin() >= 0;
            long fromOrigin = origin ? after.bytesFromOrigin() - before.bytesFromOrigin() : -1;
            v.put("server_bytes_from_origin", origin ? String.valueOf(fromOrigin) : "");
            if (name.equals("churn")) {
                v.put("churned_bytes", origin ? String.valueOf(fromOrigin) : "");
            }
            v.putAll(c.resources().columns(resourcesBefore, resourcesAfter, r.counters().bytesRead(), fromOrigin));
            Map<String, Double> store = c.running().cacheStats().map(ServerStatsReader::storeFigures).orElse(Map.of());
            v.put("store_bytes_written", figure(store, "bytes_written"));
            v.put("store_evictions", figure(store, "evictions"));
            Double high = store.get("map_high_water_bytes");
            Double used = store.get("lmdb_pages_in_use_bytes");
            v.put("store_file_free_share", high != null && used != null && high > 0
                    ? ExperimentRunner.num(Math.max(0, high - used) / high) : "");
            return v;
        }

        private static String figure(Map<String, Double> store, String name) {
            Double value = store.get(name);
            return value == null ? "" : String.valueOf(value.longValue());
        }
    }
}
