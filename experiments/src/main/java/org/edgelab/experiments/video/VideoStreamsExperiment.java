package org.edgelab.experiments.video;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.edgelab.experiments.client.ClientChoice;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.matrix.MatrixExpander;
import org.edgelab.experiments.power.PowerMeter;
import org.edgelab.experiments.power.PowerReading;
import org.edgelab.experiments.runner.CellLoop;
import org.edgelab.experiments.runner.ExperimentPlugin;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.Manifest;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.ResultsCsv;
import org.edgelab.experiments.runner.RunFolders;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.experiments.runner.SettledCounters;
import org.edgelab.experiments.target.CpuSample;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.Targets;
import org.edgelab.experiments.workload.VideoWorkload;
import org.edgelab.link.LinkUnavailableException;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.measure.CpuClock;
import org.edgelab.loadgen.video.SearchPlan;
import org.edgelab.loadgen.video.VideoConfig;
import org.edgelab.loadgen.video.VideoPhase;
import org.edgelab.loadgen.video.VideoResult;
import org.edgelab.loadgen.video.VideoRunner;
import org.edgelab.loadgen.workload.RequestGenerator;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;
import org.edgelab.units.Durations;

/**
 * The {@code video-streams} experiment (report C): for each server build, on its target, the stream-count
 * search of loadgen's {@link VideoRunner#search}: start {@code initial_streams} look-ahead players of the
 * descriptor's {@code video} workload, and while a step's window is healthy (frame prefetch p99, look-ahead,
 * dropped frames: the workload's health rule) add {@code step} more, up to {@code max_streams}. One row per
 * build and repetition: the highest healthy count and the figures of that step.
 *
 * <p>Before each search, when {@code load.warm_up} is on (the default), one unmeasured pass fetches each of
 * the {@code max_streams} stream objects in full through the cache, so the search measures serving from
 * the store rather than filling it from the origin. The descriptor's matrix must be {@code [server]}; its load gives the event loops ({@code threads}),
 * the frame timeout ({@code timeout}) and at most one client link. CPU and power cover the whole search
 * (every step, warm-ups included). Stateless and thread-safe; each run is independent.
 */
public final class VideoStreamsExperiment implements ExperimentPlugin {

    /** The columns of its results.csv. Units in the names; {@code _bps} is bits per second. */
    public static final List<String> COLUMNS = List.of(
            "experiment", "cell", "repetition", "server", "engine", "target",
            "streams_sustained", "search_capped", "streams_first_unhealthy", "limit",
            "stream_bitrate_bps", "fps", "frame_bytes", "look_ahead_frames",
            "frame_latency_p50_ms", "frame_latency_p99_ms", "min_lookahead_frames", "lookahead_p50_frames",
            "stalls", "dropped_frames", "frames_played", "goodput_bps", "errors",
            "steps", "duration_s", "server_hits", "server_misses", "server_bytes_to_clients", "server_bytes_from_origin",
            "cpu_s_server", "cpu_method", "power_w", "power_source");

    private static final List<Setting> SETTINGS = List.of(
            new Setting("initial_streams", "1", "streams of the first step"),
            new Setting("step", "1", "streams added after each healthy step"),
            new Setting("max_streams", "200", "the search stops here even if still healthy (search_capped = true)"),
            new Setting("step_warm_up", "5s", "unmeasured time after adding streams, for them to fill their look-ahead"),
            new Setting("step_measure", "10s", "measured window of each step"));

    /** Report C's bitrate per stream, bytes per second (UHD ProRes 422 at 30 fps, 560 Mbit/s). */
    public static final long REPORT_BITRATE = 70_000_000L;

    /** What a run must say about its bitrate when it is not report C's. */
    public static String scalingNote(long bitrate) {
        if (bitrate == REPORT_BITRATE) {
            return "streams play at report C's 70 MB/s";
        }
        return String.format(Locale.ROOT, "SCALED: streams play at %.3f MB/s = 1/%.3g of report C's 70 MB/s;"
                + " streams_sustained is not comparable with the report's 100-140 streams (only between builds of this run)",
                bitrate / 1e6, REPORT_BITRATE / (double) bitrate);
    }

