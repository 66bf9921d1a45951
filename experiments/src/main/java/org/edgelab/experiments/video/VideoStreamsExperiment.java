package org.edgelab.experiments.video;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.power.PowerMeter;
import org.edgelab.experiments.power.PowerReading;
import org.edgelab.experiments.runner.AbstractExperimentPlugin;
import org.edgelab.experiments.runner.CellResources;
import org.edgelab.experiments.runner.CellServer;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.KindChecks;
import org.edgelab.experiments.runner.Manifest;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.experiments.runner.SettledCounters;
import org.edgelab.experiments.target.CpuSample;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.ServerStatsReader;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.workload.NumberedObjects;
import org.edgelab.experiments.workload.VideoWorkload;
import org.edgelab.link.LinkUnavailableException;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.video.SearchPlan;
import org.edgelab.loadgen.video.VideoConfig;
import org.edgelab.loadgen.video.VideoPhase;
import org.edgelab.loadgen.video.VideoResult;
import org.edgelab.loadgen.video.VideoRunner;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.measure.CpuClock;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;
import org.edgelab.units.Durations;

/**
 * The {@code video-streams} experiment (report C): for each server build, on its target, the stream-count search of
 * loadgen's {@link VideoRunner#search}: look-ahead players of the descriptor's {@code video} workload, their count
 * doubled from {@code initial_streams} while a step's window is healthy (frame prefetch p99, look-ahead, dropped
 * frames: the workload's health rule) and then bisected between the highest healthy and the lowest unhealthy count
 * ({@code search: bracket}, the default, to {@code resolution} streams; {@code search: linear} adds {@code step}
 * instead), never beyond {@code max_streams}: a build still healthy there is reported as having reached it. One row
 * per build and repetition: the sustained count, the figures of its step and the server's I/O and memory in that
 * step's window (device bytes read per byte served, the tiered engine's memory and disk hits and promotions).
 *
 * <p>The server runs in the memory cgroup the runner makes for targets that run it in one ({@link CellResources}:
 * {@code target_settings.memory} or {@code hardware.memory}), so that the page cache cannot hold a working set several
 * times that memory. When {@code load.warm_up} is on (the default), the objects of streams that are about to play for
 * the first time are each fetched once in full through the cache first, unmeasured, so the search measures serving
 * from the store rather than filling it from the origin. The descriptor's matrix must be {@code [server]}; its load
 * gives the event loops ({@code threads}), the frame timeout ({@code timeout}) and at most one client link. CPU and
 * power cover the whole search (every step, warm-ups included). Stateless and thread-safe; each run is independent.
 */
public final class VideoStreamsExperiment extends AbstractExperimentPlugin {

    /** The columns of its results.csv. Units in the names; {@code _bps} is bits per second. */
    public static final List<String> COLUMNS = List.of(
            "experiment", "cell", "repetition", "server", "engine", "target",
            "streams_sustained", "search_capped", "streams_first_unhealthy", "limit",
            "stream_bitrate_bps", "fps", "frame_bytes", "look_ahead_frames",
            "frame_latency_p50_ms", "frame_latency_p99_ms", "min_lookahead_frames", "lookahead_p50_frames",
            "stalls", "dropped_frames", "frames_played", "goodput_bps", "errors",
            "steps", "duration_s", "server_hits", "server_misses", "server_bytes_to_clients", "server_bytes_from_origin",
            "cpu_s_server", "cpu_method", "power_w", "power_source",
            "search", "max_streams", "probes", "working_set_bytes", "window_s", "served_bytes",
            "memory_bound", "memory_limit_bytes", "device_read_bytes", "device_write_bytes", "read_syscalls", "write_syscalls",
            "read_amplification", "write_amplification", "rss_peak_bytes", "cgroup_memory_peak_bytes", "page_cache_start_bytes",
            "diskstats_read_bytes", "diskstats_write_bytes", "device_read_bps",
            "tier_memory_hits", "tier_disk_hits", "tier_promotions", "tier_bypassed_sequential",
            "unhealthy_read_amplification", "unhealthy_device_read_bps", "unhealthy_goodput_bps");

    /** The columns of a step's window read from the server's cgroup, /proc and stats (the rest come from loadgen). */
    private static final List<String> WINDOW_COLUMNS = List.of("window_s", "served_bytes", "memory_bound", "memory_limit_bytes",
            "device_read_bytes", "device_write_bytes", "read_syscalls", "write_syscalls", "read_amplification",
            "write_amplification", "rss_peak_bytes", "cgroup_memory_peak_bytes", "page_cache_start_bytes",
            "diskstats_read_bytes", "diskstats_write_bytes", "device_read_bps", "tier_memory_hits", "tier_disk_hits",
            "tier_promotions", "tier_bypassed_sequential");

