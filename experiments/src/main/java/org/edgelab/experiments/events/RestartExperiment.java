package org.edgelab.experiments.events;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.runner.AbstractExperimentPlugin;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.Manifest;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.experiments.runner.SeriesCsv;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.ServerRestart;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.measure.IntervalSnapshot;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;
import org.edgelab.units.Durations;

/**
 * The {@code restart} experiment (report A's "no costly refill after a restart"): for each server build and repetition,
 * on a new store, the set is warmed, the measured load starts, and at {@code kill_at} the server is SIGKILLed and
 * started again at once on the same store and port while the load keeps running (connection errors during the gap are
 * counted, not fatal). One row per build and repetition: the hit ratio before the kill, the outage, the restart's
 * time to first hit, the time until the hit ratio is back to {@code recovered_share} of its level before, the errors
 * during the outage and the bytes refetched from the origin (its own counters); {@code series.csv} holds the load per
 * second with the kill, the restart and the first hit marked. The builds' targets must be able to restart their server
 * (the process target and the Varnish and Traffic Server peers). Stateless and thread-safe; each run is independent.
 */
public final class RestartExperiment extends AbstractExperimentPlugin {

    /** The columns of its results.csv. */
    public static final List<String> COLUMNS = columns();

    /** What the report says beside a build whose store does not survive a restart by design. */
    static final String VARNISH_FILE_NOTE = "Varnish's file storage is not persistent: varnishd starts with an empty cache after any restart";

    private static final List<Setting> SETTINGS = List.of(
            new Setting("kill_at", "10s", "when in the measured load the server is SIGKILLed (then started again at once)"),
            new Setting("before_window", "5s", "the hit ratio before the kill is that of the load's last seconds before it"),
            new Setting("recovered_share", "0.9", "recovered: the first second whose hit ratio is at least this share of the level before"));

    private static List<String> columns() {
        List<String> c = new ArrayList<>(EventCell.columns());
        c.addAll(List.of("kill_at_s", "hit_ratio_before", "hit_ratio_first_s", "hit_ratio_after", "outage_s", "restart_listen_s",
                "time_to_first_hit_s", "recovery_s", "recovered", "gap_errors", "gap_errors_connect", "origin_bytes_before_kill",
                "origin_bytes_after_kill", "first_time_bytes_after_kill", "refetched_bytes", "set_bytes", "refetched_share",
                "set_misses_after_kill", "server_hits_after_restart",
                "server_misses_after_restart", "note", "hlog", "hlog_ttfb"));
        return List.copyOf(c);
    }

    public RestartExperiment() {
        super("restart", "SIGKILL the server mid-load and restart it on the same store: hit ratio recovery, refetched bytes, errors in the gap",
                SETTINGS, Run::new);
    }

    /** The settings, checked. */
    record Plan(Duration killAt, Duration beforeWindow, double recoveredShare) {
    }

    static Plan plan(Descriptor d) {
        PluginSettings s = PluginSettings.of(d.settings());
        Duration killAt = s.duration("kill_at", Duration.ofSeconds(10));
        Duration window = s.duration("before_window", Duration.ofSeconds(5));
        double share = s.number("recovered_share", 0.9, 0.01);
        if (share > 1) {
            throw new SettingException("recovered_share", "is a share of the hit ratio before the kill, at most 1; got " + share);
        }
        if (killAt.compareTo(Duration.ofSeconds(2)) < 0 || killAt.compareTo(d.load().duration()) >= 0) {
            throw new SettingException("kill_at", "must be at least 2s and before the end of the measured load (load.duration "
                    + Durations.format(d.load().duration()) + "), got " + Durations.format(killAt));
        }
        if (window.compareTo(Duration.ofSeconds(1)) < 0 || window.compareTo(killAt) > 0) {
            throw new SettingException("before_window", "must be at least 1s and at most kill_at (" + Durations.format(killAt)
                    + "), got " + Durations.format(window));
        }
        return new Plan(killAt, window, share);
    }

    @Override
    public void validate(Descriptor d) {
        EventCell.validate(d, name());
        for (ServerBuild b : d.servers()) {
            if (b.target().equals("embedded") || b.engine().equals(ServerBuild.NO_CACHE)) {
                throw new SettingException("/servers", "build " + b.name() + ": the restart experiment kills the server's process;"
                        + (b.engine().equals(ServerBuild.NO_CACHE) ? " a build without a cache has none to kill"
                        : " the embedded target shares the runner's JVM: give it target: process"));
            }
        }
        plan(d);
    }

