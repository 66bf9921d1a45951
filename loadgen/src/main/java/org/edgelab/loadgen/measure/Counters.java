package org.edgelab.loadgen.measure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An immutable snapshot of request counters (see {@link LoopMetrics} for each field's meaning).
 *
 * <p>Thread-safety: immutable (the arrays are private copies and never handed out).
 */
public record Counters(long completed, long sent, long bytesRead, long bodyBytes, long goodBytes,
                       long goodResponses, long cacheResponses, long hits, long cacheBodyBytes,
                       long hitBodyBytes, long setResponses, long setHits, long lateStarts, long maxStartDelayNanos, long connects,
                       long unfinished, long[] statusClasses, long[] errors) {

    /** All counters zero. */
    public static final Counters ZERO = new Counters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            new long[6], new long[ErrorClass.values().length]);

    /** Copies the arrays so the record stays immutable. */
    public Counters {
        statusClasses = statusClasses.clone();
        errors = errors.clone();
    }

    /** Responses by status class (a copy): index 1..5 for 1xx..5xx, 0 for anything else. */
    @Override
    public long[] statusClasses() {
        return statusClasses.clone();
    }

    /** Errors by {@link ErrorClass#ordinal()} (a copy). */
    @Override
    public long[] errors() {
        return errors.clone();
    }

    /** Field-wise sum (maximum for {@link #maxStartDelayNanos}). */
    public Counters plus(Counters o) {
        long[] s = new long[6];
        long[] e = new long[errors.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = statusClasses[i] + o.statusClasses[i];
        }
        for (int i = 0; i < e.length; i++) {
            e[i] = errors[i] + o.errors[i];
        }
        return new Counters(completed + o.completed, sent + o.sent, bytesRead + o.bytesRead,
                bodyBytes + o.bodyBytes, goodBytes + o.goodBytes, goodResponses + o.goodResponses,
                cacheResponses + o.cacheResponses, hits + o.hits, cacheBodyBytes + o.cacheBodyBytes,
                hitBodyBytes + o.hitBodyBytes, setResponses + o.setResponses, setHits + o.setHits,
                lateStarts + o.lateStarts, Math.max(maxStartDelayNanos, o.maxStartDelayNanos), connects + o.connects,
                unfinished + o.unfinished, s, e);
    }

    /** Field-wise difference {@code this - o}, for the counters of a window between two snapshots ({@link #maxStartDelayNanos} is this one's). */
    public Counters minus(Counters o) {
        long[] s = new long[6];
        long[] e = new long[errors.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = statusClasses[i] - o.statusClasses[i];
        }
        for (int i = 0; i < e.length; i++) {
            e[i] = errors[i] - o.errors[i];
        }
        return new Counters(completed - o.completed, sent - o.sent, bytesRead - o.bytesRead,
                bodyBytes - o.bodyBytes, goodBytes - o.goodBytes, goodResponses - o.goodResponses,
                cacheResponses - o.cacheResponses, hits - o.hits, cacheBodyBytes - o.cacheBodyBytes,
                hitBodyBytes - o.hitBodyBytes, setResponses - o.setResponses, setHits - o.setHits,
                lateStarts - o.lateStarts, maxStartDelayNanos, connects - o.connects, unfinished - o.unfinished, s, e);
    }

    /** Responses with status class {@code c} (1..5), or 0 for anything outside 100..599. */
    public long status(int c) {
        return statusClasses[c];
    }

    /** Errors of one class. */
    public long errors(ErrorClass type) {
        return errors[type.ordinal()];
    }

    /** All errors of every class. */
    public long totalErrors() {
        long sum = 0;
        for (long e : errors) {
            sum += e;
        }
        return sum;
    }

    /** Errors by label, in {@link ErrorClass} order. */
    public Map<String, Long> errorsByClass() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (ErrorClass type : ErrorClass.values()) {
            map.put(type.label(), errors[type.ordinal()]);
        }
        return map;
    }

    /** Responses by status class label ("1xx".."5xx", "other"). */
    public Map<String, Long> responsesByStatusClass() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (int c = 1; c <= 5; c++) {
            map.put(c + "xx", statusClasses[c]);
        }
        map.put("other", statusClasses[0]);
        return map;
    }

    /** Hit ratio by requests among response heads that carried X-Cache (unfinished ones included), or NaN when none did. */
    public double hitRatio() {
        return cacheResponses == 0 ? Double.NaN : (double) hits / cacheResponses;
    }

    /**
     * Hit ratio among requests for the workload's object set, leaving out the first-time requests a hit-ratio
     * target adds (which are misses by design): how much of what it was given the store kept. NaN when none.
     */
    public double setHitRatio() {
        return setResponses == 0 ? Double.NaN : (double) setHits / setResponses;
    }

    /** Hit ratio by body bytes received for responses that carried X-Cache, or NaN when none did. */
    public double byteHitRatio() {
        return cacheBodyBytes == 0 ? Double.NaN : (double) hitBodyBytes / cacheBodyBytes;
    }
}
