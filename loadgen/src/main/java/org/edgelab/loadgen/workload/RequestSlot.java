package org.edgelab.loadgen.workload;

/**
 * The next request a connection sends, filled in by a {@link RequestGenerator} and reused for every
 * request of that connection (no per-request allocation beyond the path string).
 *
 * <p>Not thread-safe: owned by one connection on one event loop.
 */
public final class RequestSlot {
    /** Absolute path with optional query, e.g. {@code /objects/102400/o17}. */
    public String path;
    /** Id of the synthetic object the path names, or null when the bytes cannot be verified. */
    public String syntheticId;
    /** The full object's size in bytes, or -1 when unknown. */
    public long objectSize = -1;
    /** First byte of the requested range, or -1 for a full fetch. */
    public long rangeStart = -1;
    /** Last byte of the requested range (inclusive), meaningful only when {@link #rangeStart} >= 0. */
    public long rangeEnd = -1;
    /**
     * Whether the workload means this request to be for a first-time (never requested) object, a miss by
     * design when it targets a hit ratio; {@link #full} and {@link #range} reset it, the workload sets it after.
     */
    public boolean firstTime;

    /** Sets a full fetch of {@code path}. */
    public void full(String path, String syntheticId, long objectSize) {
        this.path = path;
        this.syntheticId = syntheticId;
        this.objectSize = objectSize;
        this.rangeStart = -1;
        this.rangeEnd = -1;
        this.firstTime = false;
    }

    /** Sets a request of bytes {@code start..end} (inclusive) of {@code path}. */
    public void range(String path, String syntheticId, long objectSize, long start, long end) {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("invalid range " + start + "-" + end + " for " + path);
        }
        this.path = path;
        this.syntheticId = syntheticId;
        this.objectSize = objectSize;
        this.rangeStart = start;
        this.rangeEnd = end;
        this.firstTime = false;
    }

    /** The number of body bytes a correct answer carries, or -1 when unknown. */
    public long expectedBodyLength() {
        if (rangeStart >= 0) {
            long last = objectSize >= 0 ? Math.min(rangeEnd, objectSize - 1) : rangeEnd;
            return last - rangeStart + 1;
        }
        return objectSize;
    }
}