    @Override
    public String name() {
        return "video-streams";
    }

    @Override
    public String description() {
        return "stream-count search: the most look-ahead players each server build sustains under the health rule (report C)";
    }

    @Override
    public List<Setting> settings() {
        return SETTINGS;
    }

    @Override
    public void validate(Descriptor d) {
        if (!d.load().workloadKind().equals("video")) {
            throw new SettingException("/load/workload/kind", "the video-streams experiment needs workload kind 'video', got '"
                    + d.load().workloadKind() + "'");
        }
        if (!d.matrix().equals(List.of("server"))) {
            throw new SettingException("/matrix", "the video-streams experiment searches one stream count per server build:"
                    + " its matrix is [server], got " + d.matrix());
        }
        if (!d.load().clients().equals(List.of(ClientChoice.LOADGEN))) {
            throw new SettingException("/load/client", "the video-streams experiment drives loadgen's look-ahead players;"
                    + " remove load.client");
        }
        if (d.load().rate() != null) {
            throw new SettingException("/load/rate", "the video-streams experiment is paced by the frame clock; remove rate");
        }
        plan(PluginSettings.of(d.settings()));
    }

    private static SearchPlan plan(PluginSettings s) {
        int initial = s.integer("initial_streams", 1, 1, 100_000);
        int step = s.integer("step", 1, 1, 100_000);
        int max = s.integer("max_streams", 200, 1, 100_000);
        if (max < initial) {
            throw new SettingException("max_streams", "must be at least initial_streams (" + initial + "), got " + max);
        }
        Duration measure = s.duration("step_measure", Duration.ofSeconds(10));
        if (measure.isZero()) {
            throw new SettingException("step_measure", "must be more than 0");
        }
        return new SearchPlan(initial, step, max, s.duration("step_warm_up", Duration.ofSeconds(5)), measure);
    }

    @Override
    public void printSummary(List<ResultRow> rows, PrintWriter out) {
        out.printf(Locale.ROOT, "%-28s %4s %9s %9s %12s %10s %8s %8s %10s%n", "cell", "rep", "streams", "MB/s/str",
                "frame p99 ms", "min ahead", "dropped", "W", "limit at");
        for (ResultRow r : rows) {
            out.printf(Locale.ROOT, "%-28s %4s %9s %9.3f %12s %10s %8s %8s %10s%n", r.get("cell"), r.get("repetition"),
                    r.get("streams_sustained") + ("true".equals(r.get("search_capped")) ? "+" : ""),
                    r.number("stream_bitrate_bps") / 8e6, dash(r.get("frame_latency_p99_ms")), dash(r.get("min_lookahead_frames")),
                    r.get("dropped_frames"), dash(r.get("power_w")), dash(r.get("streams_first_unhealthy")));
        }
        out.println("streams: highest healthy stream count (+ = still healthy at max_streams); limit at: first unhealthy count");
        out.flush();
    }

    private static String dash(String s) {
        return s.isEmpty() ? "-" : s;
    }

    @Override
    public RunResult run(Descriptor descriptor, RunOptions options) throws IOException {
        return new Run(descriptor, options, RunFolders.open(descriptor, options)).all();
    }

    /** One run: its folder, manifest and cells. Confined to the calling thread. */
    private static final class Run {
        private final Descriptor d;
        private final RunOptions options;
        private final Path directory;
        private final List<Cell> cells;
        private final VideoWorkload.Playback playback;
        private final SearchPlan plan;
        private final PowerMeter power;
        private final Manifest manifest;
        private final PrintStream progress;

