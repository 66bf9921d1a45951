package org.edgelab.experiments.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.edgelab.experiments.process.Executables;
import org.edgelab.experiments.process.ManagedProcess;
import org.edgelab.measure.CpuClock;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;

/**
 * What the {@code wrk} and {@code wrk2} clients share: their settings and checks, the plan of the cell's
 * requests, EdgeLab's Lua script ({@code edgelab.lua}) and running the binary as a child process in the
 * cell's folder. {@code wrk} runs closed loop; {@code wrk2} at one fixed rate ({@code -R}). Immutable and
 * thread-safe.
 *
 * @param name         the plugin's name and the binary's default name
 * @param fixedRate    whether the tool sends at a fixed rate (wrk2) rather than closed loop (wrk)
 * @param installHint  how to get the binary, for the note when it is missing
 * @param planRequests requests in a cell's plan ({@link #PLAN_REQUESTS}); a thread that has sent its share
 *                     starts again, first-time objects renamed
 */
record WrkTool(String name, boolean fixedRate, String installHint, int planRequests) {

    /**
     * Requests in a cell's plan: enough for the popularity to show, few enough that wrk's threads read their
     * share quickly (wrk2's duration starts before its threads are set up).
     */
    static final int PLAN_REQUESTS = 20_000;
    /** How long after its duration a run may take to finish (wrk computes its percentiles in done()). */
    static final Duration FINISH_GRACE = Duration.ofSeconds(120);

    static final String BINARY = "binary";

    /** The tool with a plan of {@link #PLAN_REQUESTS} requests. */
    WrkTool(String name, boolean fixedRate, String installHint) {
        this(name, fixedRate, installHint, PLAN_REQUESTS);
    }
    static final String X_CACHE = "x_cache";

    List<Setting> settings() {
        return List.of(new Setting(BINARY, name, "the " + name + " executable: a path, or a name looked up on PATH and in the system directories"),
                new Setting(X_CACHE, "false", "count X-Cache hits and 4xx/5xx responses in Lua's response(); it makes " + name
                        + " collect every body, which costs it CPU at large objects"));
    }

    void validate(ClientLoad load, PluginSettings settings) {
        settings.requireOnly("load client '" + name + "'", settings());
        settings.bool(X_CACHE, false);
        if (settings.string(BINARY, name).isBlank()) {
            throw new SettingException(BINARY, "the " + name + " executable cannot be blank");
        }
        if (!load.workloadKind().equals("objects")) {
            throw new SettingException("/load/workload/kind", name + " replays the objects workload only (a plan of its"
                    + " requests); workload '" + load.workloadKind() + "' needs client loadgen");
        }
        if (load.userSpaceLink()) {
            throw new SettingException("/load/links", name + " cannot emulate a user-space link (nor one a kernel link may fall"
                    + " back to); behind a kernel link without fallback it runs in the link's client namespace, otherwise"
                    + " links need client loadgen");
        }
        if (fixedRate) {
            if (load.rate() == null) {
                throw new SettingException("/load/rate", name + " sends at one fixed rate (-R): give load.rate in requests per second");
            }
            if (!load.rate().trim().matches("[1-9][0-9]{0,8}")) {
                throw new SettingException("/load/rate", name + " takes one fixed rate, a whole number of requests per second"
                        + " (-R); got '" + load.rate() + "'");
            }
        } else if (load.rate() != null) {
            throw new SettingException("/load/rate", name + " runs closed loop and has no rate; for a fixed rate use client"
                    + " wrk2, or loadgen (which also ramps)");
        }
        if (load.requests() > 0) {
            throw new SettingException("/load/requests", name + " sends for a duration and cannot stop after a count of"
                    + " requests; leave load.requests out, or use client loadgen");
        }
        wholeSeconds("/load/duration", load.duration(), false);
        wholeSeconds("/load/settle", load.settle(), true);
        wholeSeconds("/load/timeout", load.timeout(), false);
        for (int connections : load.connections()) {
            int threads = Math.min(load.threads(), connections);
            if (connections % threads != 0) {
                throw new SettingException("/load/threads", name + " opens connections / threads connections per thread:"
                        + " connections (" + connections + ") must be a multiple of threads (" + threads + ")");
            }
        }
    }

    private void wholeSeconds(String pointer, Duration d, boolean zeroAllowed) {
        if ((d.isZero() && !zeroAllowed) || d.toNanos() % 1_000_000_000L != 0) {
            throw new SettingException(pointer, name + " takes whole seconds" + (zeroAllowed ? "" : " (at least 1s)")
                    + ", got " + d.toMillis() + " ms");
        }
    }

