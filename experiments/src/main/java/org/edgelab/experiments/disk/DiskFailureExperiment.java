package org.edgelab.experiments.disk;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.process.disk.CellDisks;
import org.edgelab.storage.disk.FileSystemShutdown;
import org.edgelab.experiments.runner.AbstractExperimentPlugin;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.KindChecks;
import org.edgelab.experiments.runner.LoadColumns;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.RunFolders;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.experiments.runner.SeriesCsv;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.Targets;
import org.edgelab.experiments.workload.WorkloadPlugin;
import org.edgelab.experiments.workload.WorkloadPlugins;
import org.edgelab.experiments.workload.WorkloadRequest;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;
import org.edgelab.units.ByteSize;
import org.edgelab.units.Durations;

/**
 * The {@code disk-failure} experiment (issue 16 item 2, report A's "resumes by itself after a disk failure"): per
 * server build and repetition, up to two phases, each on file systems the runner makes for it and removes after
 * ({@link CellDisks}: ext4 on loop devices; root only).
 *
 * <ul>
 *   <li>{@code disk-failure}, for builds whose engine spreads a store over several disks ({@code raw-log}, and
 *       {@code tiered} over raw-log): the store gets {@code disks} file systems; after the warm-up, the descriptor's
 *       load runs for {@code load.duration}; at {@code fail_at} disk {@code fail_disk} fails for real
 *       ({@link FileSystemShutdown}: EIO on every I/O from the kernel), and at {@code heal_at} it is unmounted,
 *       checked and mounted again with its data. The row gives errors by class (integrity: loadgen verifies every
 *       byte), the hit ratio before and during the failure and its dip, the share of stored objects lost with the
 *       disk, the seconds until the load carries on (req/s back to 90 % of before, no error), whether the running
 *       store took the healed disk back and how long after it was mounted again the store showed it ONLINE
 *       ({@code heal_to_online_s}) and first committed an object on it ({@code heal_to_first_store_s}).</li>
 *   <li>{@code full-fs}, for every build with a disk store (peers included): the store lives on one file system of
 *       {@code full_fs_size}, smaller than the capacity the build gives it, and the load asks for
 *       {@code full_working_set} of distinct objects with no warm-up, so the file system fills under load. The row
 *       gives the responses lost (every error), the objects the store held at its most and at the end (lost stored
 *       objects), the refusals for lack of room, the fills passed through and whether every disk stayed online.</li>
 * </ul>
 *
 * Each phase's seconds go to {@code series.csv} through {@link SeriesCsv}, as the {@code restart} and {@code churn}
 * kinds write theirs: a row per loadgen report interval (the last one the part second up to the load's end) and a row
 * per event at its instant ({@code disk-fails}, {@code disk-heals}, {@code disk-mounted}, {@code disk-online},
 * {@code disk-first-store}). Stateless and thread-safe; each run is independent.
 */
public final class DiskFailureExperiment extends AbstractExperimentPlugin {

    /** The phase names, as in the {@code phases} setting and the {@code phase} column. */
    public static final String FAILURE = "disk-failure";
    public static final String FULL = "full-fs";

    /** The columns of its results.csv. */
    public static final List<String> COLUMNS = List.of(
            "experiment", "cell", "repetition", "phase", "server", "engine", "target", "object_size_bytes", "connections",
            "file_systems", "fault", "requests", "duration_s", "req_per_s", "bytes", "throughput_bps", "goodput_bps",
            "hit_ratio_requests", "hit_ratio_bytes", "ttfb_p50_ms", "ttfb_p99_ms", "ttlb_p50_ms", "ttlb_p99_ms",
            "ttfb_hit_p50_ms", "ttfb_hit_p99_ms", "ttfb_hit_p999_ms", "ttfb_hit_max_ms", "ttfb_miss_p50_ms",
            "ttfb_miss_p99_ms", "ttfb_miss_p999_ms", "ttfb_miss_max_ms", "hlog", "hlog_ttfb", "errors",
            "errors_connect", "errors_timeout", "errors_status_4xx", "errors_status_5xx", "errors_truncated",
            "errors_closed", "errors_integrity",
            "req_per_s_before", "hit_ratio_before", "hit_ratio_during", "hit_ratio_dip", "objects_before_failure",
            "objects_lost_with_disk", "failed_disk_share", "carry_on_s", "failed_disk_state", "disk_healed", "disk_back",
            "heal_to_online_s", "heal_to_first_store_s", "server_truncated_responses", "server_hits_resumed_from_origin",
            "objects_stored_max", "objects_stored_end", "stored_objects_lost", "file_system_full_refusals",
            "store_pass_throughs", "store_write_sheds", "disks_online_at_end", "server_hits", "server_misses");

    /** The events of the disk-failure phase in series.csv. */
    static final String FAILS = "disk-fails";
    static final String HEALS = "disk-heals";
    static final String MOUNTED = "disk-mounted";
    static final String ONLINE = "disk-online";
    static final String FIRST_STORE = "disk-first-store";