    @Override
    public void printSummary(List<ResultRow> rows, PrintWriter out) {
        out.printf(Locale.ROOT, "%-34s %4s %8s %8s %9s %10s %11s %10s %9s%n", "cell", "rep", "hit bef", "outage s",
                "1st hit s", "recovery s", "refetched %", "gap errs", "hit 1st s");
        Set<String> notes = new java.util.LinkedHashSet<>();
        for (ResultRow r : rows) {
            out.printf(Locale.ROOT, "%-34s %4s %8s %8s %9s %10s %11s %10s %9s%n", r.get("cell"), r.get("repetition"),
                    EventCell.pct(r.number("hit_ratio_before")), dash(r.get("outage_s")), dash(r.get("time_to_first_hit_s")),
                    r.get("recovered").equals("true") ? r.get("recovery_s") : "never", EventCell.pct(r.number("refetched_share")),
                    r.get("gap_errors"), EventCell.pct(r.number("hit_ratio_first_s")));
            if (!r.get("note").isEmpty()) {
                notes.add(r.get("server") + ": " + r.get("note"));
            }
        }
        out.println("recovery s: from the restart until the hit ratio is back to the share of its level before the kill"
                + " (1 s resolution); refetched: origin bytes beyond its steady rate, as a share of the warmed set");
        notes.forEach(n -> out.println("note: " + n));
        out.flush();
    }

    /** One run: its plan, then a kill and restart in every repetition. Confined to the calling thread. */
    private static final class Run extends KindRun {
        private final Plan plan;

        Run(Descriptor d, RunOptions options, Path directory) {
            super(d, options, directory);
            this.plan = plan(d);
        }

        @Override
        protected Map<String, String> methods() {
            Map<String, String> methods = new LinkedHashMap<>();
            methods.put("restart", String.format(Locale.ROOT, "each repetition on a new store: the warm-up pass, then the measured"
                            + " load (%s); %s into it the server's process and its descendants are SIGKILLed and the same command is"
                            + " started again at once (same store, port and cgroup; the origin keeps running); the load keeps"
                            + " running, its connections reconnecting every 10 ms (connection errors counted)",
                    Durations.format(d.load().duration()), Durations.format(plan.killAt())));
            methods.put("hit_ratio_before", "hit ratio by requests (X-Cache) of the load's intervals ending in the "
                    + Durations.format(plan.beforeWindow()) + " before the kill; hit_ratio_first_s: of the first interval after"
                    + " the restart; hit_ratio_after: of every interval after it");
            methods.put("recovery_s", "seconds from the restart (listening again) to the end of the first 1-s interval whose hit"
                    + " ratio is at least " + plan.recoveredShare() + " of hit_ratio_before (recovered = false: none by the end)");
            methods.put("outage_s", "from the SIGKILL until the new process listens (restart_listen_s: from its start);"
                    + " time_to_first_hit_s: from the new process's start to its first hit, its counters polled every 50 ms");
            methods.put("gap_errors", "errors of every class (gap_errors_connect: connection errors) in the intervals the outage"
                    + " overlaps");
            methods.put("refetched_bytes", "bytes the origin sent (its own counter) from the kill to the end of the load, less"
                    + " first_time_bytes_after_kill (the responses to first-time objects after the kill, which the target hit ratio"
                    + " makes misses anyway, from loadgen's counters, times the object size); refetched_share = refetched_bytes /"
                    + " set_bytes (the warmed set); set_misses_after_kill: loadgen's count of requests for the set that missed");
            methods.put("varnish_file", VARNISH_FILE_NOTE);
            methods.put("series", "series.csv: the measured load per report interval (1 s) with rows for the events kill,"
                    + " listening and first-hit");
            methods.put("memory", Manifest.MEMORY_NOTE);
            return methods;
        }

        @Override
        protected RunResult all() throws IOException {
            // the Varnish file note goes with its rows (the summary prints it beside the figures) and the manifest
            sayNotes();
            return inFolder(COLUMNS, cell -> withSeries(cell, (c, rep, series) -> List.of(repetition(c, rep, series))));
        }

