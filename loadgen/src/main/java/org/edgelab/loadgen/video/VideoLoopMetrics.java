package org.edgelab.loadgen.video;

import org.HdrHistogram.Recorder;
import org.edgelab.loadgen.measure.LoopMetrics;

/**
 * Playback measurements of one event loop: frame prefetch latency (FramePrefetchLatency, ns from a frame
 * request's send to its last byte), look-ahead samples (CompleteAheadOfPlay, frames) and frame counters,
 * next to the loop's HTTP {@link LoopMetrics}.
 *
 * <p>Thread-safety: counters are written by the owning loop only and read through tasks on it; the
 * recorders may be flipped from another thread.
 */
final class VideoLoopMetrics {
    final LoopMetrics http = new LoopMetrics();
    final Recorder frameLatency = new Recorder(3);
    final Recorder lookAhead = new Recorder(3);
    long framesFetched;
    long framesPlayed;
    long framesDropped;
    long stalls;
}