    private static final List<Setting> SETTINGS = List.of(
            new Setting("phases", "disk-failure,full-fs", "which phases run: disk-failure, full-fs or both"),
            new Setting("disks", "2", "file systems under the store in the disk-failure phase"),
            new Setting("disk_size", "512MiB", "size of each of them (ext4 on a loop device over a sparse file)"),
            new Setting("fail_disk", "1", "the disk that fails (0-based)"),
            new Setting("fail_at", "10s", "when, into the measured load, the disk fails"),
            new Setting("heal_at", "20s", "when it is unmounted, checked and mounted again (off: never)"),
            new Setting("full_fs_size", "64MiB", "the one file system under the store in the full-fs phase"),
            new Setting("full_working_set", "256MB", "distinct objects the full-fs load asks for (more than the file system)"),
            new Setting("full_duration", "same", "the longest the full-fs phase's load runs (same: load.duration); it ends"
                    + " sooner once it has sent twice as many requests as full_working_set has objects"));

    public DiskFailureExperiment() {
        super("disk-failure", "a store over several file systems, one failed for real under load and healed; a file system too small for the store",
                SETTINGS, Run::new);
    }

    /** The checked settings. */
    record Plan(boolean failure, boolean full, int disks, long diskSize, int failDisk, Duration failAt, Duration healAt,
                long fullFsSize, long fullWorkingSet, Duration fullDuration) {
    }

    static Plan plan(PluginSettings s, Duration loadDuration) {
        Set<String> phases = new HashSet<>();
        for (String p : s.string("phases", FAILURE + "," + FULL).split(",")) {
            String phase = p.strip();
            if (!phase.equals(FAILURE) && !phase.equals(FULL)) {
                throw new SettingException("phases", "unknown phase '" + phase + "': give disk-failure, full-fs or both");
            }
            phases.add(phase);
        }
        int disks = s.integer("disks", 2, 2, 16);
        int failDisk = s.integer("fail_disk", 1, 0, 15);
        if (failDisk >= disks) {
            throw new SettingException("fail_disk", "must name one of the " + disks + " disks (0 to " + (disks - 1) + "), got " + failDisk);
        }
        Duration failAt = s.duration("fail_at", Duration.ofSeconds(10));
        String healText = s.string("heal_at", "20s");
        Duration healAt = healText.equals("off") ? null : s.duration("heal_at", Duration.ofSeconds(20));
        boolean failure = phases.contains(FAILURE);
        if (failure && (failAt.toMillis() < 1000 || failAt.compareTo(loadDuration) >= 0)) {
            throw new SettingException("fail_at", "must be at least 1s (a second of load before the failure) and before"
                    + " the end of load.duration (" + Durations.format(loadDuration) + "), got " + Durations.format(failAt));
        }
        if (failure && healAt != null && (healAt.compareTo(failAt) <= 0 || healAt.compareTo(loadDuration) >= 0)) {
            throw new SettingException("heal_at", "must be after fail_at and before the end of load.duration, or off; got "
                    + Durations.format(healAt));
        }
        String fullText = s.string("full_duration", "same");
        Duration fullDuration = fullText.equals("same") ? loadDuration : s.duration("full_duration", loadDuration);
        long diskSize = ByteSize.parse(s.string("disk_size", "512MiB"));
        long fullFs = ByteSize.parse(s.string("full_fs_size", "64MiB"));
        long fullSet = ByteSize.parse(s.string("full_working_set", "256MB"));
        if (diskSize < (16L << 20) || fullFs < (16L << 20)) {
            throw new SettingException("disk_size", "disk_size and full_fs_size must be at least 16MiB (ext4 needs room for its journal)");
        }
        if (fullSet <= fullFs) {
            throw new SettingException("full_working_set", "must be more than full_fs_size (" + ByteSize.format(fullFs)
                    + "), so that the file system fills; got " + ByteSize.format(fullSet));
        }
        return new Plan(failure, phases.contains(FULL), disks, diskSize, failDisk, failAt, healAt,
                fullFs, fullSet, fullDuration);
    }

    @Override
    public void validate(Descriptor d) {
        KindChecks.workload(d, name(), WorkloadPlugins.DEFAULT, "runs report A's object load: workload kind 'objects'");
        for (String dim : d.matrix()) {
            if (!List.of("server", "object_size", "connections").contains(dim)) {
                throw new SettingException("/matrix", "the disk-failure experiment crosses server, object_size and"
                        + " connections only, got " + d.matrix());
            }
        }
        KindChecks.loadgenOnly(d, name(), "counts errors by class with loadgen, which verifies every byte");
        KindChecks.closedLoop(d, name(), "runs closed loop");
        KindChecks.loopbackOnly(d, name());
        plan(PluginSettings.of(d.settings()), d.load().duration());
    }

    /** The engine setting that lists a build's disks, when its engine spreads a store over several. */
    static Optional<String> disksSetting(ServerBuild build) {
        if (build.engine().equals("raw-log")) {
            return Optional.of("disks");
        }
        if (build.engine().equals("tiered") && build.settings().getOrDefault("disk-engine", "raw-log").equals("raw-log")) {
            return Optional.of("disk.disks");
        }
        return Optional.empty();
    }

