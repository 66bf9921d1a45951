package org.edgelab.loadgen.video;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.edgelab.loadgen.report.JsonReport;

/**
 * The outcome of a playback run (one window) or a stream-count search (one window per step, in the order measured),
 * with the highest stream count whose window was healthy below the lowest unhealthy one (0 when none was), that
 * unhealthy count, and whether the search's maximum was reached still healthy.
 *
 * <p>Immutable and thread-safe.
 */
public final class VideoResult {
    private final VideoConfig config;
    private final List<VideoPhase> phases;
    private final OptionalInt firstUnhealthy;
    private final boolean maxReached;

    VideoResult(VideoConfig config, List<VideoPhase> phases, OptionalInt firstUnhealthy, boolean maxReached) {
        this.config = config;
        this.phases = List.copyOf(phases);
        this.firstUnhealthy = firstUnhealthy;
        this.maxReached = maxReached;
    }

    /** The lowest unhealthy stream count a search measured; empty for a plain run and when every step was healthy. */
    public OptionalInt firstUnhealthyStreams() {
        return firstUnhealthy;
    }

    /** Whether a search measured its maximum and found it healthy: the limit is above what it was allowed to try. */
    public boolean maxReached() {
        return maxReached;
    }

    /** The configuration that ran. */
    public VideoConfig config() {
        return config;
    }

    /** One window per step (one for a plain run). */
    public List<VideoPhase> phases() {
        return phases;
    }

    /** The last window. */
    public VideoPhase last() {
        return phases.get(phases.size() - 1);
    }

    /** The highest stream count of a healthy window below {@link #firstUnhealthyStreams()}, 0 when none was healthy. */
    public int highestHealthyStreams() {
        int best = 0;
        for (VideoPhase p : phases) {
            if (p.healthy(config.health()) && (firstUnhealthy.isEmpty() || p.streams() < firstUnhealthy.getAsInt())) {
                best = Math.max(best, p.streams());
            }
        }
        return best;
    }

    /** {@link #printSummary(PrintWriter)} to a stream. */
    public void printSummary(PrintStream out) {
        printSummary(new PrintWriter(out));
    }

    /** Prints one line per window and the highest healthy count. */
    public void printSummary(PrintWriter out) {
        out.printf(Locale.ROOT, "Video playback @ %s%n  %s%n  health: prefetch p99 <= %d ms, look-ahead >= %d frames, "
                        + "dropped frames <= %d%n", config.url(), config.describe(), config.health().maxPrefetchP99().toMillis(),
                config.health().minLookAheadFrames(), config.health().maxDroppedFrames());
        for (VideoPhase p : phases) {
            out.println("  " + p.describe(config.health()));
        }
        out.printf(Locale.ROOT, "Highest healthy stream count: %d%s%n", highestHealthyStreams(), maxReached
                ? " (the search's maximum, still healthy: the limit is higher)"
                : firstUnhealthy.isPresent() ? " (unhealthy at " + firstUnhealthy.getAsInt() + ")" : "");
        out.flush();
    }

    /** Writes the windows, the verdict, the configuration and the environment as JSON. */
    public void writeJson(Path file) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("tool", "edgelab-loadgen video");
        root.put("config", config.describe());
        root.put("highest_healthy_streams", highestHealthyStreams());
        root.put("first_unhealthy_streams", firstUnhealthy.isPresent() ? firstUnhealthy.getAsInt() : null);
        root.put("max_reached", maxReached);
        List<Map<String, Object>> list = new ArrayList<>();
        for (VideoPhase p : phases) {
            list.add(p.figures(config.health()));
        }
        root.put("phases", list);
        root.put("environment", JsonReport.environment());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), root);
    }
}
