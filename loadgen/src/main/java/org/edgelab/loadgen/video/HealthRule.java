package org.edgelab.loadgen.video;

import java.time.Duration;

/**
 * When a set of playback streams counts as healthy: frame prefetch latency p99 at most
 * {@code maxPrefetchP99}, every warmed stream's look-ahead never below {@code minLookAheadFrames}, every
 * stream warmed, and at most {@code maxDroppedFrames} dropped frames. Defaults: 30 ms, 300 frames, 0.
 *
 * <p>Immutable and thread-safe.
 */
public record HealthRule(Duration maxPrefetchP99, int minLookAheadFrames, long maxDroppedFrames) {
    /** The rule of the video-streams reports: p99 <= 30 ms, look-ahead >= 300 frames, no dropped frame. */
    public static final HealthRule DEFAULT = new HealthRule(Duration.ofMillis(30), 300, 0);

    /** Validates the limits. */
    public HealthRule {
        if (maxPrefetchP99 == null || maxPrefetchP99.isNegative() || maxPrefetchP99.isZero()) {
            throw new IllegalArgumentException("the prefetch p99 limit must be > 0, got " + maxPrefetchP99);
        }
        if (minLookAheadFrames < 0 || maxDroppedFrames < 0) {
            throw new IllegalArgumentException("look-ahead and dropped-frame limits must be >= 0");
        }
    }
}