    Optional<String> unavailableReason(PluginSettings settings) {
        String binary = settings.string(BINARY, name);
        return executable(binary).isPresent() ? Optional.empty()
                : Optional.of(binary + " not found (" + installHint + "; or set the client's setting binary to its path)");
    }

    private static Optional<Path> executable(String binary) {
        if (binary.contains("/")) {
            Path path = Path.of(binary);
            return Files.isRegularFile(path) && Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
        }
        return Executables.find(binary);
    }

    ClientResult run(ClientRun run) throws IOException, InterruptedException {
        if (!run.link().isNone()) {
            throw new IOException(name + " cannot emulate a user-space link (" + run.link().describe() + "); behind a kernel link it"
                    + " runs in the client namespace, for a user-space link use client loadgen");
        }
        PluginSettings settings = run.settings();
        String binary = settings.string(BINARY, name);
        Path executable = executable(binary).orElseThrow(() -> new IOException(binary + " not found (" + installHint + ")"));
        boolean xCache = settings.bool(X_CACHE, false);
        Path dir = run.workDir().toAbsolutePath();
        Files.createDirectories(dir);
        String prefix = name + "-" + run.label();
        Path out = dir.resolve(prefix + ".json");
        Path script = dir.resolve(prefix + ".lua");
        Path planPrefix = dir.resolve(prefix + ".plan");
        Files.deleteIfExists(out);
        RequestPlan plan = RequestPlan.write(run.workload().renewed(), run.seed(), planRequests, run.threads(), planPrefix);
        Files.writeString(script, script(out, plan, xCache), StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(executable.toString(), "-t", String.valueOf(run.threads()),
                "-c", String.valueOf(run.connections()), "-d", run.duration().toSeconds() + "s",
                "--timeout", Math.max(1, run.timeout().toSeconds()) + "s", "-s", script.toString()));
        if (fixedRate) {
            command.addAll(List.of("-R", run.rate().trim()));
        }
        String base = run.uri().toString().replaceAll("/+$", "");
        command.add(base + (plan.singlePath() != null ? plan.singlePath() : "/"));
        long startMillis = System.currentTimeMillis();
        long jvmBefore = CpuClock.processCpuNanos();
        ManagedProcess process = ManagedProcess.start(prefix, command, dir);
        try {
            Optional<Integer> status = process.awaitExit(run.duration().plus(FINISH_GRACE));
            if (status.isEmpty()) {
                throw new IOException(name + " did not finish within " + run.duration().plus(FINISH_GRACE).toSeconds()
                        + " s; last lines of " + process.log() + ":\n" + process.tail(20));
            }
            if (status.get() != 0 || !Files.isRegularFile(out)) {
                throw new IOException(name + " exited with status " + status.get() + (Files.isRegularFile(out) ? "" : " without its figures")
                        + "; last lines of " + process.log() + ":\n" + process.tail(20));
            }
        } finally {
            process.close();
            for (Path file : plan.files()) {
                Files.deleteIfExists(file);
            }
        }
        double jvmSeconds = (CpuClock.processCpuNanos() - jvmBefore) / 1e9;
        return WrkReport.read(name, out, xCache, jvmSeconds, startMillis);
    }

    /** EdgeLab's Lua script with this run's constants filled in. */
    String script(Path out, RequestPlan plan, boolean xCache) {
        String levels = WrkReport.LEVELS.stream().map(p -> String.format(Locale.ROOT, "%.9g", p))
                .collect(Collectors.joining(", ", "{ ", " }"));
        return template().replace("@OUT@", lua(out.toString()))
                .replace("@PLAN@", plan.prefix() == null ? "nil" : lua(plan.prefix().toAbsolutePath().toString()))
                .replace("@LEVELS@", levels)
                .replace("@SAMPLE_COUNT@", String.valueOf(fixedRate))
                .replace("@X_CACHE@", String.valueOf(xCache));
    }

    /** A Lua string literal of {@code text}. */
    static String lua(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (byte octet : text.getBytes(StandardCharsets.UTF_8)) {
            int c = octet & 0xff;
            if (c == '"' || c == '\\') {
                b.append('\\').append((char) c);
            } else if (c < 0x20 || c > 0x7e) {
                b.append('\\').append(String.format(Locale.ROOT, "%03d", c));
            } else {
                b.append((char) c);
            }
        }
        return b.append('"').toString();
    }

    private static String template() {
        try (InputStream in = WrkTool.class.getResourceAsStream("edgelab.lua")) {
            if (in == null) {
                throw new IllegalStateException("edgelab.lua is missing from the class path next to " + WrkTool.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read edgelab.lua", e);
        }
    }
}
