package org.edgelab.loadgen.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;

import org.edgelab.loadgen.Schedule;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.units.ByteSize;

/**
 * Replays a CSV trace: one request per line, {@code timestamp,key,size[,range]} where timestamp is in
 * seconds (decimals allowed, any origin), key names the object, size is its size in bytes (or a
 * {@link ByteSize} form) and range, if present, is {@code start-end} (inclusive). A first line whose
 * timestamp is not a number is a header. Keys outside {@code [A-Za-z0-9._-]{1,200}} are mapped to a
 * hash. Timed replay sends each request at its timestamp (relative to the first, divided by the speed
 * factor) as an open-loop schedule; untimed replay sends them as fast as the connections allow.
 *
 * <p>Immutable after loading and thread-safe.
 */
public final class TraceWorkload implements Workload {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private final String pathPrefix;
    private final long[] offsetsNanos;
    private final String[] ids;
    private final long[] sizes;
    private final long[] rangeStarts;
    private final long[] rangeEnds;
    private final boolean timed;
    private final String source;

    private TraceWorkload(String pathPrefix, long[] offsetsNanos, String[] ids, long[] sizes, long[] rangeStarts,
                          long[] rangeEnds, boolean timed, String source) {
        this.pathPrefix = pathPrefix;
        this.offsetsNanos = offsetsNanos;
        this.ids = ids;
        this.sizes = sizes;
        this.rangeStarts = rangeStarts;
        this.rangeEnds = rangeEnds;
        this.timed = timed;
        this.source = source;
    }

    /**
     * Loads {@code file}. {@code speed} divides the trace's time (2 = twice as fast); {@code timed}=false
     * ignores timestamps. Throws IllegalArgumentException naming the line of any malformed entry.
     */
    public static TraceWorkload load(Path file, String pathPrefix, double speed, boolean timed) throws IOException {
        if (!(speed > 0)) {
            throw new IllegalArgumentException("trace speed must be > 0, got " + speed);
        }
        int capacity = 1024;
        long[] offsets = new long[capacity];
        String[] ids = new String[capacity];
        long[] sizes = new long[capacity];
        long[] starts = new long[capacity];
        long[] ends = new long[capacity];
        int n = 0;
        double first = Double.NaN;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int lineNumber = 0;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                String trimmed = line.trim();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                String[] f = trimmed.split(",", -1);
                String where = file + ":" + lineNumber + ": ";
                double ts;
                try {
                    ts = Double.parseDouble(f[0].trim());
                } catch (NumberFormatException e) {
                    if (n == 0 && lineNumber == 1) {
                        continue; // header
                    }
                    throw new IllegalArgumentException(where + "timestamp '" + f[0] + "' is not a number of seconds");
                }
                if (f.length < 3 || f.length > 4) {
                    throw new IllegalArgumentException(where + "expected timestamp,key,size[,range], got " + f.length + " fields");
                }
                if (Double.isNaN(first)) {
                    first = ts;
                }
                if (ts < first) {
                    throw new IllegalArgumentException(where + "timestamps must not go backwards (" + ts + " < " + first + ")");
                }
                if (n == capacity) {
                    capacity *= 2;
                    offsets = Arrays.copyOf(offsets, capacity);
                    ids = Arrays.copyOf(ids, capacity);
                    sizes = Arrays.copyOf(sizes, capacity);
                    starts = Arrays.copyOf(starts, capacity);
                    ends = Arrays.copyOf(ends, capacity);
                }
                String key = f[1].trim();
                if (key.isEmpty()) {
                    throw new IllegalArgumentException(where + "empty key");
                }
                long size;
                try {
                    size = ByteSize.parse(f[2].trim());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(where + e.getMessage());
                }
                if (size <= 0) {
                    throw new IllegalArgumentException(where + "size must be at least 1 byte");
                }
                offsets[n] = (long) ((ts - first) / speed * 1e9);
                ids[n] = ID.matcher(key).matches() ? key : "k" + Long.toHexString(Hashing.hash(key));
                sizes[n] = size;
                starts[n] = -1;
                ends[n] = -1;
                if (f.length == 4 && !f[3].isBlank()) {
                    String[] r = f[3].trim().split("-");
                    try {
                        starts[n] = Long.parseLong(r[0]);
                        ends[n] = Long.parseLong(r[1]);
                    } catch (RuntimeException e) {
                        throw new IllegalArgumentException(where + "range '" + f[3] + "' is not START-END");
                    }
                    if (starts[n] < 0 || ends[n] < starts[n] || starts[n] >= size) {
                        throw new IllegalArgumentException(where + "range '" + f[3] + "' does not fit an object of " + size + " bytes");
                    }
                }
                n++;
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException(file + ": the trace has no requests");
        }
        String prefix = pathPrefix == null ? "" : pathPrefix.replaceAll("/+$", "");
        return new TraceWorkload(prefix, Arrays.copyOf(offsets, n), Arrays.copyOf(ids, n), Arrays.copyOf(sizes, n),
                Arrays.copyOf(starts, n), Arrays.copyOf(ends, n), timed,
                String.format(Locale.ROOT, "trace %s (%d requests%s)", file.getFileName(), n,
                        timed ? ", timed at speed " + speed : ", untimed"));
    }

    @Override
    public RequestGenerator newGenerator(long seed) {
        return (ticket, slot) -> {
            int i = (int) ticket;
            String path = pathPrefix + SyntheticPaths.path(ids[i], sizes[i]);
            if (rangeStarts[i] >= 0) {
                slot.range(path, ids[i], sizes[i], rangeStarts[i], rangeEnds[i]);
            } else {
                slot.full(path, ids[i], sizes[i]);
            }
        };
    }

    @Override
    public long size() {
        return ids.length;
    }

    @Override
    public Schedule schedule() {
        if (!timed) {
            return null;
        }
        return new Schedule() {
            @Override
            public long offsetNanos(long ticket) {
                return ticket < offsetsNanos.length ? offsetsNanos[(int) ticket] : -1;
            }

            @Override
            public String describe() {
                return "trace timestamps";
            }
        };
    }

    @Override
    public String describe() {
        return source;
    }
}