        Run(Descriptor d, RunOptions options, Path directory) {
            this.d = d;
            this.options = options;
            this.directory = directory;
            this.cells = MatrixExpander.expand(d);
            this.playback = VideoWorkload.playback(PluginSettings.of(d.load().workloadSettings()));
            this.plan = plan(PluginSettings.of(d.settings()));
            this.power = d.hardware().powerMeter();
            this.progress = options.progress();
            Map<String, String> methods = new LinkedHashMap<>();
            methods.put("search", String.format(Locale.ROOT, "loadgen VideoRunner.search: %d streams, +%d per healthy step up"
                            + " to %d; each step %s unmeasured warm-up then a %s window; streams_sustained = highest healthy"
                            + " step (0 if none); search_capped = the last step was healthy at max_streams",
                    plan.initialStreams(), plan.step(), plan.maxStreams(), Durations.format(plan.warmUp()),
                    Durations.format(plan.measure())));
            methods.put("health", String.format(Locale.ROOT, "frame prefetch latency p99 <= %d ms, every warmed stream's"
                            + " look-ahead >= %d frames, every stream warmed, dropped frames <= %d (report C)",
                    playback.health().maxPrefetchP99().toMillis(), playback.health().minLookAheadFrames(),
                    playback.health().maxDroppedFrames()));
            methods.put("playback", String.format(Locale.ROOT, "%.3f MB/s per stream (stream_bitrate_bps = x8), %d fps,"
                            + " %d-byte frames as byte ranges, look-ahead %d frames, %d fetches per stream, %d frames per object",
                    playback.bitrateBytesPerSecond() / 1e6, playback.fps(), playback.frameBytes(), playback.lookAheadFrames(),
                    playback.fetchesPerStream(), playback.framesPerObject()));
            methods.put("scaling", scalingNote(playback.bitrateBytesPerSecond()));
            methods.put("figures", "frame latency, look-ahead, stalls, dropped frames, goodput and errors are of the step at"
                    + " streams_sustained (the first step when none was healthy); limit lists what broke at streams_first_unhealthy");
            methods.put("cpu", "cpu_s_server covers the whole search of a repetition (every step, warm-ups included); where the"
                    + " target cannot measure its processes (embedded) it is the JVM's CPU time, load generator included"
                    + " (cpu_method says which)");
            methods.put("power", power.method() + "; over the whole search of each repetition");
            this.manifest = new Manifest(directory.resolve("manifest.json"), d, cells, methods);
        }

        RunResult all() throws IOException {
            Path csv = directory.resolve("results.csv");
            Set<String> finished = RunFolders.begin(directory, d);
            int resumed = (int) cells.stream().filter(c -> finished.contains(c.id())).count();
            manifest.start(finished, options.resume() != null);
            d.notes().forEach(n -> say("note: " + n));
            say("note: " + scalingNote(playback.bitrateBytesPerSecond()));
            CellLoop.Outcome outcome = CellLoop.run(cells, finished, manifest, directory, this::say,
                    cell -> ResultsCsv.append(csv, COLUMNS, cell(cell)));
            boolean complete = outcome.complete();
            int ran = outcome.ran();
            List<String> notes = new ArrayList<>(d.notes());
            notes.add("playback: " + playbackNote());
            notes.add("scaling: " + scalingNote(playback.bitrateBytesPerSecond()));
            notes.add("power: " + power.method());
            return new RunResult(directory, complete ? "complete" : "partial", cells.size(), ran, resumed, ResultsCsv.read(csv), notes);
        }

        private String playbackNote() {
            return String.format(Locale.ROOT, "%.3f MB/s per stream, %d fps, look-ahead %d frames, health p99 <= %d ms and"
                            + " look-ahead >= %d frames", playback.bitrateBytesPerSecond() / 1e6, playback.fps(),
                    playback.lookAheadFrames(), playback.health().maxPrefetchP99().toMillis(), playback.health().minLookAheadFrames());
        }

        private List<ResultRow> cell(Cell cell) throws IOException, InterruptedException {
            Path storeDir = (options.storeRoot() != null ? options.storeRoot() : directory.resolve("stores")).resolve(cell.fileName());
            Path workDir = directory.resolve("targets").resolve(cell.fileName());
            Files.createDirectories(workDir);
            Target target = Targets.get(cell.server().target());
            List<ResultRow> rows = new ArrayList<>();
            Descriptor.Link link = cell.link();
            if (!link.isNone() && link.emulation().equals("kernel")) {
                // the players' link is loadgen's user-space one; a kernel link here would be a silent downgrade
                if (!link.fallback()) {
                    throw new LinkUnavailableException("link " + link.name() + ": video-streams plays its streams over the"
                            + " user-space link only; give the link 'emulation: user-space' (or 'fallback: user-space')");
                }
                say("link " + link.name() + ": user-space (video-streams plays over the user-space link only; the descriptor allows the fallback)");
            }
            try (RunningTarget running = target.start(cell.server(), ExperimentRunner.targetContext(d, storeDir, workDir))) {
                for (int rep = 1; rep <= d.repetitions(); rep++) {
                    rows.add(repetition(target, running, cell, rep));
                }
            } finally {
                RunFolders.deleteRecursively(storeDir);
                RunFolders.deleteIfEmpty(workDir);
            }
            return rows;
        }

