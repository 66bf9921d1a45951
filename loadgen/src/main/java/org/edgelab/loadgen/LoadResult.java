package org.edgelab.loadgen;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.client.LoadEngine;
import org.edgelab.loadgen.link.LinkReport;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.loadgen.report.CsvReport;
import org.edgelab.loadgen.report.JsonReport;
import org.edgelab.loadgen.report.SummaryReport;

/**
 * What a load run measured: counters, TTFB/TTLB histograms (nanoseconds from each request's intended
 * start), rates, hit ratios, errors by class and client CPU, with writers for a wrk-like summary, CSV,
 * JSON and {@code .hlog} files.
 *
 * <p>Immutable apart from the histogram copies it hands out; thread-safe.
 */
public final class LoadResult {
    private final LoadConfig config;
    private final LoadEngine.Outcome measured;
    private final LoadEngine.Outcome warmUp;
    private final double targetHitRatio;
    private final Histogram ttfb;
    private final Histogram ttlb;

    LoadResult(LoadConfig config, LoadEngine.Outcome measured, LoadEngine.Outcome warmUp, double targetHitRatio) {
        this.config = config;
        this.measured = measured;
        this.warmUp = warmUp;
        this.targetHitRatio = targetHitRatio;
        this.ttfb = measured.latency().totalTtfb();
        this.ttlb = measured.latency().totalTtlb();
    }

    /** The configuration that ran. */
    public LoadConfig config() {
        return config;
    }

    /** Counters of the measured run. */
    public Counters counters() {
        return measured.counters();
    }

    /** Counters of the unmeasured warm-up pass, if there was one. */
    public Optional<Counters> warmUpCounters() {
        return Optional.ofNullable(warmUp).map(LoadEngine.Outcome::counters);
    }

    /** Time to first byte in nanoseconds (a copy). */
    public Histogram ttfb() {
        return ttfb.copy();
    }

    /** Time to last byte in nanoseconds (a copy). */
    public Histogram ttlb() {
        return ttlb.copy();
    }

    /**
     * Time to last byte measured from each request's actual send (nanoseconds, a copy): the uncorrected
     * figure a closed-loop tool would report. Equal to {@link #ttlb()} in a closed loop; in an open loop
     * the gap between the two is the queueing a stalled server caused.
     */
    public Histogram serviceTime() {
        return measured.serviceTime().copy();
    }

    /** Interval histograms and per-loop interval counts. */
    public LatencyLog latencyLog() {
        return measured.latency();
    }

    /** The measured run's intended start on the wall clock: its start barrier, or when it started without one. */
    public Instant start() {
        return measured.start();
    }

    /** When the measured run's first request was really written (the {@code .hlog}'s StartTime, to the millisecond). */
    public Instant realStart() {
        return measured.realStart();
    }

    /** When the measured run stopped on the wall clock. */
    public Instant end() {
        return measured.end();
    }

    /** Measured run length in seconds. */
    public double elapsedSeconds() {
        return measured.elapsedNanos() / 1e9;
    }

    /** True when the run ended because its requests were done, false when the deadline ended it. */
    public boolean finishedBeforeDeadline() {
        return measured.finishedBeforeDeadline();
    }

    /** The link the load crossed: which emulation, and the rate it carried each way during the measured run. */
    public LinkReport link() {
        return measured.link();
    }

    /** Completed responses per second. */
    public double requestsPerSecond() {
        return counters().completed() / elapsedSeconds();
    }

    /** All bytes received per second. */
    public double throughputBytesPerSecond() {
        return counters().bytesRead() / elapsedSeconds();
    }

    /** Verified body bytes per second (responses complete, 2xx, every check passed). */
    public double goodputBytesPerSecond() {
        return counters().goodBytes() / elapsedSeconds();
    }

    /** Hit ratio by requests from X-Cache (NaN when no response carried it). */
    public double hitRatio() {
        return counters().hitRatio();
    }

    /** Hit ratio by body bytes from X-Cache (NaN when no response carried it). */
    public double byteHitRatio() {
        return counters().byteHitRatio();
    }

    /** Time to first byte of responses marked HIT by X-Cache, ns from the intended start (empty without X-Cache). */
    public Histogram ttfbHit() {
        return measured.ttfbHit().copy();
    }

    /** Time to first byte of responses with an X-Cache not starting with HIT (misses, passes), ns from the intended start. */
    public Histogram ttfbMiss() {
        return measured.ttfbMiss().copy();
    }

    /** Time to last byte of completed responses marked HIT by X-Cache, ns from the intended start (empty without X-Cache). */
    public Histogram ttlbHit() {
        return measured.ttlbHit().copy();
    }

    /** Time to last byte of completed responses with an X-Cache not starting with HIT (misses, passes), ns from the intended start. */
    public Histogram ttlbMiss() {
        return measured.ttlbMiss().copy();
    }

    /**
     * How late the load's own event loops ran a timer due every millisecond, ns, over the measured run: the time a
     * response's first byte could wait on the client side before it is read and timed (see {@code LoopDelay}).
     */
    public Histogram loopDelay() {
        return measured.loopDelay().copy();
    }

    /** Hit ratio over requests for the object set only, first-time requests left out (NaN when none carried X-Cache). */
    public double setHitRatio() {
        return counters().setHitRatio();
    }

    /** The workload's target hit ratio, NaN when none. */
    public double targetHitRatio() {
        return targetHitRatio;
    }

    /** Errors of one class. */
    public long errors(ErrorClass type) {
        return counters().errors(type);
    }

    /** CPU seconds of the whole loadgen process during the measured run. */
    public double processCpuSeconds() {
        return measured.processCpuNanos() / 1e9;
    }

    /** CPU seconds of the event-loop threads during the measured run. */
    public double loopCpuSeconds() {
        return measured.loopCpuNanos() / 1e9;
    }

    /** Process CPU seconds per GB (10^9 bytes) received, NaN when nothing was received. */
    public double cpuSecondsPerGB() {
        long bytes = counters().bytesRead();
        return bytes == 0 ? Double.NaN : processCpuSeconds() / (bytes / 1e9);
    }

    /** "epoll" or "nio". */
    public String transport() {
        return measured.transport();
    }

    /** Prints a wrk-like summary (plus TTFB, errors by class, hit ratio, goodput, CPU). */
    public void printSummary(PrintWriter out) {
        SummaryReport.print(this, out);
        out.flush();
    }

    /** {@link #printSummary(PrintWriter)} to a stream. */
    public void printSummary(PrintStream out) {
        printSummary(new PrintWriter(out));
    }

    /** Writes one header line and one row of the run's figures. */
    public void writeCsv(Path file) throws IOException {
        CsvReport.write(this, file);
    }

    /** Writes every figure, the configuration and the environment as JSON. */
    public void writeJson(Path file) throws IOException {
        JsonReport.write(this, file);
    }

    /** Writes the interval histograms of TTFB or TTLB as an HdrHistogram log ({@code .hlog}). */
    public void writeHlog(Path file, LatencyLog.Kind kind) throws IOException {
        measured.latency().writeHlog(file, kind);
    }
}
