package org.edgelab.experiments.runner;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.matrix.MatrixExpander;
import org.edgelab.experiments.target.CpuSample;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.Targets;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.RateSchedule;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.loadgen.workload.RequestGenerator;
import org.edgelab.loadgen.workload.Workload;

/**
 * Runs an experiment on the {@code embedded} target: for each cell of the matrix, starts origin, store
 * and cache, warms the cache, runs the load generator once per repetition, collects the cache's
 * counters and CPU time, computes the modelled power figures and writes one tidy row per repetition.
 *
 * <p>Results go to {@code <root>/<experiment>/<yyyyMMdd-HHmmss>/}: {@code manifest.json},
 * {@code descriptor.yaml}, {@code results.csv} and {@code hlog/<cell>-r<rep>.hlog} (TTLB; TTFB in
 * {@code .ttfb.hlog}). A cell's rows are appended only once all its repetitions have finished, and the
 * manifest says {@code partial} until the last cell is done, so an interrupted run (Ctrl-C, via a
 * shutdown hook) is consistent and can be resumed.
 *
 * <p>Hit-ratio method: before each repetition, one unmeasured pass fetches every object of the set
 * (working set / object size objects, at most max_objects) through the cache; during the measured run,
 * each request goes to a never-seen object with probability 1 - target and to the set otherwise, so a
 * cache that holds the set reaches the target. The achieved ratio is measured, by the client from
 * {@code X-Cache} and by the server's counters.
 *
 * <p>Not thread-safe: one run per instance at a time; runs are independent.
 */
public final class ExperimentRunner {

    private static final System.Logger LOG = System.getLogger(ExperimentRunner.class.getName());
    private static final Duration TARGET_START_TIMEOUT = Duration.ofSeconds(60);
    private static final DateTimeFormatter FOLDER_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    static final String HIT_RATIO_METHOD = "warm-up pass over the object set, then first-time share 1-target (loadgen ObjectWorkload)";

    private final Descriptor descriptor;
    private final RunOptions options;
    private final List<Cell> cells;
    private final Path directory;
    private final Path storeRoot;
    private final Manifest manifest;
    private final Progress progress;

    private ExperimentRunner(Descriptor descriptor, RunOptions options, Path directory) {
        this.descriptor = descriptor;
        this.options = options;
        this.cells = MatrixExpander.expand(descriptor);
        this.directory = directory;
        this.storeRoot = options.storeRoot() != null ? options.storeRoot() : directory.resolve("stores");
        this.manifest = new Manifest(directory.resolve("manifest.json"), descriptor, cells);
        this.progress = new Progress(options.progress(), cells.size(), descriptor.repetitions(), descriptor.load().duration());
    }

    /** Runs every cell not already finished and returns what the run folder holds. */
    public static RunResult run(Descriptor descriptor, RunOptions options) throws IOException {
        Path directory = options.resume() != null ? prepareResume(descriptor, options.resume())
                : newRunFolder(options.outputRoot().resolve(descriptor.name()));
        return new ExperimentRunner(descriptor, options, directory).runAll();
    }

    private static Path newRunFolder(Path parent) throws IOException {
        Files.createDirectories(parent);
        String stamp = FOLDER_TIME.format(Instant.now());
        for (int i = 1; ; i++) {
            Path candidate = parent.resolve(i == 1 ? stamp : stamp + "-" + i);
            try {
                return Files.createDirectory(candidate);
            } catch (FileAlreadyExistsException e) {
                // another run started in the same second: take the next name
            }
        }
    }

    private static Path prepareResume(Descriptor descriptor, Path folder) throws IOException {
        Path manifestFile = folder.resolve("manifest.json");
        if (!Files.isRegularFile(manifestFile)) {
            throw new IllegalArgumentException("cannot resume " + folder + ": it has no manifest.json (is it a run folder?)");
        }
        String experiment = Manifest.experimentOf(manifestFile);
        if (!descriptor.name().equals(experiment)) {
            throw new IllegalArgumentException("cannot resume " + folder + " with experiment '" + descriptor.name()
                    + "': that folder holds a run of '" + experiment + "'");
        }
        return folder;
    }

