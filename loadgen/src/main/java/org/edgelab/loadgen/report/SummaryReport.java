package org.edgelab.loadgen.report;

import java.io.PrintWriter;
import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.ErrorClass;

/** Prints a {@link LoadResult} the way wrk does, followed by EdgeLab's extra figures; stateless, thread-safe. */
public final class SummaryReport {
    static final double[] PERCENTILES = {50, 75, 90, 99, 99.9, 99.99};

    private SummaryReport() {
    }

    /** Writes the summary to {@code out}. */
    public static void print(LoadResult r, PrintWriter out) {
        LoadConfig c = r.config();
        Counters k = r.counters();
        out.printf(Locale.ROOT, "Running %s test @ %s%n", seconds(c.duration().toMillis() / 1000.0), c.url());
        out.printf(Locale.ROOT, "  %d threads and %d connections (%s, %s)%n", c.threads(), c.connections(),
                c.schedule() == null ? "closed loop" : "open loop: " + c.schedule().describe(), r.transport());
        out.printf(Locale.ROOT, "  workload: %s%n", c.workload().describe());
        if (r.link().emulated()) {
            out.printf(Locale.ROOT, "  link: %s%n", r.link().describe());
        }
        Histogram ttlb = r.ttlb();
        Histogram ttfb = r.ttfb();
        out.printf(Locale.ROOT, "  Thread Stats   Avg      Stdev     Max   +/- Stdev%n");
        out.printf(Locale.ROOT, "    Latency %s%n", latencyRow(ttlb));
        out.printf(Locale.ROOT, "    TTFB    %s%n", latencyRow(ttfb));
        if (c.schedule() != null) {
            out.printf(Locale.ROOT, "    Uncorr. %s  (from the actual send, as with coordinated omission)%n",
                    latencyRow(r.serviceTime()));
        }
        out.printf(Locale.ROOT, "    Req/Sec %s%n", reqPerSecRow(r));
        if (c.latency()) {
            out.printf(Locale.ROOT, "  Latency Distribution (TTLB / TTFB)%n");
            for (double p : PERCENTILES) {
                out.printf(Locale.ROOT, "  %7s%% %10s %10s%n", trim(p), Units.latency(ttlb.getValueAtPercentile(p)),
                        Units.latency(ttfb.getValueAtPercentile(p)));
            }
        }
        out.printf(Locale.ROOT, "  %d requests in %s, %s read%n", k.completed(), seconds(r.elapsedSeconds()), Units.bytes(k.bytesRead()));
        long connect = k.errors(ErrorClass.CONNECT);
        long read = k.errors(ErrorClass.CLOSED) + k.errors(ErrorClass.TRUNCATED);
        long write = k.errors(ErrorClass.WRITE);
        long timeout = k.errors(ErrorClass.TIMEOUT);
        if (connect + read + write + timeout > 0) {
            // wrk's line: read errors are connections that closed or reset before a response ended
            out.printf(Locale.ROOT, "  Socket errors: connect %d, read %d, write %d, timeout %d%n", connect, read, write, timeout);
        }
        long notOk = k.completed() - k.status(2) - k.status(3);
        if (notOk > 0) {
            out.printf(Locale.ROOT, "  Non-2xx or 3xx responses: %d%n", notOk); // as wrk counts them: neither 2xx nor 3xx
        }
        if (k.status(3) > 0) {
            out.printf(Locale.ROOT, "  3xx responses: %d (not errors)%n", k.status(3));
        }
        if (k.totalErrors() > 0) {
            StringBuilder sb = new StringBuilder("  Errors by class:");
            for (ErrorClass e : ErrorClass.values()) {
                sb.append(' ').append(e.label()).append(' ').append(k.errors(e)).append(',');
            }
            sb.setLength(sb.length() - 1);
            out.println(sb);
        }
        out.printf(Locale.ROOT, "Requests/sec: %10.2f%n", r.requestsPerSecond());
        out.printf(Locale.ROOT, "Transfer/sec: %10s%n", Units.bytes(r.throughputBytesPerSecond()));
        out.printf(Locale.ROOT, "Goodput/sec:  %10s (verified body bytes)%n", Units.bytes(r.goodputBytesPerSecond()));
        if (k.cacheResponses() > 0) {
            out.printf(Locale.ROOT, "Hit ratio:    %s of requests, %s of bytes (X-Cache on %d response heads, unfinished ones included)%s%n",
                    Units.percent(r.hitRatio()), Units.percent(r.byteHitRatio()), k.cacheResponses(),
                    Double.isNaN(r.targetHitRatio()) ? "" : ", target " + Units.percent(r.targetHitRatio()));
            if (!Double.isNaN(r.targetHitRatio()) && k.setResponses() > 0) {
                out.printf(Locale.ROOT, "              %s of the %d requests for the warmed set (first-time objects left out)%n",
                        Units.percent(r.setHitRatio()), k.setResponses());
            }
            out.printf(Locale.ROOT, "TTFB by X-Cache: hits %s, misses %s%n", latencyBrief(r.ttfbHit()), latencyBrief(r.ttfbMiss()));
            out.printf(Locale.ROOT, "TTLB by X-Cache: hits %s, misses %s%n", latencyBrief(r.ttlbHit()), latencyBrief(r.ttlbMiss()));
        }
        if (c.schedule() != null) {
            out.printf(Locale.ROOT, "Late starts:  %d (sent > %s after their intended start; max delay %s)%n",
                    k.lateStarts(), Units.latency(c.lateThreshold().toNanos()), Units.latency(k.maxStartDelayNanos()));
        }
        if (k.unfinished() > 0) {
            out.printf(Locale.ROOT, "Unfinished:   %d requests in flight at the deadline (not in requests or latency)%n", k.unfinished());
        }
        out.printf(Locale.ROOT, "Loop delay:   %s (how late the client's own event loops ran a 1 ms timer: a first byte waits as long to be read)%n",
                latencyBrief(r.loopDelay()));
        out.printf(Locale.ROOT, "Client CPU:   %.2fs process, %.2fs event loops, %.3f s/GB%n",
                r.processCpuSeconds(), r.loopCpuSeconds(), r.cpuSecondsPerGB());
    }

