package org.edgelab.loadgen.workers;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.LatencyLog.IntervalCount;

/**
 * The workers of one load taken together: their histograms added (percentiles are read from the sum, never averaged),
 * their counters summed, the common window (from the latest real start to the earliest end, when every worker was
 * sending), the requests completed in it and the start skew (latest real start minus earliest).
 *
 * <p>Requests in the window come from each worker's per-interval counts; an interval that crosses an edge of the
 * window counts in proportion to its overlap, so the figure is exact to within the requests of one report interval at
 * each edge. Immutable apart from the histograms, which callers must not change; thread-safe for reading.
 *
 * @param workers          the reports, ordered by segment
 * @param counters         the workers' counters summed ({@code maxStartDelayNanos}: the largest)
 * @param ttfb             every worker's TTFB histogram added
 * @param ttlb             every worker's TTLB histogram added
 * @param windowStart      the latest real start
 * @param windowEnd        the earliest end
 * @param requestsInWindow requests completed by all workers within the window
 * @param startSkew        latest real start minus earliest real start
 */
public record MergedLoad(List<WorkerReport> workers, Counters counters, Histogram ttfb, Histogram ttlb, Instant windowStart,
                         Instant windowEnd, double requestsInWindow, Duration startSkew) {

    /** Copies the list. */
    public MergedLoad {
        workers = List.copyOf(workers);
    }

    /**
     * Merges {@code reports}, one per segment of the same load; throws IllegalArgumentException when a segment is
     * missing or twice there, or the workers disagree on their number.
     */
    public static MergedLoad of(List<WorkerReport> reports) {
        if (reports.isEmpty()) {
            throw new IllegalArgumentException("no worker reports to merge");
        }
        List<WorkerReport> sorted = reports.stream().sorted(Comparator.comparingInt(r -> r.segment().index())).toList();
        int count = sorted.get(0).segment().count();
        for (int i = 0; i < sorted.size(); i++) {
            if (sorted.get(i).segment().count() != count || sorted.get(i).segment().index() != i || sorted.size() != count) {
                throw new IllegalArgumentException("worker reports " + sorted.stream().map(r -> r.segment().toString()).toList()
                        + " are not the segments 0.." + (count - 1) + " of one load of " + count + " workers");
            }
        }
        Counters counters = Counters.ZERO;
        Histogram ttfb = new Histogram(3);
        Histogram ttlb = new Histogram(3);
        Instant firstStart = Instant.MAX;
        Instant lastStart = Instant.MIN;
        Instant firstEnd = Instant.MAX;
        for (WorkerReport r : sorted) {
            counters = counters.plus(r.counters());
            ttfb.add(r.ttfb());
            ttlb.add(r.ttlb());
            firstStart = min(firstStart, r.realStart());
            lastStart = max(lastStart, r.realStart());
            firstEnd = min(firstEnd, r.end());
        }
        double inWindow = 0;
        if (lastStart.isBefore(firstEnd)) {
            double from = lastStart.toEpochMilli();
            double to = firstEnd.toEpochMilli();
            for (WorkerReport r : sorted) {
                for (IntervalCount interval : r.intervals()) {
                    inWindow += interval.completed() * overlap(interval, from, to);
                }
            }
        }
        return new MergedLoad(sorted, counters, ttfb, ttlb, lastStart, firstEnd, inWindow, Duration.between(firstStart, lastStart));
    }

    /** The common window's length in seconds, 0 when the workers never all ran at once. */
    public double windowSeconds() {
        return Math.max(0, Duration.between(windowStart, windowEnd).toNanos() / 1e9);
    }

    /** Requests completed per second within the common window, NaN when there was none. */
    public double requestsPerSecond() {
        double seconds = windowSeconds();
        return seconds > 0 ? requestsInWindow / seconds : Double.NaN;
    }

    /** Requests completed by all workers over their whole runs (the summed counter). */
    public long requests() {
        return counters.completed();
    }

    private static double overlap(IntervalCount interval, double from, double to) {
        double length = interval.endMillis() - interval.startMillis();
        if (length <= 0) {
            return interval.startMillis() >= from && interval.startMillis() <= to ? 1 : 0;
        }
        double shared = Math.min(interval.endMillis(), to) - Math.max(interval.startMillis(), from);
        return Math.max(0, shared) / length;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