    /** Whether a build keeps a store on disk (not memory, not the no-cache baseline, not a peer's memory storage). */
    static boolean usesDisk(ServerBuild build) {
        return !List.of("memory", ServerBuild.NO_CACHE, "malloc", "files").contains(build.engine());
    }

    @Override
    public void printSummary(List<ResultRow> rows, PrintWriter out) {
        out.printf(Locale.ROOT, "%-36s %3s %-12s %8s %6s %5s %6s %8s %8s %8s %7s %6s %9s%n", "cell", "rep", "phase", "req/s",
                "errors", "5xx", "integ", "hit bef", "hit dur", "dip", "lost sh", "carry", "back/lost");
        for (ResultRow r : rows) {
            boolean failure = FAILURE.equals(r.get("phase"));
            out.printf(Locale.ROOT, "%-36s %3s %-12s %8s %6s %5s %6s %8s %8s %8s %7s %6s %9s%n", r.get("cell"), r.get("repetition"),
                    r.get("phase"), dash(r.get("req_per_s")), dash(r.get("errors")), dash(r.get("errors_status_5xx")),
                    dash(r.get("errors_integrity")), dash(r.get("hit_ratio_before")), dash(r.get("hit_ratio_during")),
                    dash(r.get("hit_ratio_dip")), dash(r.get("failed_disk_share")), dash(r.get("carry_on_s")),
                    failure ? dash(r.get("disk_back")) : dash(r.get("stored_objects_lost")));
        }
        out.println("disk-failure: hit ratio before/during the failure (server counts), dip = before - during, lost sh = share of"
                + " stored objects lost with the disk, carry = s from the failure to req/s >= 90 % of before with no error,"
                + " back = the store took the healed disk back; full-fs: lost = stored objects lost, errors = responses lost");
        out.flush();
    }

    /** One run: its plan and workload, then each cell's phases. Confined to the calling thread (and each phase's sampler). */
    private static final class Run extends KindRun {
        private final Plan plan;
        private final WorkloadPlugin workloadKind;
        private final PluginSettings workloadSettings;

        Run(Descriptor d, RunOptions options, Path directory) {
            super(d, options, directory);
            this.plan = plan(PluginSettings.of(d.settings()), d.load().duration());
            this.workloadKind = WorkloadPlugins.get(d.load().workloadKind());
            this.workloadSettings = PluginSettings.of(d.load().workloadSettings());
        }

        @Override
        protected Map<String, String> methods() {
            Map<String, String> methods = new LinkedHashMap<>();
            methods.put("file_systems", "made for each phase and removed after it: ext4 on loop devices over sparse files"
                    + " (mkfs.ext4 -m 0) where the kernel has loop devices, else tmpfs (which can fill but not fail);"
                    + " leftovers of a dead runner (edgelab-fs-<pid>-<n>) are swept at the next start");
            methods.put("fault", FileSystemShutdown.METHOD + "; at fail_at into the measured load of the disk-failure phase."
                    + " Healing at heal_at: unmount once no file is open on it, e2fsck -p, mount again with its data");
            methods.put("hit_ratio_dip", "hit_ratio_before: the server's hits / requests over the seconds from 1 to fail_at;"
                    + " hit_ratio_during: over fail_at to heal_at (or the end); dip = before - during");
            methods.put("failed_disk_share", "objects the store dropped with the failed disk (raw-log's"
                    + " objects_lost_to_disk_failure) over the objects it held just before the failure (store_usage.object_count)");
            methods.put("carry_on_s", "seconds from the failure to the end of the first whole second with req/s >= 90 % of"
                    + " the mean before it and no 5xx or cut response (server counts)");
            methods.put("disk_back", "whether the store shows the healed disk ONLINE at the end of the phase");
            methods.put("server_truncated_responses", "EdgeLab's cache, from its /stats at the end of the phase: responses"
                    + " that ended before their last byte since it started (truncated_responses: the replies it cut, and"
                    + " those whose client closed first, loadgen's open connections at the end of the load among them);"
                    + " server_hits_resumed_from_origin: stored replies whose stored bytes failed mid-body and whose rest"
                    + " it asked of the origin with Range and If-Range (hits_resumed_from_origin)");
            methods.put("heal_to_online_s", "seconds from the healed disk's mount (after e2fsck) until the store's /stats"
                    + " show it ONLINE again (polled every 50 ms); empty if it did not come back before the load ended");
            methods.put("heal_to_first_store_s", "seconds from the healed disk's mount until the store first committed an"
                    + " object on it (raw-log's disk_<n>_objects_committed grew; polled every 50 ms)");
            methods.put("store_pass_throughs", "EdgeLab's cache, from its /stats at the end of the phase (the phase's server,"
                    + " warm-up included): fills passed through to their clients unstored, the store having refused or failed"
                    + " their write; store_write_sheds: those of them shed because the write lane was stalled"
                    + " (target setting store_write_shed_after)");
            methods.put("full_fs", "one file system of full_fs_size under a store whose configured capacity is larger;"
                    + " no warm-up; full_working_set of distinct objects, uniform, twice as many requests as objects (at most"
                    + " full_duration); errors = responses lost; stored_objects_lost"
                    + " = the most objects the store held during the phase minus those it held at the end (it evicts"
                    + " nothing below its capacity)");
            methods.put("series", "series.csv (SeriesCsv, as restart and churn): per loadgen report interval (1 s) of each"
                    + " phase, loadgen's requests, hits, misses, errors, connect errors and body bytes, and a row per event at"
                    + " its instant: disk-fails, disk-heals (unmount begins), disk-mounted, disk-online, disk-first-store");
            return methods;
        }

