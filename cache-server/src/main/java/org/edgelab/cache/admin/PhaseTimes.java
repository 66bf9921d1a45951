package org.edgelab.cache.admin;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * How long the phases of answering a request take inside the server, since start, one
 * HdrHistogram (nanoseconds, 3 significant digits) per {@link Phase}, like the timestamps Varnish
 * logs per request. They split a client's time to first byte into the server's own parts, so a
 * slow miss shows whether it waited for the origin or for its own event loop.
 *
 * <p>Exported to Prometheus as a histogram: cumulative counts at the fixed {@link #BUCKET_BOUNDS_SECONDS}, read
 * from the same HdrHistogram (a value within its 0.1 % resolution of a bound may count on either side), and the
 * exact sum of the recorded times. Buckets, unlike the quantiles of a summary, add up across servers and over any
 * window ({@code rate()} of the buckets), which is why they are exported rather than since-start quantiles.
 *
 * <p>Thread-safe: every event loop records concurrently ({@link ConcurrentHistogram}, striped sums); a snapshot
 * copies each histogram.
 */
public final class PhaseTimes {

    /**
     * Upper bounds of the Prometheus buckets in seconds: 50 µs to 10 s, 1-2.5-5 per decade (a hit's first write takes
     * tens of µs on loopback, a miss behind a slow origin seconds). {@code +Inf} follows them.
     */
    public static final double[] BUCKET_BOUNDS_SECONDS = {
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    /** A measured phase; its {@link #label()} names it in {@code /stats} and in Prometheus. */
    public enum Phase {
        /** A hit: from the request's start (its head decoded) to the end of the first write of its response (headers and first chunks, flushed). */
        HIT_FIRST_WRITE,
        /** A miss: from the request's start to the end of the first write of its response (the headers, once the origin's arrived). */
        MISS_FIRST_WRITE,
        /** A miss: from the start of the origin fetch to the origin's response headers, on the origin connection's loop (includes connecting). */
        MISS_ORIGIN_HEADERS,
        /** A miss: from the fetch handing the stored object over to the client connection's loop running that hand-over. */
        MISS_HANDOFF,
        /**
         * Not a request's phase: how late a client-facing event loop ran a timer due every millisecond
         * ({@code LoopDelay}), which is how long a request or an origin's answer arriving on a busy loop waits to be read.
         */
        LOOP_DELAY;

        /** Returns the lower-case name used in JSON and Prometheus labels, e.g. {@code miss_handoff}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One phase: quantiles in milliseconds (all zero when {@code count} is zero) for {@code /stats}; for Prometheus the
     * exact sum in seconds and the cumulative count at each of {@link #BUCKET_BOUNDS_SECONDS} (not in the JSON).
     * Immutable.
     */
    public record Summary(long count, double meanMs, double p50Ms, double p90Ms, double p99Ms, double maxMs,
                          @JsonIgnore double sumSeconds, @JsonIgnore long[] cumulativeCounts) {
        /** Copies {@code cumulativeCounts}. */
        public Summary {
            cumulativeCounts = cumulativeCounts.clone();
        }

        /** Returns a copy of the cumulative bucket counts. */
        @Override
        public long[] cumulativeCounts() {
            return cumulativeCounts.clone();
        }
    }

    /**
     * Longest time recorded (longer ones count as this): 10 minutes. The histograms have this fixed range so that
     * a record never resizes one: a resize takes the histogram's reader lock, which an event loop recording a
     * value must never wait for (BlockHound caught it once the loops' own delay was recorded every millisecond
     * while {@code /stats} copied the histograms).
     */
    static final long MAX_NANOS = 600_000_000_000L;

    private final ConcurrentHistogram[] histograms = new ConcurrentHistogram[Phase.values().length];
    private final LongAdder[] sums = new LongAdder[Phase.values().length];

    /** Creates empty histograms for every phase. */
    public PhaseTimes() {
        for (int i = 0; i < histograms.length; i++) {
            histograms[i] = new ConcurrentHistogram(1, MAX_NANOS, 3);
            sums[i] = new LongAdder();
        }
    }

    /** Records one occurrence of {@code phase} lasting {@code nanos} (negative values count as zero, above {@link #MAX_NANOS} as that). Never blocks. */
    public void record(Phase phase, long nanos) {
        long value = Math.min(MAX_NANOS, Math.max(0, nanos));
        histograms[phase.ordinal()].recordValue(value);
        sums[phase.ordinal()].add(value);
    }

    /** Records one occurrence of {@code phase} that started at {@code startNanos} ({@link System#nanoTime()}) and ends now. */
    public void since(Phase phase, long startNanos) {
        record(phase, System.nanoTime() - startNanos);
    }

    /** Returns a copy of one phase's histogram. */
    public Histogram histogram(Phase phase) {
        return histograms[phase.ordinal()].copy();
    }

    /** Returns every phase's figures, by label, in {@link Phase} order. */
    public Map<String, Summary> summaries() {
        Map<String, Summary> out = new LinkedHashMap<>();
        for (Phase p : Phase.values()) {
            Histogram h = histogram(p);
            long n = h.getTotalCount();
            long[] cumulative = new long[BUCKET_BOUNDS_SECONDS.length];
            for (int i = 0; i < cumulative.length && n > 0; i++) {
                cumulative[i] = Math.min(n, h.getCountBetweenValues(0, Math.round(BUCKET_BOUNDS_SECONDS[i] * 1e9)));
            }
            double sum = sums[p.ordinal()].sum() / 1e9;
            out.put(p.label(), n == 0 ? new Summary(0, 0, 0, 0, 0, 0, 0, cumulative)
                    : new Summary(n, h.getMean() / 1e6, ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(90)),
                    ms(h.getValueAtPercentile(99)), ms(h.getMaxValue()), sum, cumulative));
        }
        return out;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