    private static final List<Setting> SETTINGS = List.of(
            new Setting("search", "bracket", "bracket: double while healthy, then bisect to resolution; linear: +step until unhealthy"),
            new Setting("initial_streams", "1", "streams of the first step"),
            new Setting("step", "1", "linear search: streams added after each healthy step"),
            new Setting("resolution", "1", "bracket search: bisect until the healthy and the unhealthy count are this close"),
            new Setting("max_streams", "1024", "the search never tries more; a build healthy here is reported as reaching it"
                    + " (search_capped = true), not with a count beyond it"),
            new Setting("step_warm_up", "5s", "at most this long unmeasured after a step changes the count, until every stream"
                    + " has filled its look-ahead"),
            new Setting("step_measure", "10s", "measured window of each step"),
            new Setting("recheck", "1", "a step found unhealthy is measured again this many times and counts as unhealthy"
                    + " only if every measurement was (0: one measurement decides)"));

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

    public VideoStreamsExperiment() {
        super("video-streams", "stream-count search: the most look-ahead players each server build sustains under the health rule (report C)",
                SETTINGS, Run::new);
    }

    @Override
    public void validate(Descriptor d) {
        KindChecks.workload(d, name(), "video", "needs workload kind 'video'");
        if (!d.matrix().equals(List.of("server"))) {
            throw new SettingException("/matrix", "the video-streams experiment searches one stream count per server build:"
                    + " its matrix is [server], got " + d.matrix());
        }
        KindChecks.loadgenOnly(d, name(), "drives loadgen's look-ahead players");
        KindChecks.closedLoop(d, name(), "is paced by the frame clock");
        KindChecks.unboundedByRequests(d, name(), "measures each stream count of its search for step_measure");
        plan(PluginSettings.of(d.settings()));
    }

    private static SearchPlan plan(PluginSettings s) {
        String search = s.string("search", "bracket");
        SearchPlan.Growth growth = switch (search) {
            case "bracket" -> SearchPlan.Growth.BRACKET;
            case "linear" -> SearchPlan.Growth.LINEAR;
            default -> throw new SettingException("search", "must be bracket or linear, got '" + search + "'");
        };
        int initial = s.integer("initial_streams", 1, 1, 100_000);
        int step = s.integer("step", 1, 1, 100_000);
        int resolution = s.integer("resolution", 1, 1, 100_000);
        int max = s.integer("max_streams", 1024, 1, 100_000);
        if (max < initial) {
            throw new SettingException("max_streams", "must be at least initial_streams (" + initial + "), got " + max);
        }
        Duration measure = s.duration("step_measure", Duration.ofSeconds(10));
        if (measure.isZero()) {
            throw new SettingException("step_measure", "must be more than 0");
        }
        int recheck = s.integer("recheck", 1, 0, SearchPlan.MAX_RECHECK);
        return new SearchPlan(growth, initial, step, max, resolution, s.duration("step_warm_up", Duration.ofSeconds(5)), measure,
                recheck);
    }

    @Override
    public void printSummary(List<ResultRow> rows, PrintWriter out) {
        out.printf(Locale.ROOT, "%-34s %4s %12s %9s %9s %12s %10s %11s %10s %9s%n", "cell", "rep", "streams", "limit at",
                "MB/s/str", "frame p99 ms", "min ahead", "dev MB/s", "dev rd/B", "mem hits");
        for (ResultRow r : rows) {
            out.printf(Locale.ROOT, "%-34s %4s %12s %9s %9.3f %12s %10s %11s %10s %9s%n", r.get("cell"), r.get("repetition"),
                    streams(r), dash(r.get("streams_first_unhealthy")), r.number("stream_bitrate_bps") / 8e6,
                    dash(r.get("frame_latency_p99_ms")), dash(r.get("min_lookahead_frames")),
                    r.get("device_read_bps").isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f", r.number("device_read_bps") / 1e6),
                    dash(r.get("read_amplification")), memoryHitShare(r));
        }
        out.println("streams: highest healthy count below the lowest unhealthy one (limit at); \"max N reached\" = still"
                + " healthy at the search's maximum, no limit measured; dev MB/s and dev rd/B (device bytes read per byte"
                + " served): the server's device reads in the window of the sustained step; mem hits: the tiered memory"
                + " tier's share of its hits there; the run's notes end with a verdict per build against the first");
        out.flush();
    }