        @Override
        protected RunResult all() throws IOException {
            sayNotes();
            CellDisks.faultUnavailableReason().ifPresent(r -> say("note: " + r));
            return inFolder(COLUMNS, this::cell).withNotes(List.of(
                    "fault: " + FileSystemShutdown.METHOD,
                    "heal: raw-log probes a failed disk every disk-probe-interval (1 s) and takes it back, empty, once it"
                            + " answers; disk_back says whether the running store did, heal_to_online_s and heal_to_first_store_s how soon"));
        }

        private List<ResultRow> cell(Cell cell) throws IOException, InterruptedException {
            CellDisks.unavailableReason().ifPresent(r -> {
                throw new IllegalStateException("the disk-failure experiment makes file systems for each cell: " + r);
            });
            boolean failure = plan.failure() && disksSetting(cell.server()).isPresent();
            boolean full = plan.full() && usesDisk(cell.server());
            if (!failure && !full) {
                say("cell " + cell.id() + ": no phase applies (" + cell.server().engine() + " keeps no store on disk)");
            }
            return withSeries(cell, (c, rep, series) -> {
                List<ResultRow> rows = new ArrayList<>();
                if (failure) {
                    rows.add(failurePhase(c, rep, series.phase(rep, FAILURE)));
                }
                if (full) {
                    rows.add(fullPhase(c, rep, series.phase(rep, FULL)));
                }
                return rows;
            });
        }

        private Path workDir(Cell cell) throws IOException {
            Path work = directory.resolve("targets").resolve(cell.fileName());
            Files.createDirectories(work);
            return work;
        }

        private ResultRow failurePhase(Cell cell, int rep, SeriesCsv.Recorder.Phase phase) throws IOException, InterruptedException {
            sayRepetition(cell, rep, "disk-failure over " + plan.disks() + " disks, disk " + plan.failDisk() + " fails at "
                    + Durations.format(plan.failAt()));
            Path storeDir = directory.resolve("stores").resolve(cell.fileName() + "-r" + rep + "-failure");
            try (CellDisks disks = CellDisks.make(plan.disks(), plan.diskSize())) {
                if (!disks.canFail()) {
                    throw new IOException("cannot fail a disk here: " + CellDisks.faultUnavailableReason().orElse(disks.describe()));
                }
                String key = disksSetting(cell.server()).orElseThrow();
                Map<String, String> settings = new LinkedHashMap<>(cell.server().settings());
                settings.put(key, disks.dirs().stream().map(p -> p.resolve("store").toString()).collect(Collectors.joining(",")));
                ServerBuild build = new ServerBuild(cell.server().name(), cell.server().target(), cell.server().engine(),
                        settings, cell.server().targetSettings());
                Files.createDirectories(storeDir);
                Target target = Targets.get(build.target());
                try (RunningTarget running = target.start(build, ExperimentRunner.targetContext(d, storeDir, workDir(cell)))) {
                    Workload workload = workload(cell, d.load().workingSet(), d.load().targetHitRatio());
                    warmUp(running, cell, workload, rep);
                    Sampler sampler = new Sampler(running);
                    FaultSchedule faults = new FaultSchedule(disks, running, phase);
                    LoadConfig config = load(running, cell, workload, d.load().duration(), d.load().requests(), rep, phase.listener());
                    LoadResult result = sampler.during(faults, () -> LoadRunner.run(config));
                    phase.finish(result.start(), result.counters(), result.elapsedSeconds());
                    return failureRow(cell, rep, build, disks, running, result, sampler, faults);
                }
            } finally {
                RunFolders.deleteRecursively(storeDir);
            }
        }

        private ResultRow fullPhase(Cell cell, int rep, SeriesCsv.Recorder.Phase phase) throws IOException, InterruptedException {
            sayRepetition(cell, rep, "full-fs, a " + ByteSize.format(plan.fullFsSize()) + " file system under the store, "
                    + ByteSize.format(plan.fullWorkingSet()) + " of objects");
            try (CellDisks disks = CellDisks.make(1, plan.fullFsSize())) {
                Path storeDir = disks.dirs().get(0).resolve("store");
                Files.createDirectories(storeDir);
                Target target = Targets.get(cell.server().target());
                try (RunningTarget running = target.start(cell.server(), ExperimentRunner.targetContext(d, storeDir, workDir(cell)))) {
                    Workload workload = workload(cell, plan.fullWorkingSet(), Double.NaN);
                    Sampler sampler = new Sampler(running);
                    // bounded by requests, not only by time: on a slow or busy machine the file system still fills
                    long objects = Math.max(1, Math.min(d.load().maxObjects(), plan.fullWorkingSet() / cell.objectSize().bytes()));
                    LoadConfig config = load(running, cell, workload, plan.fullDuration(), 2 * objects, rep, phase.listener());
                    LoadResult result = sampler.during(null, () -> LoadRunner.run(config));
                    phase.finish(result.start(), result.counters(), result.elapsedSeconds());
                    return fullRow(cell, rep, disks, running, result, sampler);
                }
            }
        }