        private ResultRow repetition(Target kind, RunningTarget running, Cell cell, int rep) throws IOException, InterruptedException {
            say(String.format(Locale.ROOT, "cell %d of %d, rep %d/%d, %s: searching from %d streams (+%d per healthy step, at most %d)",
                    cell.index() + 1, cells.size(), rep, d.repetitions(), cell.id(), plan.initialStreams(), plan.step(), plan.maxStreams()));
            Descriptor.Link link = cell.link();
            VideoConfig config = playback.apply(VideoConfig.builder())
                    .url(running.clientUri().toString())
                    .threads(d.load().threads())
                    .timeout(d.load().timeout())
                    .verify(running.syntheticContent())
                    .link(link.bitsPerSecond() == 0 && link.oneWayLatency().isZero() ? LinkEmulation.NONE
                            : new LinkEmulation(link.bitsPerSecond(), link.oneWayLatency()))
                    .namespace("c" + cell.index() + "-r" + rep + "-s")
                    .build();
            if (d.load().warmUp() && !cell.server().engine().equals(ServerBuild.NO_CACHE)) {
                warmUp(running, config, cell);
            }
            ServerCounters before = SettledCounters.read(running);
            CpuSample cpuBefore = running.cpu();
            long jvmBefore = CpuClock.processCpuNanos();
            PowerMeter.Window window = power.start();
            long start = System.nanoTime();
            VideoResult result = VideoRunner.search(config, plan);
            double seconds = (System.nanoTime() - start) / 1e9;
            long jvmAfter = CpuClock.processCpuNanos();
            CpuSample cpuAfter = running.cpu();
            ServerCounters after = SettledCounters.read(running);
            boolean measured = cpuBefore.measured() && cpuAfter.measured();
            double serverCpu = measured ? Math.max(0, cpuAfter.serverSeconds() - cpuBefore.serverSeconds()) : (jvmAfter - jvmBefore) / 1e9;
            PowerReading watts = window.finish(ExperimentRunner.utilisation(d, kind, cell.server(), serverCpu, seconds));
            for (VideoPhase p : result.phases()) {
                say("  " + p.describe(config.health()));
            }
            say("  -> " + result.highestHealthyStreams() + " streams sustained");

            int sustained = result.highestHealthyStreams();
            VideoPhase shown = result.phases().get(0);
            VideoPhase firstUnhealthy = null;
            for (VideoPhase p : result.phases()) {
                if (p.healthy(config.health()) && p.streams() == sustained) {
                    shown = p;
                }
                if (firstUnhealthy == null && !p.healthy(config.health())) {
                    firstUnhealthy = p;
                }
            }
            Map<String, String> v = new LinkedHashMap<>();
            v.put("experiment", d.name());
            v.put("cell", cell.id());
            v.put("repetition", String.valueOf(rep));
            v.put("server", cell.server().name());
            v.put("engine", cell.server().engine());
            v.put("target", cell.server().target());
            v.put("streams_sustained", String.valueOf(sustained));
            v.put("search_capped", String.valueOf(firstUnhealthy == null && result.last().streams() >= plan.maxStreams()));
            v.put("streams_first_unhealthy", firstUnhealthy == null ? "" : String.valueOf(firstUnhealthy.streams()));
            v.put("limit", firstUnhealthy == null ? "" : String.join("; ", firstUnhealthy.violations(config.health())));
            v.put("stream_bitrate_bps", String.valueOf(playback.bitrateBytesPerSecond() * 8));
            v.put("fps", String.valueOf(playback.fps()));
            v.put("frame_bytes", String.valueOf(playback.frameBytes()));
            v.put("look_ahead_frames", String.valueOf(playback.lookAheadFrames()));
            boolean frames = shown.frameLatency().getTotalCount() > 0;
            v.put("frame_latency_p50_ms", frames ? ExperimentRunner.num(shown.frameLatency().getValueAtPercentile(50) / 1e6) : "");
            v.put("frame_latency_p99_ms", frames ? ExperimentRunner.num(shown.frameLatency().getValueAtPercentile(99) / 1e6) : "");
            v.put("min_lookahead_frames", shown.minLookAheadWarmed() == Long.MAX_VALUE ? "" : String.valueOf(shown.minLookAheadWarmed()));
            v.put("lookahead_p50_frames", shown.lookAhead().getTotalCount() == 0 ? "" : String.valueOf(shown.lookAhead().getValueAtPercentile(50)));
            v.put("stalls", String.valueOf(shown.stalls()));
            v.put("dropped_frames", String.valueOf(shown.framesDropped()));
            v.put("frames_played", String.valueOf(shown.framesPlayed()));
            v.put("goodput_bps", ExperimentRunner.num(shown.http().goodBytes() * 8 / shown.seconds()));
            v.put("errors", String.valueOf(shown.http().totalErrors()));
            v.put("steps", String.valueOf(result.phases().size()));
            v.put("duration_s", ExperimentRunner.num(seconds));
            boolean cached = before.hasCacheCounters() && after.hasCacheCounters();
            v.put("server_hits", cached ? String.valueOf(after.hits() - before.hits()) : "");
            v.put("server_misses", cached ? String.valueOf(after.misses() - before.misses()) : "");
            v.put("server_bytes_to_clients", delta(before.bytesToClients(), after.bytesToClients()));
            v.put("server_bytes_from_origin", delta(before.bytesFromOrigin(), after.bytesFromOrigin()));
            v.put("cpu_s_server", ExperimentRunner.num(serverCpu));
            v.put("cpu_method", measured ? cpuAfter.method() : cpuAfter.method() + "+jvm-total-incl-loadgen");
            v.put("power_w", watts.present() ? ExperimentRunner.num(watts.watts()) : "");
            v.put("power_source", watts.source());
            return new ResultRow(v);
        }