    private static String latencyBrief(Histogram h) {
        if (h.getTotalCount() == 0) {
            return "none";
        }
        return String.format(Locale.ROOT, "p50 %s p99 %s max %s (%d)", Units.latency(h.getValueAtPercentile(50)),
                Units.latency(h.getValueAtPercentile(99)), Units.latency(h.getMaxValue()), h.getTotalCount());
    }

    private static String latencyRow(Histogram h) {
        if (h.getTotalCount() == 0) {
            return String.format(Locale.ROOT, "%8s %8s %8s %8s", "-", "-", "-", "-");
        }
        double mean = h.getMean();
        double sd = h.getStdDeviation();
        return String.format(Locale.ROOT, "%8s %8s %8s %8s", Units.latency(mean), Units.latency(sd),
                Units.latency(h.getMaxValue()), Units.percent(withinStdev(h, mean, sd)));
    }

    private static double withinStdev(Histogram h, double mean, double sd) {
        long lo = (long) Math.max(0, mean - sd);
        long hi = (long) (mean + sd);
        return (double) h.getCountBetweenValues(lo, hi) / h.getTotalCount();
    }

    private static String reqPerSecRow(LoadResult r) {
        long[][] counts = r.latencyLog().perLoopIntervalCounts();
        double[] secs = r.latencyLog().intervalSeconds();
        int n = 0;
        double sum = 0;
        double sumSq = 0;
        double max = 0;
        for (int i = 0; i < counts.length; i++) {
            for (long v : counts[i]) {
                double rate = v / secs[i];
                n++;
                sum += rate;
                sumSq += rate * rate;
                max = Math.max(max, rate);
            }
        }
        if (n == 0) {
            return String.format(Locale.ROOT, "%8s %8s %8s %8s", "-", "-", "-", "-");
        }
        double mean = sum / n;
        double sd = Math.sqrt(Math.max(0, sumSq / n - mean * mean));
        int within = 0;
        for (int i = 0; i < counts.length; i++) {
            for (long v : counts[i]) {
                double rate = v / secs[i];
                if (Math.abs(rate - mean) <= sd) {
                    within++;
                }
            }
        }
        return String.format(Locale.ROOT, "%8s %8s %8s %8s", Units.metric(mean), Units.metric(sd), Units.metric(max),
                Units.percent((double) within / n));
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.2fs", s);
    }

    private static String trim(double p) {
        return p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p);
    }
}
