package org.edgelab.experiments.client;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.link.LinkReport;
import org.edgelab.loadgen.measure.LatencyLog;

/**
 * What one measured client run gives the runner, in the meaning the results' columns have for every client;
 * a client that cannot say returns NaN, null or leaves a column out, and the row leaves it empty.
 * Latencies are in nanoseconds. Immutable and thread-safe.
 */
public interface ClientResult {

    /** Responses completed. */
    long requests();

    /** Seconds the measured run lasted. */
    double seconds();

    /** All bytes received (headers and bodies). */
    long bytes();

    /** Completed responses per second. */
    default double requestsPerSecond() {
        return seconds() > 0 ? requests() / seconds() : Double.NaN;
    }

    /** All bytes received per second. */
    default double throughputBytesPerSecond() {
        return seconds() > 0 ? bytes() / seconds() : Double.NaN;
    }

    /** Verified body bytes per second, NaN when the client verifies nothing. */
    double goodputBytesPerSecond();

    /** Time to last byte (the whole latency a client sees). */
    Histogram ttlb();

    /** Time to first byte, or null when the client cannot tell it apart. */
    Histogram ttfb();

    /** Time to first byte of cache hits, or null. */
    Histogram ttfbHit();

    /** Time to first byte of cache misses, or null. */
    Histogram ttfbMiss();

    /** Time to last byte of completed cache hits, or null when the client cannot tell hits apart. */
    default Histogram ttlbHit() {
        return null;
    }

    /** Time to last byte of completed cache misses, or null when the client cannot tell misses apart. */
    default Histogram ttlbMiss() {
        return null;
    }

    /**
     * How late the client's own event loops ran a timer due every millisecond (loadgen's {@code LoopDelay}), or
     * null when the client cannot say: a response's first byte that arrives while a loop is busy is timed only
     * when the loop gets to it, so this is the client's own share of TTFB.
     */
    default Histogram loopDelay() {
        return null;
    }

    /** Error counts by results column ({@code errors_connect}, ...); a column the client cannot say is absent. */
    Map<String, Long> errors();

    /** Share of responses the server marked as hits ({@code X-Cache}), NaN when not counted. */
    double hitRatio();

    /** Share of body bytes in hits, NaN when not counted. */
    double byteHitRatio();

    /** Hit ratio over the warmed set alone, NaN when the client cannot tell set requests apart. */
    double setHitRatio();

    /** CPU seconds of the client itself during the run (loadgen's event loops, a tool's whole process). */
    double clientCpuSeconds();

    /** Whether {@link #clientCpuSeconds()} is part of the runner JVM's CPU (a client inside it). */
    boolean clientInRunnerJvm();

    /** CPU seconds of the runner's whole JVM during the run (on the embedded target it holds origin and cache). */
    double runnerJvmCpuSeconds();

    /**
     * The user-space link the client emulated itself and the rate it carried each way, empty when it emulated none
     * (a kernel link is measured by the link, not by the client).
     */
    default Optional<LinkReport> link() {
        return Optional.empty();
    }

    /**
     * Figures only this client gives, as result columns by name (e.g. a divided load's {@code workers} and
     * {@code start_skew_ms}); empty for most clients.
     */
    default Map<String, String> columns() {
        return Map.of();
    }

    /**
     * Writes the {@code kind} latencies as an HdrHistogram log ({@code .hlog}, nanoseconds) and returns true,
     * or returns false, writing nothing, when the client has no such figures.
     */
    boolean writeHlog(Path file, LatencyLog.Kind kind) throws IOException;
}