        /**
         * Puts the objects every step of the search could play into the cache, unmeasured: one full fetch of
         * each of the {@code max_streams} stream objects (the search then measures serving from the store,
         * not filling it from the origin).
         */
        private void warmUp(RunningTarget running, VideoConfig config, Cell cell) throws InterruptedException {
            long objectSize = config.frameBytes() * config.framesPerObject();
            int objects = plan.maxStreams();
            say(String.format(Locale.ROOT, "  warm-up: %d stream objects of %.1f MB each, unmeasured", objects, objectSize / 1e6));
            Workload streamObjects = new Workload() {
                @Override
                public RequestGenerator newGenerator(long seed) {
                    return (ticket, slot) -> {
                        String id = config.namespace() + ticket;
                        slot.full(SyntheticPaths.path(id, objectSize), id, objectSize);
                    };
                }

                @Override
                public long size() {
                    return objects;
                }

                @Override
                public String describe() {
                    return "warm-up: each of " + objects + " stream objects once";
                }
            };
            int connections = Math.min(objects, 8);
            LoadResult warm = LoadRunner.run(LoadConfig.builder().url(running.clientUri()).connections(connections)
                    .threads(Math.min(d.load().threads(), connections)).requests(objects)
                    .duration(Duration.ofMinutes(10)).timeout(d.load().timeout().plusSeconds(objectSize / 10_000_000))
                    .workload(streamObjects).verify(running.syntheticContent()).seed(d.seed()).build());
            if (warm.counters().goodResponses() < objects) {
                say("  note: the warm-up of " + cell.id() + " fetched " + warm.counters().goodResponses() + " of " + objects
                        + " stream objects intact (errors " + warm.counters().errorsByClass() + ")");
            }
        }

        private static String delta(long before, long after) {
            return before < 0 || after < 0 ? "" : String.valueOf(after - before);
        }

        private void say(String line) {
            if (progress != null) {
                progress.println(line);
                progress.flush();
            }
        }
    }
}