    private RunResult runAll() throws IOException {
        Files.createDirectories(directory.resolve("hlog"));
        Path descriptorCopy = directory.resolve("descriptor.yaml");
        if (!Files.exists(descriptorCopy)) {
            Files.writeString(descriptorCopy, descriptor.sourceText(), StandardCharsets.UTF_8);
        }
        Path csv = directory.resolve("results.csv");
        Set<String> finished = new HashSet<>();
        for (ResultRow row : ResultsCsv.read(csv)) {
            finished.add(row.get("cell"));
        }
        for (Descriptor.ServerBuild build : descriptor.servers()) {
            Optional<String> unavailable = Targets.get(build.target()).unavailableReason(build);
            if (unavailable.isPresent()) {
                throw new IllegalStateException("server '" + build.name() + "' (target " + build.target()
                        + ") cannot run on this machine: " + unavailable.get());
            }
        }
        int resumed = (int) cells.stream().filter(c -> finished.contains(c.id())).count();
        manifest.start(finished, options.resume() != null);
        descriptor.notes().forEach(note -> progress.note(note));

        Thread runner = Thread.currentThread();
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            if (done.getCount() > 0) {
                progress.note("interrupted: finishing with a partial result in " + directory);
                runner.interrupt();
                try {
                    done.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "edgelab-experiment-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int ran = 0;
        boolean interrupted = false;
        try {
            for (Cell cell : cells) {
                if (finished.contains(cell.id())) {
                    continue;
                }
                if (Thread.currentThread().isInterrupted()) {
                    interrupted = true;
                    break;
                }
                List<ResultRow> rows;
                try {
                    rows = runCell(cell);
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
                ResultsCsv.append(csv, rows);
                finished.add(cell.id());
                manifest.cellDone(cell.id());
                ran++;
            }
        } finally {
            boolean complete = !interrupted && cells.stream().allMatch(c -> finished.contains(c.id()));
            manifest.finish(complete ? "complete" : "partial");
            progress.close();
            deleteIfEmpty(directory.resolve("stores"));
            deleteIfEmpty(directory.resolve("targets"));
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running and waits for us
            }
            if (interrupted) {
                Thread.interrupted();
            }
        }
        boolean complete = cells.stream().allMatch(c -> finished.contains(c.id())) && !interrupted;
        List<String> notes = new ArrayList<>(descriptor.notes());
        notes.add("cpu: " + Manifest.CPU_NOTE);
        notes.add("power: " + Manifest.powerNote(descriptor));
        return new RunResult(directory, complete ? "complete" : "partial", cells.size(), ran, resumed,
                ResultsCsv.read(csv), notes);
    }

    private List<ResultRow> runCell(Cell cell) throws IOException, InterruptedException {
        Path storeDir = storeRoot.resolve(cell.fileName());
        Path workDir = directory.resolve("targets").resolve(cell.fileName());
        Files.createDirectories(workDir);
        Target target = Targets.get(cell.server().target());
        List<ResultRow> rows = new ArrayList<>();
        TargetContext context = new TargetContext(storeDir, workDir, descriptor.hardware(), TARGET_START_TIMEOUT);
        try (RunningTarget running = target.start(cell.server(), context)) {
            for (int rep = 1; rep <= descriptor.repetitions(); rep++) {
                rows.add(runRepetition(target, running, cell, rep));
            }
        } finally {
            deleteRecursively(storeDir);
            deleteIfEmpty(workDir);
        }
        return rows;
    }

    private ResultRow runRepetition(Target kind, RunningTarget target, Cell cell, int rep) throws IOException, InterruptedException {
        Descriptor.LoadProfile load = descriptor.load();
        long objects = Math.max(1, Math.min(load.maxObjects(), load.workingSet() / cell.objectSize().bytes()));
        long seed = descriptor.seed() * 1_000_003L + cell.index() * 1_009L + rep;
        ObjectWorkload workload = workload(cell, objects, load.targetHitRatio());
        int threads = Math.min(load.threads(), cell.connections());
        progress.phase(cell, rep, "warm-up");
        if (load.warmUp() && !cell.server().engine().equals(Descriptor.NO_CACHE)) {
            // the set's warm-up pass (every set object once, full) does not depend on the target
            Workload warmUp = workload(cell, objects, 1.0).warmUp();
            int warmConnections = (int) Math.min(cell.connections(), objects);
            LoadResult warm = LoadRunner.run(LoadConfig.builder().url(target.clientUri()).connections(warmConnections)
                    .threads(Math.min(threads, warmConnections)).duration(max(Duration.ofSeconds(60), load.duration().multipliedBy(4)))
                    .timeout(load.timeout()).requests(objects).workload(warmUp).seed(seed ^ 0x5bd1e995L).build());
            if (warm.counters().goodResponses() < objects) {
                progress.note("warm-up of " + cell.id() + " fetched " + warm.counters().goodResponses() + " of " + objects
                        + " objects intact (errors " + warm.counters().errorsByClass() + "); the hit ratio may fall short");
            }
        }
        LoadConfig config = LoadConfig.builder().url(target.clientUri()).connections(cell.connections()).threads(threads)
                .duration(load.duration()).timeout(load.timeout())
                .rate(load.rate() == null ? null : RateSchedule.parse(load.rate(), load.duration()))
                .workload(new MeasuredOnly(workload))
                .verify(target.syntheticContent())
                .link(cell.link().bitsPerSecond() == 0 && cell.link().oneWayLatency().isZero() ? LinkEmulation.NONE
                        : new LinkEmulation(cell.link().bitsPerSecond(), cell.link().oneWayLatency()))
                .seed(seed).build();
        ServerCounters before = target.counters();
        CpuSample cpuBefore = target.cpu();
        progress.phase(cell, rep, "measuring");
        progress.watch(() -> {
            try {
                return target.counters().requests();
            } catch (IOException e) {
                return -1L;
            }
        });
        LoadResult result;
        try {
            result = LoadRunner.run(config);
        } finally {
            progress.unwatch();
        }
        ServerCounters after = target.counters();
        CpuSample cpuAfter = target.cpu();
        String hlog = "hlog/" + cell.fileName() + "-r" + rep + ".hlog";
        String hlogTtfb = "hlog/" + cell.fileName() + "-r" + rep + ".ttfb.hlog";
        result.writeHlog(directory.resolve(hlog), LatencyLog.Kind.TTLB);
        result.writeHlog(directory.resolve(hlogTtfb), LatencyLog.Kind.TTFB);
        progress.repetitionDone(result.requestsPerSecond());
        return row(kind, cell, rep, result, before, after, cpuBefore, cpuAfter, hlog, hlogTtfb);
    }

    private ResultRow row(Target kind, Cell cell, int rep, LoadResult r, ServerCounters before, ServerCounters after,
                          CpuSample cpuBefore, CpuSample cpuAfter, String hlog, String hlogTtfb) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("experiment", descriptor.name());
        v.put("cell", cell.id());
        v.put("repetition", String.valueOf(rep));
        v.put("server", cell.server().name());
        v.put("target", cell.server().target());
        v.put("engine", cell.server().engine());
        v.put("object_size_bytes", String.valueOf(cell.objectSize().bytes()));
        v.put("connections", String.valueOf(cell.connections()));
        v.put("range_size_bytes", String.valueOf(cell.rangeSize().bytes()));
        v.put("link", cell.link().name());
        v.put("link_bps", String.valueOf(cell.link().bitsPerSecond()));
        v.put("link_latency_ms", num(cell.link().oneWayLatency().toNanos() / 1e6));
        double seconds = r.elapsedSeconds();
        long bytes = r.counters().bytesRead();
        double throughputBps = r.throughputBytesPerSecond() * 8;
        v.put("requests", String.valueOf(r.counters().completed()));
        v.put("duration_s", num(seconds));
        v.put("req_per_s", num(r.requestsPerSecond()));
        v.put("bytes", String.valueOf(bytes));
        v.put("throughput_bps", num(throughputBps));
        v.put("goodput_bps", num(r.goodputBytesPerSecond() * 8));
        percentiles(v, "ttfb", r.ttfb());
        percentiles(v, "ttlb", r.ttlb());
        v.put("errors_connect", String.valueOf(r.errors(ErrorClass.CONNECT)));
        v.put("errors_timeout", String.valueOf(r.errors(ErrorClass.TIMEOUT)));
        v.put("errors_status_4xx", String.valueOf(r.errors(ErrorClass.STATUS_4XX)));
        v.put("errors_status_5xx", String.valueOf(r.errors(ErrorClass.STATUS_5XX)));
        v.put("errors_truncated", String.valueOf(r.errors(ErrorClass.TRUNCATED)));
        v.put("errors_closed", String.valueOf(r.errors(ErrorClass.CLOSED)));
        v.put("errors_integrity", String.valueOf(r.errors(ErrorClass.INTEGRITY)));
        v.put("target_hit_ratio", num(descriptor.load().targetHitRatio()));
        v.put("hit_ratio_requests", num(r.hitRatio()));
        v.put("hit_ratio_bytes", num(r.byteHitRatio()));
        boolean cached = after.hasCacheCounters() && before.hasCacheCounters();
        v.put("server_hits", cached ? String.valueOf(after.hits() - before.hits()) : "");
        v.put("server_misses", cached ? String.valueOf(after.misses() - before.misses()) : "");
        v.put("server_requests", after.requests() < 0 ? "" : String.valueOf(after.requests() - before.requests()));
        v.put("server_bytes_to_clients", delta(before.bytesToClients(), after.bytesToClients()));
        v.put("server_bytes_from_origin", delta(before.bytesFromOrigin(), after.bytesFromOrigin()));
        double loadgenCpu = r.loopCpuSeconds();
        double jvmCpu = r.processCpuSeconds();
        boolean measured = cpuBefore.measured() && cpuAfter.measured();
        double serverCpu = measured ? Math.max(0, cpuAfter.serverSeconds() - cpuBefore.serverSeconds())
                : Math.max(0, jvmCpu - Math.max(0, loadgenCpu));
        v.put("cpu_s_server", num(serverCpu));
        v.put("cpu_s_loadgen", num(loadgenCpu));
        v.put("cpu_s_jvm_total", num(jvmCpu));
        v.put("cpu_method", cpuAfter.method());
        v.put("cpu_s_per_gb", bytes == 0 ? "" : num(serverCpu / (bytes / 1e9)));
        Descriptor.PowerModel power = descriptor.hardware().power();
        int activeDisks = kind.usesDisk(cell.server()) ? Math.max(1, descriptor.hardware().disks().size()) : 0;
        double busyCores = Math.min(descriptor.hardware().cores(), serverCpu / seconds);
        double watts = power.watts(busyCores, activeDisks);
        boolean modelled = !Double.isNaN(watts);
        v.put("power_w", modelled ? num(watts) : "");
        v.put("power_source", modelled ? "modelled" : "none");
        v.put("req_per_s_per_watt", modelled ? num(r.requestsPerSecond() / watts) : "");
        v.put("gbps_per_watt", modelled ? num(throughputBps / 1e9 / watts) : "");
        v.put("hlog", hlog);
        v.put("hlog_ttfb", hlogTtfb);
        return new ResultRow(v);
    }

    private static String delta(long before, long after) {
        return before < 0 || after < 0 ? "" : String.valueOf(after - before);
    }

    private ObjectWorkload workload(Cell cell, long objects, double targetHitRatio) {
        return ObjectWorkload.builder()
                .objects(objects)
                .popularity(descriptor.load().popularity())
                .sizes(String.valueOf(cell.objectSize().bytes()))
                .targetHitRatio(targetHitRatio)
                .rangeSize(cell.rangeSize().bytes())
                .namespace("c" + cell.index() + "-")
                .build();
    }

    private static void percentiles(Map<String, String> v, String prefix, Histogram h) {
        boolean empty = h.getTotalCount() == 0;
        v.put(prefix + "_p50_ms", empty ? "" : num(h.getValueAtPercentile(50) / 1e6));
        v.put(prefix + "_p90_ms", empty ? "" : num(h.getValueAtPercentile(90) / 1e6));
        v.put(prefix + "_p99_ms", empty ? "" : num(h.getValueAtPercentile(99) / 1e6));
        v.put(prefix + "_p999_ms", empty ? "" : num(h.getValueAtPercentile(99.9) / 1e6));
    }

    static String num(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "";
        }
        return new BigDecimal(value).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete store directory " + dir + ": " + e.getMessage());
        }
    }

    private static void deleteIfEmpty(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (IOException e) {
            // absent or not empty: leave it
        }
    }

    /** The measured workload without its own warm-up pass (the runner warms the cache itself, unmeasured). */
    private record MeasuredOnly(Workload workload) implements Workload {
        @Override
        public RequestGenerator newGenerator(long seed) {
            return workload.newGenerator(seed);
        }

        @Override
        public String describe() {
            return workload.describe();
        }
    }
}
