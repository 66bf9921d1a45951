package org.edgelab.loadgen.video;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Runs video playback load: a fixed number of streams for the configured duration, or a search ({@link StreamSearch})
 * that finds the highest stream count the health rule accepts.
 *
 * <p>Thread-safety: stateless; each call has its own event loops and blocks until done.
 */
public final class VideoRunner {
    private VideoRunner() {
    }

    /**
     * What a caller of {@link #search(VideoConfig, SearchPlan, StepListener)} is told as the search goes. Called on the
     * searching thread; a call may block (the search waits for it).
     */
    public interface StepListener {
        /** Before streams {@code from} to {@code to - 1} play for the first time (e.g. to put their objects in the cache). */
        default void starting(int from, int to) throws InterruptedException {
        }

        /** A step's measured window with {@code streams} streams starts now. */
        default void measuring(int streams) {
        }

        /** That window ended with {@code phase}. */
        default void measured(VideoPhase phase) {
        }
    }

    /** Plays {@code config.streams()} streams for {@code config.duration()} and measures the whole run as one window. */
    public static VideoResult run(VideoConfig config) throws InterruptedException {
        try (VideoEngine engine = new VideoEngine(config)) {
            engine.window(); // zero the window at the start
            engine.addStreams(config.streams());
            Thread.sleep(config.duration().toMillis());
            return new VideoResult(config, List.of(engine.window()), OptionalInt.empty(), false);
        }
    }

    /** {@link #search(VideoConfig, SearchPlan, StepListener)} with no listener. */
    public static VideoResult search(VideoConfig config, SearchPlan plan) throws InterruptedException {
        return search(config, plan, new StepListener() { });
    }

    /**
     * Searches as {@code plan} says; the streams of one step keep playing into the next, which adds or stops the
     * streams of the highest indices. Each step waits until every stream has filled its look-ahead, at most
     * {@code plan.warmUp()}, discards that time and measures {@code plan.measure()}.
     */
    public static VideoResult search(VideoConfig config, SearchPlan plan, StepListener listener) throws InterruptedException {
        List<VideoPhase> phases = new ArrayList<>();
        StreamSearch.Outcome outcome;
        try (VideoEngine engine = new VideoEngine(config)) {
            int[] started = {0};
            outcome = StreamSearch.run(plan, streams -> {
                if (streams > started[0]) {
                    listener.starting(started[0], streams);
                    started[0] = streams;
                }
                engine.setStreams(streams);
                long deadline = System.nanoTime() + plan.warmUp().toNanos();
                while (System.nanoTime() < deadline && engine.warmedStreams() < streams) {
                    Thread.sleep(Math.max(1, Math.min(100, (deadline - System.nanoTime()) / 1_000_000)));
                }
                engine.window(); // discard the warm-up
                listener.measuring(streams);
                Thread.sleep(plan.measure().toMillis());
                VideoPhase phase = engine.window();
                listener.measured(phase);
                phases.add(phase);
                return phase.healthy(config.health());
            });
        }
        return new VideoResult(config, phases, outcome.firstUnhealthy(), outcome.maxReached());
    }
}
