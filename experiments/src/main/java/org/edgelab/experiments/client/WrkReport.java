package org.edgelab.experiments.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.edgelab.experiments.process.ProcessCpu;
import org.edgelab.loadgen.measure.LatencyLog;

/**
 * The figures EdgeLab's wrk script writes when wrk is done ({@code edgelab.lua}'s {@code done()}), as a
 * {@link ClientResult}. wrk gives latency only as values at percentiles, so the TTLB histogram is rebuilt
 * from them: the requests between two reported percentiles are recorded at the upper one's value, which
 * makes the histogram exact at every level in {@link #LEVELS} (p50, p90, p99 and p99.9 among them) and
 * coarse between. Immutable and thread-safe.
 */
final class WrkReport implements ClientResult {

    /** The percentiles the script asks wrk for: HdrHistogram's percentile ticks (5 per half distance) and the results' own. */
    static final List<Double> LEVELS = levels();

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String tool;
    private final long requests;
    private final double seconds;
    private final long bytes;
    private final Map<String, Long> errors;
    private final Histogram ttlb;
    private final double hitRatio;
    private final double byteHitRatio;
    private final double clientCpuSeconds;
    private final double runnerJvmCpuSeconds;
    private final long startMillis;

    private WrkReport(String tool, long requests, double seconds, long bytes, Map<String, Long> errors, Histogram ttlb,
                      double hitRatio, double byteHitRatio, double clientCpuSeconds, double runnerJvmCpuSeconds, long startMillis) {
        this.tool = tool;
        this.requests = requests;
        this.seconds = seconds;
        this.bytes = bytes;
        this.errors = Collections.unmodifiableMap(errors);
        this.ttlb = ttlb;
        this.hitRatio = hitRatio;
        this.byteHitRatio = byteHitRatio;
        this.clientCpuSeconds = clientCpuSeconds;
        this.runnerJvmCpuSeconds = runnerJvmCpuSeconds;
        this.startMillis = startMillis;
    }

    private static List<Double> levels() {
        TreeSet<Double> levels = new TreeSet<>(List.of(0.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0));
        double low = 0;
        for (int half = 1; half <= 20; half++) {
            double high = 100 - 100 / Math.pow(2, half);
            for (int tick = 0; tick < 5; tick++) {
                levels.add(low + (high - low) * tick / 5);
            }
            low = high;
        }
        return List.copyOf(levels);
    }

