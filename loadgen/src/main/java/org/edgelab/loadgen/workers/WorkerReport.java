package org.edgelab.loadgen.workers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.Segment;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.LatencyLog.IntervalCount;

/**
 * What one load worker hands back: its segment, its intended start (the barrier), its real start (first request
 * written), its end, its counters, its TTFB and TTLB histograms (nanoseconds from each request's intended start) and
 * the requests it completed per report interval, which {@link MergedLoad} needs to count the common window. Written
 * and read as one JSON file ({@code worker.json}) so a worker in another process or namespace can hand it over.
 *
 * <p>Immutable apart from the histograms, which callers must not change; thread-safe for reading.
 */
public record WorkerReport(Segment segment, Instant start, Instant realStart, Instant end, Counters counters,
                           Histogram ttfb, Histogram ttlb, List<IntervalCount> intervals) {
    /** The file name a worker writes its report to in its output folder. */
    public static final String FILE = "worker.json";

    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    /** Copies the interval list. */
    public WorkerReport {
        intervals = List.copyOf(intervals);
    }

    /** The report of a run in this JVM. */
    public static WorkerReport of(LoadResult result) {
        return new WorkerReport(result.config().segment(), result.start(), result.realStart(), result.end(), result.counters(),
                result.ttfb(), result.ttlb(), result.latencyLog().intervalCounts());
    }

    /** Writes this report as JSON to {@code file}, replacing it. */
    public void write(Path file) throws IOException {
        MAPPER.writeValue(file.toFile(), tree());
    }

    /** This report as the JSON text {@link #write} writes (for a worker that hands it over another way, e.g. its log). */
    public String toJson() throws IOException {
        return MAPPER.writeValueAsString(tree());
    }

    private Map<String, Object> tree() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("segment", segment.toString());
        root.put("start", start.toString());
        root.put("real_start", realStart.toString());
        root.put("end", end.toString());
        root.put("counters", counters);
        root.put("ttfb", encode(ttfb));
        root.put("ttlb", encode(ttlb));
        root.put("intervals", intervals);
        return root;
    }

    /** Reads a report {@link #write} wrote; throws IOException naming the file when it is not one. */
    public static WorkerReport read(Path file) throws IOException {
        return parse(Files.readString(file), file.toString());
    }

    /** Reads a report {@link #toJson} wrote; throws IOException naming {@code source} when it is not one. */
    public static WorkerReport parse(String text, String source) throws IOException {
        try {
            Json json = MAPPER.readValue(text, Json.class);
            return new WorkerReport(Segment.parse(json.segment()), Instant.parse(json.start()), Instant.parse(json.real_start()),
                    Instant.parse(json.end()), json.counters(), decode(json.ttfb()), decode(json.ttlb()), json.intervals());
        } catch (IOException | RuntimeException | DataFormatException e) {
            throw new IOException(source + " is not a load worker's report: " + e.getMessage(), e);
        }
    }

    private record Json(String segment, String start, String real_start, String end, Counters counters, String ttfb,
                        String ttlb, List<IntervalCount> intervals) {
    }

    private static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    private static Histogram decode(String base64) throws DataFormatException {
        return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
    }
}