        private ResultRow repetition(Cell cell, int rep, SeriesCsv.Recorder series) throws IOException, InterruptedException {
            sayRepetition(cell, rep, "warm-up, then " + Durations.format(d.load().duration())
                    + " of load with a SIGKILL and restart at " + Durations.format(plan.killAt()));
            try (EventCell c = EventCell.start(d, options, directory, cell, rep, this::say)) {
                ServerRestart restart = c.running().restart().orElseThrow(() -> new IOException("the " + cell.server().target()
                        + " target cannot kill and restart its server; run EdgeLab's builds on the process target (target: process)"));
                c.warmUp(c.seed(0x5bd1e995L));
                c.settle(c.seed(0x27d4eb2dL));
                SeriesCsv.Recorder.Phase phase = series.phase(rep, "measured");
                List<IntervalSnapshot> seconds = new CopyOnWriteArrayList<>();
                // the kill follows the report of the interval that ends at kill_at: the intervals after it hold what
                // happened after the kill, give or take the milliseconds between the report and the signal
                double killAt = plan.killAt().toNanos() / 1e9;
                java.util.concurrent.CountDownLatch due = new java.util.concurrent.CountDownLatch(1);
                var config = c.load(c.workload(), d.load().duration(), c.seed(0)).requests(d.load().requests()).onInterval(IntervalListener.both(phase.listener(),
                        IntervalListener.ofSnapshots(s -> {
                            seconds.add(s);
                            if (s.secondsSinceStart() >= killAt - 0.1) {
                                due.countDown();
                            }
                        }))).build();
                long originStart = restart.originBytesSent();
                FutureTask<LoadResult> load = new FutureTask<>(() -> LoadRunner.measure(config));
                Thread loader = new Thread(load, "edgelab-restart-load");
                loader.setDaemon(true);
                Instant loadStart = Instant.now();
                loader.start();
                Event e;
                try {
                    e = killAndRestart(c, restart, loadStart, due, phase, load);
                } catch (IOException | RuntimeException | InterruptedException failed) {
                    loader.interrupt(); // the load stops with the cell; its event loops are shut down before it returns
                    loader.join(30_000);
                    throw failed;
                }
                LoadResult result;
                try {
                    result = load.get();
                } catch (ExecutionException ex) {
                    throw new IOException("the load of " + cell.id() + " failed: " + ex.getCause(), ex.getCause());
                } catch (InterruptedException stop) {
                    loader.interrupt(); // Ctrl-C: the load stops before the cell's servers do
                    loader.join(30_000);
                    throw stop;
                }
                long originEnd = restart.originBytesSent();
                // the part-second after loadgen's last report counts too
                phase.finish(result.start(), result.counters(), result.elapsedSeconds()).ifPresent(seconds::add);
                ServerCounters after = c.running().counters();
                manifest().cellDetail(cell.id(), "memory", c.resources().manifestEntry());
                return row(c, cell, rep, result, seconds, phase, e, originStart, originEnd, after);
            }
        }

        /** The instants of one kill and restart. */
        private record Event(Instant kill, Instant started, Instant listening, Instant firstHit, long originAtKill) {
        }

        private Event killAndRestart(EventCell c, ServerRestart restart, Instant loadStart, java.util.concurrent.CountDownLatch due,
                                     SeriesCsv.Recorder.Phase phase, FutureTask<LoadResult> load) throws IOException, InterruptedException {
            if (!due.await(d.load().duration().plusSeconds(30).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS) || load.isDone()) {
                throw new IOException("the measured load ended before the kill at " + Durations.format(plan.killAt())
                        + (d.load().requests() > 0 ? " (load.requests " + d.load().requests() + " may end it first: raise it)" : ""));
            }
            long originAtKill = restart.originBytesSent();
            Instant kill = Instant.now();
            restart.kill();
            phase.event("kill", kill);
            say("  SIGKILLed the server at " + Durations.format(plan.killAt()) + "; starting it again on the same store");
            Instant started = Instant.now();
            restart.start();
            Instant listening = Instant.now();
            phase.event("listening", listening);
            Instant end = loadStart.plus(d.load().duration());
            Instant firstHit = null;
            while (Instant.now().isBefore(end) && !load.isDone()) {
                try {
                    ServerCounters counters = c.running().counters();
                    if (counters.hasCacheCounters() && counters.hits() > 0) {
                        firstHit = Instant.now();
                        phase.event("first-hit", firstHit);
                        break;
                    }
                } catch (IOException notYet) {
                    // its counters may answer a moment after its client port
                }
                Thread.sleep(50);
            }
            say(String.format(Locale.ROOT, "  listening again %.2f s after the kill%s", secs(kill, listening),
                    firstHit == null ? ", no hit before the end of the load" : String.format(Locale.ROOT, ", first hit %.2f s after its start",
                            secs(started, firstHit))));
            return new Event(kill, started, listening, firstHit, originAtKill);
        }

