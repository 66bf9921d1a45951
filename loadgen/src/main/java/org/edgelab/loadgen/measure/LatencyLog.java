package org.edgelab.loadgen.measure;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

/**
 * Collects the interval histograms of every event loop's TTFB and TTLB {@link Recorder}s: totals for
 * the run, per-interval histograms (kept compressed) for {@code .hlog} files, and per-loop request
 * counts per interval for the Req/Sec statistics.
 *
 * <p>Thread-safety: {@link #flip()} and the readers are synchronized; the loops record into their
 * recorders without locks while this class flips them.
 */
public final class LatencyLog {
    /** Which latency a histogram or {@code .hlog} file holds. */
    public enum Kind { TTFB, TTLB }

    private final List<LoopMetrics> loops;
    private final long startEpochMillis;
    private long realStartEpochMillis;
    private final Histogram totalTtfb = new Histogram(3);
    private final Histogram totalTtlb = new Histogram(3);
    private final Histogram[] recycledTtfb;
    private final Histogram[] recycledTtlb;
    private final List<Interval> intervals = new ArrayList<>();
    private final boolean recording;

    private record Interval(long startMillis, long endMillis, byte[] ttfb, byte[] ttlb, long[] perLoopCount) {
    }

    /** Collects from {@code loops}; the run started at {@code startEpochMillis}; {@code recording}=false discards samples. */
    public LatencyLog(List<LoopMetrics> loops, long startEpochMillis, boolean recording) {
        this.loops = List.copyOf(loops);
        this.startEpochMillis = startEpochMillis;
        this.realStartEpochMillis = startEpochMillis;
        this.recording = recording;
        this.recycledTtfb = new Histogram[loops.size()];
        this.recycledTtlb = new Histogram[loops.size()];
        // Reset anything recorded before the measured phase started (e.g. by a warm-up pass).
        for (LoopMetrics loop : this.loops) {
            loop.ttfb.reset();
            loop.ttlb.reset();
        }
    }

    /**
     * Ends the current interval: moves every loop's samples into the totals and the interval list (when recording);
     * returns how many requests completed in it.
     */
    public synchronized long flip() {
        Histogram ttfb = new Histogram(3);
        Histogram ttlb = new Histogram(3);
        long[] perLoop = new long[loops.size()];
        long start = Long.MAX_VALUE;
        long end = 0;
        for (int i = 0; i < loops.size(); i++) {
            recycledTtfb[i] = loops.get(i).ttfb.getIntervalHistogram(recycledTtfb[i]);
            recycledTtlb[i] = loops.get(i).ttlb.getIntervalHistogram(recycledTtlb[i]);
            ttfb.add(recycledTtfb[i]);
            ttlb.add(recycledTtlb[i]);
            perLoop[i] = recycledTtlb[i].getTotalCount();
            start = Math.min(start, recycledTtlb[i].getStartTimeStamp());
            end = Math.max(end, recycledTtlb[i].getEndTimeStamp());
        }
        if (!recording) {
            return ttlb.getTotalCount();
        }
        start = Math.max(start, startEpochMillis);
        totalTtfb.add(ttfb);
        totalTtlb.add(ttlb);
        intervals.add(new Interval(start, end, compress(ttfb), compress(ttlb), perLoop));
        return ttlb.getTotalCount();
    }

    /**
     * Records when the run really started (its first request was written), which a {@code .hlog} gives as its
     * StartTime; interval timestamps stay relative to the intended start, its BaseTime.
     */
    public synchronized void startedAt(long epochMillis) {
        this.realStartEpochMillis = epochMillis;
    }

    /** When the run really started, epoch milliseconds (the intended start until {@link #startedAt} says otherwise). */
    public synchronized long realStartEpochMillis() {
        return realStartEpochMillis;
    }

    /** Time to first byte over the whole run so far (a copy). */
    public synchronized Histogram totalTtfb() {
        return totalTtfb.copy();
    }

    /** Time to last byte over the whole run so far (a copy). */
    public synchronized Histogram totalTtlb() {
        return totalTtlb.copy();
    }

    /** Requests completed per loop in each interval: [interval][loop]. */
    public synchronized long[][] perLoopIntervalCounts() {
        long[][] counts = new long[intervals.size()][];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = intervals.get(i).perLoopCount().clone();
        }
        return counts;
    }

    /** Requests completed in one interval of the log, between two wall-clock instants in epoch milliseconds. */
    public record IntervalCount(long startMillis, long endMillis, long completed) {
    }

    /** Every interval so far with its wall-clock bounds and the requests completed in it (TTLB samples), in order. */
    public synchronized List<IntervalCount> intervalCounts() {
        List<IntervalCount> counts = new ArrayList<>();
        for (Interval interval : intervals) {
            long sum = 0;
            for (long c : interval.perLoopCount()) {
                sum += c;
            }
            counts.add(new IntervalCount(interval.startMillis(), interval.endMillis(), sum));
        }
        return counts;
    }

    /** Interval lengths in seconds, aligned with {@link #perLoopIntervalCounts()}. */
    public synchronized double[] intervalSeconds() {
        double[] s = new double[intervals.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = Math.max(1, intervals.get(i).endMillis() - intervals.get(i).startMillis()) / 1000.0;
        }
        return s;
    }

    /** Writes the interval histograms of {@code kind} as an HdrHistogram log (values in nanoseconds). */
    public synchronized void writeHlog(Path file, Kind kind) throws IOException {
        writeHlog(file, "EdgeLab loadgen " + kind + " in nanoseconds from each request's intended start", realStartEpochMillis,
                startEpochMillis, intervalHistograms(kind));
    }

    /** The interval histograms of {@code kind} in order, each a copy with its start and end time stamps (epoch ms). */
    public synchronized List<Histogram> intervalHistograms(Kind kind) {
        List<Histogram> out = new ArrayList<>(intervals.size());
        for (Interval interval : intervals) {
            Histogram h = decompress(kind == Kind.TTFB ? interval.ttfb() : interval.ttlb());
            h.setStartTimeStamp(interval.startMillis());
            h.setEndTimeStamp(interval.endMillis());
            out.add(h);
        }
        return out;
    }

    /**
     * Writes time-stamped {@code intervals} as an HdrHistogram log in the order HdrHistogram's readers expect: the
     * comment, the format version, {@code startMillis} as StartTime (a run's real start), {@code baseMillis} as BaseTime,
     * the legend, then the intervals. Blocks for the file.
     */
    public static void writeHlog(Path file, String comment, long startMillis, long baseMillis, List<Histogram> intervals)
            throws IOException {
        try (OutputStream out = Files.newOutputStream(file); PrintStream print = new PrintStream(out, false, "US-ASCII")) {
            HistogramLogWriter writer = new HistogramLogWriter(print);
            writer.outputComment(comment);
            writer.outputLogFormatVersion();
            writer.outputStartTime(startMillis);
            writer.outputBaseTime(baseMillis);
            writer.setBaseTime(baseMillis);
            writer.outputLegend();
            for (Histogram h : intervals) {
                writer.outputIntervalHistogram(h);
            }
            print.flush();
        }
    }

    private static byte[] compress(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return bytes;
    }

    private static Histogram decompress(byte[] bytes) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
        } catch (DataFormatException e) {
            throw new IllegalStateException("interval histogram could not be decoded", e);
        }
    }
}