        private Workload workload(Cell cell, long workingSet, double targetHitRatio) {
            Descriptor.LoadProfile load = d.load();
            WorkloadRequest request = new WorkloadRequest(cell.objectSize().bytes(), 0, workingSet, load.maxObjects(),
                    load.popularity(), targetHitRatio, workloadSettings, "c" + cell.index() + "-");
            return workloadKind.create(request);
        }

        /**
         * The phase's load: {@code duration} long, or {@code requests} requests if that comes first (0: no bound), its
         * report intervals to {@code seconds} (the phase's series).
         */
        private LoadConfig load(RunningTarget running, Cell cell, Workload workload, Duration duration, long requests, int rep,
                                IntervalListener seconds) {
            int threads = Math.min(d.load().threads(), cell.connections());
            return LoadConfig.builder().url(running.clientUri()).connections(cell.connections()).threads(threads)
                    .duration(duration).requests(requests).timeout(d.load().timeout()).workload(ExperimentRunner.measuredOnly(workload))
                    .verify(running.syntheticContent()).seed(d.seed() * 1_000_003L + cell.index() * 1_009L + rep)
                    .onInterval(seconds).build();
        }

        private void warmUp(RunningTarget running, Cell cell, Workload workload, int rep) throws InterruptedException {
            Workload warm = workload.warmUp();
            if (!d.load().warmUp() || warm == null) {
                return;
            }
            long objects = warm.size();
            int connections = (int) Math.max(1, Math.min(cell.connections(), objects));
            LoadResult r = LoadRunner.run(LoadConfig.builder().url(running.clientUri()).connections(connections)
                    .threads(Math.min(d.load().threads(), connections)).requests(objects)
                    .duration(Duration.ofSeconds(60).plus(d.load().duration().multipliedBy(4))).timeout(d.load().timeout())
                    .workload(ExperimentRunner.measuredOnly(warm)).verify(running.syntheticContent())
                    .seed(d.seed() ^ 0x5bd1e995L ^ rep).build());
            if (r.counters().goodResponses() < objects) {
                say("  note: the warm-up fetched " + r.counters().goodResponses() + " of " + objects + " objects intact (errors "
                        + r.counters().errorsByClass() + ")");
            }
        }

        private ResultRow failureRow(Cell cell, int rep, ServerBuild build, CellDisks disks, RunningTarget running,
                                     LoadResult r, Sampler s, FaultSchedule faults) throws IOException {
            Map<String, String> v = common(cell, rep, FAILURE, disks, r, s);
            v.put("fault", "disk " + plan.failDisk() + " shut down at " + Durations.format(plan.failAt())
                    + (plan.healAt() == null ? "" : ", healed at " + Durations.format(plan.healAt())));
            int failSecond = (int) plan.failAt().toSeconds();
            int endSecond = plan.healAt() == null ? s.seconds().size() : (int) plan.healAt().toSeconds();
            double rateBefore = s.meanRequests(1, failSecond);
            double before = s.hitRatio(1, failSecond);
            double during = s.hitRatio(failSecond, endSecond);
            v.put("req_per_s_before", num(rateBefore));
            v.put("hit_ratio_before", num(before));
            v.put("hit_ratio_during", num(during));
            v.put("hit_ratio_dip", Double.isNaN(before) || Double.isNaN(during) ? "" : num(before - during));
            Optional<JsonNode> end = running.cacheStats();
            long objectsBefore = faults.objectsBefore;
            long lost = end.map(j -> extraEndingWith(j, "objects_lost_to_disk_failure")).orElse(-1L);
            if (objectsBefore >= 0 && lost >= 0) {
                v.put("objects_before_failure", String.valueOf(objectsBefore));
                v.put("objects_lost_with_disk", String.valueOf(lost));
                v.put("failed_disk_share", objectsBefore == 0 ? "" : num(lost / (double) objectsBefore));
            }
            v.put("carry_on_s", s.carryOn(failSecond, rateBefore).map(x -> String.valueOf(x)).orElse(""));
            v.put("failed_disk_state", faults.stateAfterFailure);
            v.put("disk_healed", plan.healAt() == null ? "" : faults.healed);
            String stateAtEnd = end.map(j -> diskState(j, plan.failDisk())).orElse("");
            v.put("disk_back", plan.healAt() == null || stateAtEnd.isEmpty() ? "" : String.valueOf(stateAtEnd.equals("ONLINE")));
            v.put("heal_to_online_s", faults.since(faults.online));
            v.put("heal_to_first_store_s", faults.since(faults.firstStore));
            v.put("disks_online_at_end", end.map(j -> String.valueOf(onlineDisks(j))).orElse(""));
            v.put("server_truncated_responses", end.map(j -> j.path("truncated_responses").asText("")).orElse(""));
            v.put("server_hits_resumed_from_origin",
                    end.map(j -> j.path("hits_resumed_from_origin").asText("")).orElse(""));
            v.put("store_pass_throughs", end.map(j -> j.path("store_pass_throughs").asText("")).orElse(""));
            v.put("store_write_sheds", end.map(j -> j.path("store_write_sheds").asText("")).orElse(""));
            say(String.format(Locale.ROOT, "  -> %.0f req/s, errors %d (5xx %d, integrity %d), hit ratio %s before, %s during,"
                            + " carry on %s s, failed disk %s, back after healing: %s (ONLINE %s s and first object stored %s s"
                            + " after its mount)", r.requestsPerSecond(), r.counters().totalErrors(),
                    r.errors(ErrorClass.STATUS_5XX), r.errors(ErrorClass.INTEGRITY), v.get("hit_ratio_before"),
                    v.get("hit_ratio_during"), dash(v.get("carry_on_s")), faults.stateAfterFailure, dash(v.get("disk_back")),
                    dash(v.get("heal_to_online_s")), dash(v.get("heal_to_first_store_s"))));
            return new ResultRow(v);
        }

