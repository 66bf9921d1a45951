package org.edgelab.cache.admin;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * How long the phases of answering a request take inside the server, since start, one
 * HdrHistogram (nanoseconds, 3 significant digits) per {@link Phase}, like the timestamps Varnish
 * logs per request. They split a client's time to first byte into the server's own parts, so a
 * slow miss shows whether it waited for the origin or for its own event loop.
 *
 * <p>Thread-safe: every event loop records concurrently ({@link ConcurrentHistogram}); a snapshot
 * copies each histogram.
 */
public final class PhaseTimes {

    /** A measured phase; its {@link #label()} names it in {@code /stats} and in Prometheus. */
    public enum Phase {
        /** A hit: from the request's start (its head decoded) to the end of the first write of its response (headers and first chunks, flushed). */
        HIT_FIRST_WRITE,
        /** A miss: from the request's start to the end of the first write of its response (the headers, once the origin's arrived). */
        MISS_FIRST_WRITE,
        /** A miss: from the start of the origin fetch to the origin's response headers, on the origin connection's loop (includes connecting). */
        MISS_ORIGIN_HEADERS,
        /** A miss: from the fetch handing the stored object over to the client connection's loop running that hand-over. */
        MISS_HANDOFF;

        /** Returns the lower-case name used in JSON and Prometheus labels, e.g. {@code miss_handoff}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Quantiles of one phase in milliseconds; all zero when {@code count} is zero. Immutable. */
    public record Summary(long count, double meanMs, double p50Ms, double p90Ms, double p99Ms, double maxMs) {
    }

    private final ConcurrentHistogram[] histograms = new ConcurrentHistogram[Phase.values().length];

    /** Creates empty histograms for every phase. */
    public PhaseTimes() {
        for (int i = 0; i < histograms.length; i++) {
            histograms[i] = new ConcurrentHistogram(3);
        }
    }

    /** Records one occurrence of {@code phase} lasting {@code nanos} (negative values count as zero). */
    public void record(Phase phase, long nanos) {
        histograms[phase.ordinal()].recordValue(Math.max(0, nanos));
    }

    /** Records one occurrence of {@code phase} that started at {@code startNanos} ({@link System#nanoTime()}) and ends now. */
    public void since(Phase phase, long startNanos) {
        record(phase, System.nanoTime() - startNanos);
    }

    /** Returns a copy of one phase's histogram. */
    public Histogram histogram(Phase phase) {
        return histograms[phase.ordinal()].copy();
    }

    /** Returns every phase's quantiles, by label, in {@link Phase} order. */
    public Map<String, Summary> summaries() {
        Map<String, Summary> out = new LinkedHashMap<>();
        for (Phase p : Phase.values()) {
            Histogram h = histogram(p);
            long n = h.getTotalCount();
            out.put(p.label(), n == 0 ? new Summary(0, 0, 0, 0, 0, 0)
                    : new Summary(n, h.getMean() / 1e6, ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(90)),
                    ms(h.getValueAtPercentile(99)), ms(h.getMaxValue())));
        }
        return out;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
