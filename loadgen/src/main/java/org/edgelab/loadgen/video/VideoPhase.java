package org.edgelab.loadgen.video;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.measure.Counters;

/**
 * What a set of playback streams did during one measurement window: FramePrefetchLatency (ns),
 * CompleteAheadOfPlay samples (frames), frames played and dropped, stalls, the lowest look-ahead of any
 * warmed stream, how many streams were warmed, and the HTTP counters.
 *
 * <p>Immutable apart from the histograms, which callers must not modify; thread-safe to read.
 */
public record VideoPhase(int streams, double seconds, Histogram frameLatency, Histogram lookAhead, long framesFetched,
                         long framesPlayed, long framesDropped, long stalls, long minLookAheadWarmed,
                         int warmedStreams, Counters http) {

    /** The broken parts of {@code rule}, empty when healthy. */
    public List<String> violations(HealthRule rule) {
        List<String> v = new ArrayList<>();
        long p99 = frameLatency.getTotalCount() == 0 ? Long.MAX_VALUE : frameLatency.getValueAtPercentile(99);
        if (p99 > rule.maxPrefetchP99().toNanos()) {
            v.add(frameLatency.getTotalCount() == 0 ? "no frame fetched"
                    : String.format(Locale.ROOT, "prefetch p99 %.1f ms > %d ms", p99 / 1e6, rule.maxPrefetchP99().toMillis()));
        }
        if (warmedStreams < streams) {
            v.add((streams - warmedStreams) + " of " + streams + " streams never filled their look-ahead");
        }
        if (minLookAheadWarmed != Long.MAX_VALUE && minLookAheadWarmed < rule.minLookAheadFrames()) {
            v.add("look-ahead fell to " + minLookAheadWarmed + " < " + rule.minLookAheadFrames() + " frames");
        }
        if (framesDropped > rule.maxDroppedFrames()) {
            v.add(framesDropped + " dropped frames in " + stalls + " stalls");
        }
        return v;
    }

    /** True when no part of {@code rule} is broken. */
    public boolean healthy(HealthRule rule) {
        return violations(rule).isEmpty();
    }

    /** The figures as an ordered map (for JSON and CSV). */
    public Map<String, Object> figures(HealthRule rule) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("streams", streams);
        m.put("seconds", seconds);
        m.put("healthy", healthy(rule));
        m.put("violations", violations(rule));
        m.put("frames_fetched", framesFetched);
        m.put("frames_played", framesPlayed);
        m.put("frames_dropped", framesDropped);
        m.put("stalls", stalls);
        m.put("warmed_streams", warmedStreams);
        m.put("min_look_ahead_warmed_frames", minLookAheadWarmed == Long.MAX_VALUE ? null : minLookAheadWarmed);
        boolean f = frameLatency.getTotalCount() > 0;
        m.put("frame_prefetch_p50_ms", f ? frameLatency.getValueAtPercentile(50) / 1e6 : null);
        m.put("frame_prefetch_p99_ms", f ? frameLatency.getValueAtPercentile(99) / 1e6 : null);
        m.put("frame_prefetch_max_ms", f ? frameLatency.getMaxValue() / 1e6 : null);
        boolean l = lookAhead.getTotalCount() > 0;
        m.put("look_ahead_p1_frames", l ? lookAhead.getValueAtPercentile(1) : null);
        m.put("look_ahead_p50_frames", l ? lookAhead.getValueAtPercentile(50) : null);
        m.put("bytes", http.bytesRead());
        m.put("good_bytes", http.goodBytes());
        m.put("goodput_bps", http.goodBytes() * 8 / seconds);
        m.put("errors", http.errorsByClass());
        return m;
    }

    /** One summary line. */
    public String describe(HealthRule rule) {
        List<String> v = violations(rule);
        return String.format(Locale.ROOT, "%d streams: prefetch p99 %s, look-ahead min %s (p50 %s) frames, %d played, "
                        + "%d dropped, %d stalls, %.1f MB/s goodput -> %s", streams,
                frameLatency.getTotalCount() == 0 ? "-" : String.format(Locale.ROOT, "%.1fms", frameLatency.getValueAtPercentile(99) / 1e6),
                minLookAheadWarmed == Long.MAX_VALUE ? "-" : String.valueOf(minLookAheadWarmed),
                lookAhead.getTotalCount() == 0 ? "-" : String.valueOf(lookAhead.getValueAtPercentile(50)),
                framesPlayed, framesDropped, stalls, http.goodBytes() / seconds / 1e6,
                v.isEmpty() ? "healthy" : "UNHEALTHY (" + String.join("; ", v) + ")");
    }
}
