package org.edgelab.loadgen.video;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs video playback load: a fixed number of streams for the configured duration, or a search that adds
 * streams until the health rule breaks and reports the highest healthy count.
 *
 * <p>Thread-safety: stateless; each call has its own event loops and blocks until done.
 */
public final class VideoRunner {
    private VideoRunner() {
    }

    /** Plays {@code config.streams()} streams for {@code config.duration()} and measures the whole run as one window. */
    public static VideoResult run(VideoConfig config) throws InterruptedException {
        try (VideoEngine engine = new VideoEngine(config)) {
            engine.window(); // zero the window at the start
            engine.addStreams(config.streams());
            Thread.sleep(config.duration().toMillis());
            return new VideoResult(config, List.of(engine.window()));
        }
    }

    /**
     * Starts {@code plan.initialStreams()} streams and, while each step's window is healthy, adds
     * {@code plan.step()} more (the earlier ones keep playing) up to {@code plan.maxStreams()}.
     */
    public static VideoResult search(VideoConfig config, SearchPlan plan) throws InterruptedException {
        List<VideoPhase> phases = new ArrayList<>();
        try (VideoEngine engine = new VideoEngine(config)) {
            int target = plan.initialStreams();
            while (true) {
                engine.addStreams(target - engine.streams());
                Thread.sleep(plan.warmUp().toMillis());
                engine.window(); // discard the warm-up
                Thread.sleep(plan.measure().toMillis());
                VideoPhase phase = engine.window();
                phases.add(phase);
                if (!phase.healthy(config.health()) || target >= plan.maxStreams()) {
                    break;
                }
                target = Math.min(plan.maxStreams(), target + plan.step());
            }
        }
        return new VideoResult(config, phases);
    }
}
