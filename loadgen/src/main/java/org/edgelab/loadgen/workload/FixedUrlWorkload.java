package org.edgelab.loadgen.workload;

import java.util.Optional;
import java.util.SplittableRandom;

import org.edgelab.origin.content.SyntheticPaths;

/**
 * Every request fetches the same path, like wrk. When the path names a synthetic object
 * ({@code /objects/{size}/{id}}), every body byte is verified; otherwise lengths are checked.
 *
 * <p>Immutable and thread-safe.
 */
public final class FixedUrlWorkload implements Workload {
    private final String path;
    private final String syntheticId;
    private final long size;
    private final long rangeStart;
    private final long rangeEnd;
    private final long randomRangeSize;

    private FixedUrlWorkload(String path, long rangeStart, long rangeEnd) {
        this(path, rangeStart, rangeEnd, 0);
    }

    private FixedUrlWorkload(String path, long rangeStart, long rangeEnd, long randomRangeSize) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("a request path must start with '/', got " + path);
        }
        this.path = path;
        Optional<SyntheticPaths.SyntheticObject> object = SyntheticPaths.parse(path);
        this.syntheticId = object.map(SyntheticPaths.SyntheticObject::id).orElse(null);
        this.size = object.map(SyntheticPaths.SyntheticObject::size).orElse(-1L);
        this.rangeStart = rangeStart;
        this.rangeEnd = rangeEnd;
        this.randomRangeSize = randomRangeSize;
    }

    /** Full fetches of {@code path} (path and query). */
    public static FixedUrlWorkload of(String path) {
        return new FixedUrlWorkload(path, -1, -1);
    }

    /** Fetches of bytes {@code start..end} (inclusive) of {@code path}. */
    public static FixedUrlWorkload range(String path, long start, long end) {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("invalid range " + start + "-" + end);
        }
        return new FixedUrlWorkload(path, start, end);
    }

    /**
     * Fetches of {@code rangeSize} bytes at random offsets of the synthetic object {@code path} names (a
     * whole-object fetch when the object is not larger than that).
     *
     * @throws IllegalArgumentException if the path does not name a synthetic object (its size is unknown)
     */
    public static FixedUrlWorkload randomRanges(String path, long rangeSize) {
        if (rangeSize <= 0) {
            throw new IllegalArgumentException("a range size must be positive, got " + rangeSize);
        }
        FixedUrlWorkload w = new FixedUrlWorkload(path, -1, -1, rangeSize);
        if (w.syntheticId == null) {
            throw new IllegalArgumentException("ranges at random offsets need the object's size: " + path
                    + " is not a synthetic object path /objects/{size}/{id}");
        }
        return w;
    }

    /** True when the path names a synthetic object whose bytes can be verified. */
    public boolean synthetic() {
        return syntheticId != null;
    }

    @Override
    public RequestGenerator newGenerator(long seed) {
        if (randomRangeSize > 0) {
            SplittableRandom random = new SplittableRandom(seed);
            return (ticket, slot) -> {
                if (size <= randomRangeSize) {
                    slot.full(path, syntheticId, size);
                } else {
                    long start = random.nextLong(size - randomRangeSize + 1);
                    slot.range(path, syntheticId, size, start, start + randomRangeSize - 1);
                }
            };
        }
        return (ticket, slot) -> {
            if (rangeStart >= 0) {
                slot.range(path, syntheticId, size, rangeStart, rangeEnd);
            } else {
                slot.full(path, syntheticId, size);
            }
        };
    }

    @Override
    public String describe() {
        return "url " + path + (rangeStart >= 0 ? " range " + rangeStart + "-" + rangeEnd : "")
                + (randomRangeSize > 0 ? " ranges of " + randomRangeSize + " bytes at random offsets" : "")
                + (syntheticId != null ? " (synthetic, verified)" : " (lengths checked)");
    }
}