    private static String streams(ResultRow r) {
        return "true".equals(r.get("search_capped")) ? "max " + r.get("streams_sustained") + " reached" : r.get("streams_sustained");
    }

    private static String memoryHitShare(ResultRow r) {
        if (r.get("tier_memory_hits").isEmpty() || r.get("tier_disk_hits").isEmpty()) {
            return "-";
        }
        double m = r.number("tier_memory_hits");
        double total = m + r.number("tier_disk_hits");
        return total == 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * m / total);
    }

    /**
     * Whether each build raises the stream count over the first build of the run (its baseline), as report C's bypass
     * and read-ahead did (+40 %), with the I/O behind it: a build raises it when its lowest sustained count over the
     * repetitions is at or above the baseline's highest unhealthy one, lowers it in the opposite case, and otherwise the
     * brackets overlap (no measured difference).
     */
    static List<String> verdict(List<ResultRow> rows) {
        Map<String, List<ResultRow>> byServer = new LinkedHashMap<>();
        for (ResultRow r : rows) {
            byServer.computeIfAbsent(r.get("server"), k -> new ArrayList<>()).add(r);
        }
        List<String> lines = new ArrayList<>();
        if (byServer.size() < 2) {
            return lines;
        }
        Map.Entry<String, List<ResultRow>> baseline = byServer.entrySet().iterator().next();
        Bracket base = Bracket.of(baseline.getValue());
        for (Map.Entry<String, List<ResultRow>> e : byServer.entrySet()) {
            if (e == baseline || e.getKey().equals(baseline.getKey())) {
                continue;
            }
            Bracket b = Bracket.of(e.getValue());
            String verdict;
            if (b.maxReached && base.maxReached) {
                verdict = "both reached the search's maximum: not told apart (raise max_streams)";
            } else if (b.lowestSustained >= base.highestUnhealthy) {
                verdict = "RAISES the stream count";
            } else if (base.lowestSustained >= b.highestUnhealthy) {
                verdict = "LOWERS the stream count";
            } else {
                verdict = "no measured difference (the brackets overlap)";
            }
            lines.add(String.format(Locale.ROOT, "verdict: %s vs %s: %s (%s vs %s streams, %s); device bytes read per byte"
                            + " served %s vs %s, device reads %s vs %s MB/s at the sustained step", e.getKey(), baseline.getKey(),
                    verdict, b.describe(), base.describe(), base.median > 0
                            ? String.format(Locale.ROOT, "%+.0f %% by median", 100.0 * (b.median - base.median) / base.median)
                            : "baseline sustained none",
                    b.readAmplification, base.readAmplification, b.deviceMbps, base.deviceMbps));
        }
        return lines;
    }

    /** A build's sustained counts over its repetitions. */
    private record Bracket(double lowestSustained, double highestUnhealthy, double median, boolean maxReached,
                           String readAmplification, String deviceMbps, String counts) {
        static Bracket of(List<ResultRow> rows) {
            double low = Double.MAX_VALUE;
            double high = 0;
            boolean max = false;
            List<Double> sustained = new ArrayList<>();
            List<Double> amplification = new ArrayList<>();
            List<Double> device = new ArrayList<>();
            for (ResultRow r : rows) {
                double s = r.number("streams_sustained");
                sustained.add(s);
                low = Math.min(low, s);
                if ("true".equals(r.get("search_capped"))) {
                    max = true;
                    high = Double.MAX_VALUE;
                } else if (!r.get("streams_first_unhealthy").isEmpty()) {
                    high = Math.max(high, r.number("streams_first_unhealthy"));
                }
                if (!r.get("read_amplification").isEmpty()) {
                    amplification.add(r.number("read_amplification"));
                }
                if (!r.get("device_read_bps").isEmpty()) {
                    device.add(r.number("device_read_bps") / 1e6);
                }
            }
            return new Bracket(low, high, median(sustained), max,
                    amplification.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f", median(amplification)),
                    device.isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f", median(device)),
                    sustained.stream().map(d -> String.valueOf(d.intValue())).collect(java.util.stream.Collectors.joining("/")));
        }

        String describe() {
            return counts + (maxReached ? " (max reached)" : "");
        }

        private static double median(List<Double> values) {
            List<Double> sorted = new ArrayList<>(values);
            java.util.Collections.sort(sorted);
            int n = sorted.size();
            return n == 0 ? Double.NaN : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        }
    }

    /** One run: its playback, search plan and power meter, then a search in every repetition. Confined to the calling thread. */
    private static final class Run extends KindRun {
        private final VideoWorkload.Playback playback;
        private final SearchPlan plan;
        private final PowerMeter power;

        Run(Descriptor d, RunOptions options, Path directory) {
            super(d, options, directory);
            this.playback = VideoWorkload.playback(PluginSettings.of(d.load().workloadSettings()));
            this.plan = plan(PluginSettings.of(d.settings()));
            this.power = d.hardware().powerMeter();
        }

        @Override
        protected Map<String, String> methods() {
            Map<String, String> methods = new LinkedHashMap<>();
            methods.put("search", "loadgen VideoRunner.search, " + plan.describe() + "; each step at most "
                    + Durations.format(plan.warmUp()) + " unmeasured (until every stream has filled its look-ahead) then a "
                    + Durations.format(plan.measure()) + " window; a lower count stops the streams of the highest indices, the"
                    + " others play on; streams_sustained = the highest healthy count below streams_first_unhealthy, the lowest"
                    + " count found unhealthy (0 if none was healthy); search_capped = max_streams was measured and healthy,"
                    + " so no limit was found and streams_sustained is the maximum, not the limit; probes = every count in order");
            methods.put("warm_up", playback.objects() > 0
                    ? "before each repetition's search, each of the " + playback.objects() + " objects of the library"
                            + " (workload working_set) is fetched once in full through the cache, unmeasured, so that the search"
                            + " serves from the store; every stream plays the library's objects in turn from a start spread over"
                            + " it, so a stream re-reads a byte only after about working_set_bytes of other streams' reads"
                    : "before streams play for the first time, each of their objects (stream i loops over object i of its"
                            + " repetition) is fetched once in full through the cache, unmeasured, so that the search serves from"
                            + " the store; working_set_bytes = the objects of the highest count played x object size");
            methods.put("window_io", "the I/O and memory columns (device_read_bytes ... diskstats_write_bytes, device_read_bps,"
                    + " tier_*) are of the measured window of the step at streams_sustained (unhealthy_*: of the step at"
                    + " streams_first_unhealthy): served_bytes = bytes the players received in it; read_amplification ="
                    + " device_read_bytes / served_bytes; tier_*: the tiered engine's memory-tier hits, disk-tier hits,"
                    + " promotions into memory and readers kept out of memory as sequential (bypass) in the window, from its /stats");
            methods.put("memory", Manifest.MEMORY_NOTE);
            methods.put("io", Manifest.IO_NOTE);
            methods.put("page_cache", Manifest.PAGE_CACHE_NOTE);
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
            return methods;
        }

        @Override
        protected RunResult all() throws IOException {
            sayNotes();
            say("note: " + scalingNote(playback.bitrateBytesPerSecond()));
            RunResult result = inFolder(COLUMNS, this::cell);
            List<String> notes = new ArrayList<>();
            notes.add("playback: " + playbackNote());
            notes.add("scaling: " + scalingNote(playback.bitrateBytesPerSecond()));
            notes.add("power: " + power.method());
            notes.addAll(verdict(result.rows()));
            return result.withNotes(notes);
        }

        private String playbackNote() {
            return String.format(Locale.ROOT, "%.3f MB/s per stream, %d fps, look-ahead %d frames, health p99 <= %d ms and"
                            + " look-ahead >= %d frames", playback.bitrateBytesPerSecond() / 1e6, playback.fps(),
                    playback.lookAheadFrames(), playback.health().maxPrefetchP99().toMillis(), playback.health().minLookAheadFrames());
        }

        private List<ResultRow> cell(Cell cell) throws IOException, InterruptedException {
            Descriptor.Link link = cell.link();
            if (!link.isNone() && link.emulation().equals("kernel")) {
                // the players' link is loadgen's user-space one; a kernel link here would be a silent downgrade
                if (!link.fallback()) {
                    throw new LinkUnavailableException("link " + link.name() + ": video-streams plays its streams over the"
                            + " user-space link only; give the link 'emulation: user-space' (or 'fallback: user-space')");
                }
                say("link " + link.name() + ": user-space (video-streams plays over the user-space link only; the descriptor allows the fallback)");
            }
            List<ResultRow> rows = new ArrayList<>();
            try (CellServer server = CellServer.start(d, options, directory, cell, cell.fileName())) {
                for (int rep = 1; rep <= d.repetitions(); rep++) {
                    rows.add(repetition(server.target(), server.running(), server.resources(), cell, rep));
                }
                manifest().cellDetail(cell.id(), "memory", server.resources().manifestEntry());
            }
            return rows;
        }

        private ResultRow repetition(Target kind, RunningTarget running, CellResources resources, Cell cell, int rep)
                throws IOException, InterruptedException {
            sayRepetition(cell, rep, plan.describe());
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
            boolean warm = d.load().warmUp() && !cell.server().engine().equals(ServerBuild.NO_CACHE);
            if (warm && playback.objects() > 0) {
                warmUp(running, config, cell, 0, playback.objects());
            }
            ServerCounters before = SettledCounters.read(running);
            CpuSample cpuBefore = running.cpu();
            long jvmBefore = CpuClock.processCpuNanos();
            PowerMeter.Window window = power.start();
            long start = System.nanoTime();
            Windows windows = new Windows(running, resources, config, warm && playback.objects() == 0, cell);
            VideoResult result = VideoRunner.search(config, plan, windows);
            double seconds = (System.nanoTime() - start) / 1e9;
            long jvmAfter = CpuClock.processCpuNanos();
            CpuSample cpuAfter = running.cpu();
            ServerCounters after = SettledCounters.read(running);
            boolean measured = cpuBefore.measured() && cpuAfter.measured();
            double serverCpu = measured ? Math.max(0, cpuAfter.serverSeconds() - cpuBefore.serverSeconds()) : (jvmAfter - jvmBefore) / 1e9;
            PowerReading watts = window.finish(ExperimentRunner.utilisation(d, kind, cell.server(), serverCpu, seconds));
            for (int i = 0; i < result.phases().size(); i++) {
                say("  " + result.phases().get(i).describe(config.health()) + windows.describe(i));
            }
            int sustained = result.highestHealthyStreams();
            say("  -> " + (result.maxReached() ? "still healthy at the maximum of " + sustained + " streams: no limit found"
                    : sustained + " streams sustained, unhealthy at " + result.firstUnhealthyStreams().orElse(0)));

            int shownIndex = 0;
            int unhealthyIndex = -1;
            for (int i = 0; i < result.phases().size(); i++) {
                VideoPhase p = result.phases().get(i);
                if (p.healthy(config.health()) && p.streams() == sustained) {
                    shownIndex = i;
                }
                if (result.firstUnhealthyStreams().isPresent() && p.streams() == result.firstUnhealthyStreams().getAsInt()
                        && !p.healthy(config.health())) {
                    unhealthyIndex = i;
                }
            }
            VideoPhase shown = result.phases().get(shownIndex);
            VideoPhase firstUnhealthy = unhealthyIndex < 0 ? null : result.phases().get(unhealthyIndex);
            Map<String, String> v = new LinkedHashMap<>();
            v.put("experiment", d.name());
            v.put("cell", cell.id());
            v.put("repetition", String.valueOf(rep));
            v.put("server", cell.server().name());
            v.put("engine", cell.server().engine());
            v.put("target", cell.server().target());
            v.put("streams_sustained", String.valueOf(sustained));
            v.put("search_capped", String.valueOf(result.maxReached()));
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
            v.put("search", plan.growth().name().toLowerCase(Locale.ROOT));
            v.put("max_streams", String.valueOf(plan.maxStreams()));
            v.put("probes", result.phases().stream().map(p -> String.valueOf(p.streams())).collect(java.util.stream.Collectors.joining(" ")));
            v.put("working_set_bytes", String.valueOf((playback.objects() > 0 ? playback.objects() : windows.started) * playback.objectBytes()));
            Map<String, String> io = windows.columns(shownIndex);
            for (String column : WINDOW_COLUMNS) {
                v.put(column, io.getOrDefault(column, ""));
            }
            Map<String, String> bad = unhealthyIndex < 0 ? Map.of() : windows.columns(unhealthyIndex);
            v.put("unhealthy_read_amplification", bad.getOrDefault("read_amplification", ""));
            v.put("unhealthy_device_read_bps", bad.getOrDefault("device_read_bps", ""));
            v.put("unhealthy_goodput_bps", firstUnhealthy == null ? ""
                    : ExperimentRunner.num(firstUnhealthy.http().goodBytes() * 8 / firstUnhealthy.seconds()));
            return new ResultRow(v);
        }

        /**
         * Follows the search: warms the objects of streams about to play for the first time, and samples the server's
         * counters, I/O, memory and store figures around every measured window. Used on the searching thread only.
         */
        private final class Windows implements VideoRunner.StepListener {
            private final RunningTarget running;
            private final CellResources resources;
            private final VideoConfig config;
            private final boolean warm;
            private final Cell cell;
            private final List<Map<String, String>> columns = new ArrayList<>();
            private int started;
            private long windowStart;
            private ServerCounters countersBefore;
            private CellResources.Sample sampleBefore;
            private Map<String, Double> storeBefore;

            Windows(RunningTarget running, CellResources resources, VideoConfig config, boolean warm, Cell cell) {
                this.running = running;
                this.resources = resources;
                this.config = config;
                this.warm = warm;
                this.cell = cell;
            }

            @Override
            public void starting(int from, int to) throws InterruptedException {
                started = Math.max(started, to);
                if (warm) {
                    warmUp(running, config, cell, from, to);
                }
            }

            @Override
            public void measuring(int streams) {
                windowStart = System.nanoTime();
                countersBefore = counters();
                sampleBefore = resources.sample(running);
                storeBefore = store();
            }

            @Override
            public void measured(VideoPhase phase) {
                double seconds = (System.nanoTime() - windowStart) / 1e9;
                ServerCounters countersAfter = counters();
                CellResources.Sample sampleAfter = resources.sample(running);
                Map<String, Double> storeAfter = store();
                long served = phase.http().bytesRead();
                long fromOrigin = countersBefore != null && countersAfter != null && countersBefore.bytesFromOrigin() >= 0
                        && countersAfter.bytesFromOrigin() >= 0 ? countersAfter.bytesFromOrigin() - countersBefore.bytesFromOrigin() : -1;
                Map<String, String> v = new LinkedHashMap<>(resources.columns(sampleBefore, sampleAfter, served, fromOrigin));
                v.put("window_s", ExperimentRunner.num(seconds));
                v.put("served_bytes", String.valueOf(served));
                v.put("device_read_bps", v.get("device_read_bytes").isEmpty() ? ""
                        : ExperimentRunner.num(Double.parseDouble(v.get("device_read_bytes")) / seconds));
                v.put("tier_memory_hits", storeDelta("memory_hits", storeAfter));
                v.put("tier_disk_hits", storeDelta("disk_hits", storeAfter));
                v.put("tier_promotions", storeDelta("promotions", storeAfter));
                v.put("tier_bypassed_sequential", storeDelta("bypassed_sequential", storeAfter));
                columns.add(v);
            }

            private ServerCounters counters() {
                try {
                    return running.counters();
                } catch (IOException e) {
                    return null;
                }
            }

            private Map<String, Double> store() {
                try {
                    return running.cacheStats().map(ServerStatsReader::storeFigures).orElse(Map.of());
                } catch (IOException e) {
                    return Map.of();
                }
            }

            private String storeDelta(String name, Map<String, Double> after) {
                Double a = after.get(name);
                Double b = storeBefore.get(name);
                return a == null || b == null ? "" : String.valueOf((long) (a - b));
            }

            Map<String, String> columns(int phase) {
                return phase < columns.size() ? columns.get(phase) : Map.of();
            }

            /** The window's device reads, for the progress lines. */
            String describe(int phase) {
                Map<String, String> v = columns(phase);
                String read = v.getOrDefault("device_read_bps", "");
                return read.isEmpty() ? "" : String.format(Locale.ROOT, "; device reads %.1f MB/s, %s per byte served",
                        Double.parseDouble(read) / 1e6, v.get("read_amplification"));
            }
        }

        /**
         * Puts the objects of streams {@code from} to {@code to - 1} into the cache, unmeasured: one full fetch of each
         * (the search then measures serving from the store, not filling it from the origin).
         */
        private void warmUp(RunningTarget running, VideoConfig config, Cell cell, int from, int to) throws InterruptedException {
            long objectSize = config.frameBytes() * config.framesPerObject();
            int objects = to - from;
            say(String.format(Locale.ROOT, "  warm-up: stream objects %d to %d of %.1f MB each, unmeasured", from, to - 1, objectSize / 1e6));
            Workload streamObjects = new NumberedObjects(config.namespace(), from, objects, objectSize,
                    "warm-up: stream objects " + from + " to " + (to - 1) + " once each");
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
    }
}