    /**
     * Reads the script's JSON; {@code runnerJvmCpuSeconds} is the runner JVM's CPU over the run and
     * {@code startMillis} when it started. Throws {@link IOException} naming the file when it is not the
     * script's output.
     */
    static WrkReport read(String tool, Path file, boolean countedXCache, double runnerJvmCpuSeconds, long startMillis)
            throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException(tool + "'s figures in " + file + " are not the JSON EdgeLab's script writes: " + e.getMessage(), e);
        }
        for (String field : List.of("requests", "duration_us", "bytes", "errors", "latency_us")) {
            if (root == null || !root.has(field)) {
                throw new IOException(tool + "'s figures in " + file + " lack '" + field + "'");
            }
        }
        long requests = root.get("requests").asLong();
        double seconds = root.get("duration_us").asDouble() / 1e6;
        JsonNode e = root.get("errors");
        Map<String, Long> errors = new LinkedHashMap<>();
        errors.put("errors_connect", e.path("connect").asLong());
        errors.put("errors_timeout", e.path("timeout").asLong());
        errors.put("errors_read", e.path("read").asLong());
        errors.put("errors_write", e.path("write").asLong());
        double hitRatio = Double.NaN;
        double byteHitRatio = Double.NaN;
        JsonNode x = root.get("x_cache");
        if (countedXCache && x != null) {
            errors.put("errors_status_4xx", x.path("status_4xx").asLong());
            errors.put("errors_status_5xx", x.path("status_5xx").asLong());
            long responses = x.path("responses").asLong();
            long bodyBytes = x.path("body_bytes").asLong();
            hitRatio = responses == 0 ? Double.NaN : x.path("hits").asDouble() / responses;
            byteHitRatio = bodyBytes == 0 ? Double.NaN : x.path("hit_bytes").asDouble() / bodyBytes;
        } else {
            errors.put("errors_status", e.path("status").asLong());
        }
        double cpu = Double.NaN;
        if (root.hasNonNull("proc_stat")) {
            try {
                cpu = ProcessCpu.parseStat(root.get("proc_stat").asText());
            } catch (IllegalArgumentException bad) {
                throw new IOException(tool + "'s /proc/self/stat line in " + file + " cannot be read: " + bad.getMessage(), bad);
            }
        }
        return new WrkReport(tool, requests, seconds, root.get("bytes").asLong(), errors, histogram(root.get("latency_us")),
                hitRatio, byteHitRatio, cpu, runnerJvmCpuSeconds, startMillis);
    }

    /** The latency histogram (nanoseconds) rebuilt from the values at the reported percentiles; empty without samples. */
    static Histogram histogram(JsonNode latency) throws IOException {
        Histogram h = new Histogram(3);
        long count = latency.path("count").asLong();
        JsonNode levels = latency.get("percentiles");
        if (count <= 0 || levels == null) {
            return h;
        }
        List<double[]> points = new ArrayList<>();
        for (JsonNode level : levels) {
            if (!level.isArray() || level.size() != 2) {
                throw new IOException("a percentile entry is [percentile, microseconds], got " + level);
            }
            points.add(new double[] {level.get(0).asDouble(), level.get(1).asDouble()});
        }
        points.sort((a, b) -> Double.compare(a[0], b[0]));
        long recorded = 0;
        double previousValue = 0;
        for (double[] point : points) {
            // the rank HdrHistogram's getValueAtPercentile looks up, so the rebuilt histogram answers this value there
            long rank = Math.min(count, Math.max(1, (long) Math.ceil(Math.nextDown(point[0]) * count / 100.0)));
            double value = Math.max(previousValue, point[1]);
            if (rank > recorded) {
                h.recordValueWithCount(Math.round(value * 1000), rank - recorded);
                recorded = rank;
            }
            previousValue = value;
        }
        if (recorded < count) {
            h.recordValueWithCount(Math.round(previousValue * 1000), count - recorded);
        }
        return h;
    }

    @Override
    public long requests() {
        return requests;
    }

    @Override
    public double seconds() {
        return seconds;
    }

    @Override
    public long bytes() {
        return bytes;
    }

    @Override
    public double goodputBytesPerSecond() {
        return Double.NaN;
    }

    @Override
    public Histogram ttlb() {
        return ttlb.copy();
    }

    @Override
    public Histogram ttfb() {
        return null;
    }

    @Override
    public Histogram ttfbHit() {
        return null;
    }

    @Override
    public Histogram ttfbMiss() {
        return null;
    }

    @Override
    public Map<String, Long> errors() {
        return errors;
    }

    @Override
    public double hitRatio() {
        return hitRatio;
    }

    @Override
    public double byteHitRatio() {
        return byteHitRatio;
    }

    @Override
    public double setHitRatio() {
        return Double.NaN;
    }

    @Override
    public double clientCpuSeconds() {
        return clientCpuSeconds;
    }

    @Override
    public boolean clientInRunnerJvm() {
        return false;
    }

    @Override
    public double runnerJvmCpuSeconds() {
        return runnerJvmCpuSeconds;
    }

    @Override
    public boolean writeHlog(Path file, LatencyLog.Kind kind) throws IOException {
        if (kind != LatencyLog.Kind.TTLB) {
            return false;
        }
        try (OutputStream out = Files.newOutputStream(file); PrintStream print = new PrintStream(out, false, "US-ASCII")) {
            HistogramLogWriter writer = new HistogramLogWriter(print);
            writer.outputComment("EdgeLab " + tool + " TTLB in nanoseconds, rebuilt from " + tool + "'s latency at "
                    + LEVELS.size() + " percentiles (exact there, coarse between); one interval for the whole run");
            writer.outputLogFormatVersion();
            writer.outputStartTime(startMillis);
            writer.setBaseTime(startMillis);
            writer.outputLegend();
            Histogram interval = ttlb.copy();
            interval.setStartTimeStamp(startMillis);
            interval.setEndTimeStamp(startMillis + Math.round(seconds * 1000));
            writer.outputIntervalHistogram(interval);
            print.flush();
        }
        return true;
    }
}