        private ResultRow row(EventCell c, Cell cell, int rep, LoadResult result, List<IntervalSnapshot> seconds,
                              SeriesCsv.Recorder.Phase phase, Event e, long originStart, long originEnd, ServerCounters counters)
                throws IOException {
            Map<String, String> v = c.identity();
            v.putAll(c.loadColumns(result, "restart"));
            double kill = phase.secondsAt(e.kill());
            double listening = phase.secondsAt(e.listening());
            double hitBefore = Recovery.hitRatioBefore(seconds, kill, plan.beforeWindow().toNanos() / 1e9);
            OptionalDouble recovery = Recovery.recoverySeconds(seconds, listening, hitBefore, plan.recoveredShare());
            IntervalSnapshot first = seconds.stream().filter(s -> s.secondsSinceStart() > listening && s.cacheResponses() > 0)
                    .findFirst().orElse(null);
            v.put("kill_at_s", ExperimentRunner.num(kill));
            v.put("hit_ratio_before", ExperimentRunner.num(hitBefore));
            v.put("hit_ratio_first_s", first == null ? "" : ExperimentRunner.num(first.hitRatio()));
            v.put("hit_ratio_after", ExperimentRunner.num(Recovery.hitRatioAfter(seconds, listening)));
            v.put("outage_s", ExperimentRunner.num(secs(e.kill(), e.listening())));
            v.put("restart_listen_s", ExperimentRunner.num(secs(e.started(), e.listening())));
            v.put("time_to_first_hit_s", e.firstHit() == null ? "" : ExperimentRunner.num(secs(e.started(), e.firstHit())));
            v.put("recovery_s", recovery.isPresent() ? ExperimentRunner.num(recovery.getAsDouble()) : "");
            v.put("recovered", String.valueOf(recovery.isPresent()));
            v.put("gap_errors", String.valueOf(Recovery.errorsDuring(seconds, kill, listening, null)));
            v.put("gap_errors_connect", String.valueOf(Recovery.errorsDuring(seconds, kill, listening, ErrorClass.CONNECT)));
            boolean origin = originStart >= 0 && originEnd >= 0 && e.originAtKill() >= 0;
            long afterKill = e.originAtKill() < 0 || originEnd < 0 ? -1 : originEnd - e.originAtKill();
            v.put("origin_bytes_before_kill", origin ? String.valueOf(e.originAtKill() - originStart) : "");
            v.put("origin_bytes_after_kill", origin ? String.valueOf(afterKill) : "");
            long setBytes = c.setBytes();
            // the intervals that ended after the kill count the responses the origin served after it, give or take the
            // one in flight at the kill (its bytes counted by the origin before it)
            long firstTimeBytes = Recovery.firstTimeResponsesAfter(seconds, kill) * cell.objectSize().bytes();
            long refetched = Recovery.refetchedBytes(afterKill, firstTimeBytes);
            v.put("first_time_bytes_after_kill", String.valueOf(firstTimeBytes));
            v.put("refetched_bytes", origin ? String.valueOf(refetched) : "");
            v.put("set_bytes", String.valueOf(setBytes));
            v.put("refetched_share", origin && setBytes > 0 ? ExperimentRunner.num((double) refetched / setBytes) : "");
            v.put("set_misses_after_kill", String.valueOf(Recovery.setMissesAfter(seconds, kill)));
            v.put("server_hits_after_restart", counters.hasCacheCounters() ? String.valueOf(counters.hits()) : "");
            v.put("server_misses_after_restart", counters.hasCacheCounters() ? String.valueOf(counters.misses()) : "");
            v.put("note", cell.server().target().equals("varnish") && cell.server().engine().equals("file") ? VARNISH_FILE_NOTE : "");
            return new ResultRow(v);
        }

        private static double secs(Instant from, Instant to) {
            return Duration.between(from, to).toNanos() / 1e9;
        }
    }
}