        private ResultRow fullRow(Cell cell, int rep, CellDisks disks, RunningTarget running, LoadResult r, Sampler s)
                throws IOException {
            Map<String, String> v = common(cell, rep, FULL, disks, r, s);
            v.put("fault", "none: the file system fills");
            Optional<JsonNode> end = running.cacheStats();
            if (end.isPresent()) {
                long atEnd = end.get().path("store_usage").path("object_count").asLong(-1);
                long max = Math.max(s.maxObjectCount(), atEnd);
                v.put("objects_stored_max", String.valueOf(max));
                v.put("objects_stored_end", String.valueOf(atEnd));
                v.put("stored_objects_lost", String.valueOf(Math.max(0, max - atEnd)));
                v.put("file_system_full_refusals", String.valueOf(extraEndingWith(end.get(), "file_system_full_refusals")));
                v.put("store_pass_throughs", String.valueOf(end.get().path("store_pass_throughs").asLong()));
                v.put("disks_online_at_end", String.valueOf(onlineDisks(end.get())));
                v.put("failed_disk_state", disksFailed(end.get()));
            }
            say(String.format(Locale.ROOT, "  -> %.0f req/s, responses lost %d (%s), stored objects %s at most, %s at the end,"
                            + " full refusals %s, pass-throughs %s", r.requestsPerSecond(), r.counters().totalErrors(),
                    r.counters().errorsByClass(), dash(v.get("objects_stored_max")), dash(v.get("objects_stored_end")),
                    dash(v.get("file_system_full_refusals")), dash(v.get("store_pass_throughs"))));
            return new ResultRow(v);
        }

        private Map<String, String> common(Cell cell, int rep, String phase, CellDisks disks, LoadResult r, Sampler s)
                throws IOException {
            Map<String, String> v = new LinkedHashMap<>();
            v.put("experiment", d.name());
            v.put("cell", cell.id());
            v.put("repetition", String.valueOf(rep));
            v.put("phase", phase);
            v.put("server", cell.server().name());
            v.put("engine", cell.server().engine());
            v.put("target", cell.server().target());
            v.put("object_size_bytes", String.valueOf(cell.objectSize().bytes()));
            v.put("connections", String.valueOf(cell.connections()));
            v.put("file_systems", disks.describe());
            // the load generator's columns and latency logs, as every request experiment writes them, so that
            // ./edgelab report reads a disk-failure run like the others (results.csv keeps those COLUMNS name)
            v.putAll(LoadColumns.of(r, directory, cell.fileName() + "-r" + rep + "-" + phase));
            v.put("errors", String.valueOf(r.counters().totalErrors()));
            v.put("server_hits", s.totalHits() < 0 ? "" : String.valueOf(s.totalHits()));
            v.put("server_misses", s.totalMisses() < 0 ? "" : String.valueOf(s.totalMisses()));
            return v;
        }

        /**
         * The disk fault of one phase, run by the sampler at its seconds, and the heal on a thread of its own that then
         * watches the store take the disk back. Its events go to the phase's series at their instants. Fields are read
         * after {@link #finish}.
         */
        private final class FaultSchedule {
            private final CellDisks disks;
            private final RunningTarget running;
            private final SeriesCsv.Recorder.Phase phase;
            volatile long objectsBefore = -1;
            volatile String stateAfterFailure = "";
            volatile String healed = "";
            volatile Instant mounted;
            volatile Instant online;
            volatile Instant firstStore;
            private volatile boolean loadOver;
            private volatile Thread healer;

            FaultSchedule(CellDisks disks, RunningTarget running, SeriesCsv.Recorder.Phase phase) {
                this.disks = disks;
                this.running = running;
                this.phase = phase;
            }

            /** Called by the sampler at the start of each second of the load. */
            void at(int second, Optional<JsonNode> stats) {
                int disk = plan.failDisk();
                if (second == plan.failAt().toSeconds()) {
                    objectsBefore = stats.map(j -> j.path("store_usage").path("object_count").asLong(-1)).orElse(-1L);
                    try {
                        disks.fail(disk);
                        phase.event(FAILS, Instant.now());
                        say("  " + second + " s: disk " + disk + " shut down (EIO from now on)");
                    } catch (IOException e) {
                        say("  could not fail disk " + disk + ": " + e.getMessage());
                    }
                }
                if (second == plan.failAt().toSeconds() + 2) {
                    stateAfterFailure = stats.map(j -> diskState(j, disk)).orElse("");
                }
                if (plan.healAt() != null && second == plan.healAt().toSeconds()) {
                    phase.event(HEALS, Instant.now());
                    // off the sampler's thread: unmounting waits for the store to let go of the disk
                    healer = new Thread(() -> {
                        try {
                            Optional<String> why = disks.heal(disk, Duration.ofSeconds(10));
                            healed = why.map(w -> "no: " + w).orElse("yes");
                            say("  disk " + disk + " healed: " + healed);
                            if (why.isEmpty()) {
                                watchTakeBack(disk);
                            }
                        } catch (InterruptedException e) {
                            healed = healed.isEmpty() ? "interrupted" : healed;
                        }
                    }, "disk-heal");
                    healer.start();
                }
            }

            /**
             * From the healed disk's mount until the load ends: when the store's /stats first show it ONLINE, and when
             * the store first commits an object on it (its {@code disk_<n>_objects_committed} grows past its count at
             * the mount).
             */
            private void watchTakeBack(int disk) throws InterruptedException {
                Instant at = Instant.now();
                mounted = at;
                phase.event(MOUNTED, at);
                String committed = "disk_" + disk + "_objects_committed";
                long base = stats().map(j -> extraEndingWith(j, committed)).orElse(-1L);
                while (!loadOver && (online == null || firstStore == null)) {
                    Optional<JsonNode> stats = stats();
                    Instant now = Instant.now();
                    if (stats.isPresent()) {
                        if (online == null && diskState(stats.get(), disk).equals("ONLINE")) {
                            online = now;
                            phase.event(ONLINE, now);
                            say(String.format(Locale.ROOT, "  disk %d ONLINE again %.2f s after its mount", disk, secs(at, now)));
                        }
                        long n = extraEndingWith(stats.get(), committed);
                        if (base < 0) {
                            base = n;
                        } else if (firstStore == null && n > base) {
                            firstStore = now;
                            phase.event(FIRST_STORE, now);
                            say(String.format(Locale.ROOT, "  first object stored on disk %d %.2f s after its mount", disk,
                                    secs(at, now)));
                        }
                    }
                    Thread.sleep(50);
                }
            }

            private Optional<JsonNode> stats() {
                try {
                    return running.cacheStats();
                } catch (IOException e) {
                    return Optional.empty();
                }
            }

            /** Seconds from the healed disk's mount to {@code to}, or "" if either did not happen. */
            String since(Instant to) {
                Instant from = mounted;
                return from == null || to == null ? "" : num(secs(from, to));
            }

            void finish() throws InterruptedException {
                loadOver = true;
                Thread h = healer;
                if (h != null) {
                    h.join(15_000);
                }
            }
        }

        private static double secs(Instant from, Instant to) {
            return Duration.between(from, to).toNanos() / 1e9;
        }

        /**
         * Reads the server's counters at the start of each second while a phase's load runs (the row's server-side
         * hit ratios, carry-on and stored objects) and runs the phase's fault schedule. Its own thread; results read
         * after {@link #during} returns.
         */
        private final class Sampler {
            private final RunningTarget running;
            private final List<long[]> rows = new ArrayList<>(); // requests, hits, errors, bytes, objects (deltas except objects)
            private long hits = -1;
            private long misses = -1;
            private long maxObjects = -1;

            Sampler(RunningTarget running) {
                this.running = running;
            }

            interface Load {
                LoadResult run() throws InterruptedException;
            }

            LoadResult during(FaultSchedule faults, Load load) throws IOException, InterruptedException {
                long[] start = snapshot();
                long[][] last = {start};
                long t0 = System.nanoTime();
                Thread thread = new Thread(() -> {
                    int second = 0;
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            long due = t0 + (second + 1) * 1_000_000_000L;
                            long wait = due - System.nanoTime();
                            if (wait > 0) {
                                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                            }
                            Optional<JsonNode> stats = stats();
                            long[] now = snapshot(stats);
                            record(last[0], now);
                            last[0] = now;
                            second++;
                            if (faults != null) {
                                faults.at(second, stats);
                            }
                        }
                    } catch (InterruptedException e) {
                        // the load ended
                    } catch (IOException | RuntimeException e) {
                        say("  sampling stopped: " + e.getMessage());
                    }
                }, "disk-failure-sampler");
                thread.start();
                LoadResult result;
                try {
                    result = load.run();
                } finally {
                    thread.interrupt();
                    thread.join(10_000);
                    if (faults != null) {
                        faults.finish();
                    }
                }
                long[] end = snapshot();
                if (end[0] > last[0][0]) {
                    // the part of a second since the last reading is the phase's last row: a phase shorter than a
                    // second (a small file system fills in a fraction of one on a quiet machine) has this row alone
                    record(last[0], end);
                }
                synchronized (this) {
                    hits = start[1] < 0 || end[1] < 0 ? -1 : end[1] - start[1];
                    misses = start[5] < 0 || end[5] < 0 ? -1 : end[5] - start[5];
                }
                return result;
            }

            private Optional<JsonNode> stats() {
                try {
                    return running.cacheStats();
                } catch (IOException e) {
                    return Optional.empty();
                }
            }

            private long[] snapshot() throws IOException {
                return snapshot(stats());
            }

            /** requests, hits, errors, bytes, objects, misses (-1 where unknown). */
            private long[] snapshot(Optional<JsonNode> stats) throws IOException {
                var c = running.counters();
                long errors = stats.map(j -> j.path("by_status_class").path("5xx").asLong() + j.path("truncated_responses").asLong())
                        .orElse(-1L);
                long objects = stats.map(j -> j.path("store_usage").path("object_count").asLong(-1)).orElse(-1L);
                return new long[] {c.requests(), c.hits(), errors, c.bytesToClients(), objects, c.misses()};
            }

            private synchronized void record(long[] a, long[] b) {
                rows.add(new long[] {b[0] - a[0], a[1] < 0 || b[1] < 0 ? -1 : b[1] - a[1], a[2] < 0 || b[2] < 0 ? -1 : b[2] - a[2],
                        a[3] < 0 || b[3] < 0 ? -1 : b[3] - a[3], b[4]});
                maxObjects = Math.max(maxObjects, b[4]);
            }

            synchronized List<long[]> seconds() {
                return List.copyOf(rows);
            }

            synchronized long totalHits() {
                return hits;
            }

            synchronized long totalMisses() {
                return misses;
            }

            synchronized long maxObjectCount() {
                return maxObjects;
            }

            /** Mean requests per second over seconds [from, to). */
            synchronized double meanRequests(int from, int to) {
                long sum = 0;
                int n = 0;
                for (int i = from; i < Math.min(to, rows.size()); i++) {
                    sum += rows.get(i)[0];
                    n++;
                }
                return n == 0 ? Double.NaN : sum / (double) n;
            }

            /** The server's hits over requests in seconds [from, to). */
            synchronized double hitRatio(int from, int to) {
                long requests = 0;
                long h = 0;
                for (int i = from; i < Math.min(to, rows.size()); i++) {
                    if (rows.get(i)[1] < 0) {
                        return Double.NaN;
                    }
                    requests += rows.get(i)[0];
                    h += rows.get(i)[1];
                }
                return requests == 0 ? Double.NaN : h / (double) requests;
            }

            /** Seconds from {@code failSecond} to the end of the first second with req/s >= 90 % of before and no error. */
            synchronized Optional<Integer> carryOn(int failSecond, double rateBefore) {
                if (Double.isNaN(rateBefore)) {
                    return Optional.empty();
                }
                for (int i = failSecond; i < rows.size(); i++) {
                    long[] r = rows.get(i);
                    if (r[0] >= 0.9 * rateBefore && r[2] <= 0) {
                        return Optional.of(i + 1 - failSecond);
                    }
                }
                return Optional.empty();
            }
        }
    }

    /** The state of disk {@code disk} in /stats (raw-log's {@code disk_<n>_state}, a tiered store's prefixed one), or "". */
    static String diskState(JsonNode stats, int disk) {
        JsonNode extra = stats.path("store_stats").path("extra");
        for (var it = extra.fields(); it.hasNext(); ) {
            var e = it.next();
            if (e.getKey().endsWith("disk_" + disk + "_state")) {
                return e.getValue().asText();
            }
        }
        return "";
    }

    /** How many disks /stats shows ONLINE; a store that names no disk states counts as one online disk. */
    static int onlineDisks(JsonNode stats) {
        int online = 0;
        boolean any = false;
        for (var it = stats.path("store_stats").path("extra").fields(); it.hasNext(); ) {
            var e = it.next();
            if (e.getKey().endsWith("_state") && e.getKey().contains("disk_")) {
                any = true;
                online += e.getValue().asText().equals("ONLINE") ? 1 : 0;
            }
        }
        return any ? online : 1;
    }

    private static String disksFailed(JsonNode stats) {
        List<String> out = new ArrayList<>();
        for (var it = stats.path("store_stats").path("extra").fields(); it.hasNext(); ) {
            var e = it.next();
            if (e.getKey().endsWith("_state") && e.getKey().contains("disk_") && !e.getValue().asText().equals("ONLINE")) {
                out.add(e.getKey() + "=" + e.getValue().asText());
            }
        }
        return out.isEmpty() ? "ONLINE" : String.join(" ", out);
    }

    private static long extraEndingWith(JsonNode stats, String suffix) {
        long sum = 0;
        for (var it = stats.path("store_stats").path("extra").fields(); it.hasNext(); ) {
            var e = it.next();
            if (e.getKey().endsWith(suffix)) {
                sum += e.getValue().asLong();
            }
        }
        return sum;
    }

    static String num(double x) {
        return Double.isNaN(x) ? "" : ExperimentRunner.num(x);
    }
}
