package org.edgelab.loadgen.measure;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counters and latency recorders of one event loop.
 *
 * <p>Thread-safety: the plain counters are written only by the owning event-loop thread and read by
 * others only after a task submitted to that loop has completed (which publishes them); the
 * {@link Recorder}s are safe for the loop to record into while a reporting thread flips them.
 */
public final class LoopMetrics {
    /** Time to first byte, nanoseconds from the request's intended start. */
    public final Recorder ttfb = new Recorder(3);
    /** Time to last byte, nanoseconds from the request's intended start. */
    public final Recorder ttlb = new Recorder(3);

    /**
     * Time to last byte from the actual send, nanoseconds: what a tool with coordinated omission reports.
     * Written by the loop only; copy it with a task on the loop.
     */
    public final Histogram serviceTime = new Histogram(3);

    /**
     * Time to first byte, nanoseconds from the intended start, of responses whose X-Cache starts with HIT,
     * recorded when the head arrives (so responses unfinished at the deadline count, as in the hit ratio).
     * Written by the loop only; copy it with a task on the loop.
     */
    public final Histogram ttfbHit = new Histogram(3);
    /** As {@link #ttfbHit}, for responses whose X-Cache does not start with HIT (misses, passes). */
    public final Histogram ttfbMiss = new Histogram(3);
    /**
     * Time to last byte, nanoseconds from the intended start, of responses whose X-Cache starts with HIT, recorded
     * when the response ends (so, unlike {@link #ttfbHit}, only completed responses count). Written by the loop only;
     * copy it with a task on the loop.
     */
    public final Histogram ttlbHit = new Histogram(3);
    /** As {@link #ttlbHit}, for responses whose X-Cache does not start with HIT (misses, passes). */
    public final Histogram ttlbMiss = new Histogram(3);

    /** Requests whose response completed (any status, verified or not). */
    public long completed;
    /** Requests written to a connection. */
    public long sent;
    /** System.nanoTime when this loop wrote its first request, 0 before it did (a worker's real start). */
    public long firstSendNanos;
    /** All bytes read from sockets (headers and bodies). */
    public long bytesRead;
    /** Body bytes received. */
    public long bodyBytes;
    /** Body bytes of responses that completed whole, with a 2xx status, and passed every check. */
    public long goodBytes;
    /** Responses that completed whole with a 2xx status and passed every check. */
    public long goodResponses;
    /**
     * Responses whose head carried an X-Cache header, counted when the head arrives: a response still in
     * flight at the deadline or cut off later counts too, so slow misses do not drop out of the hit ratio.
     */
    public long cacheResponses;
    /** Responses counted in {@link #cacheResponses} whose X-Cache value starts with HIT. */
    public long hits;
    /** Body bytes received, as they arrive, of the responses counted in {@link #cacheResponses}. */
    public long cacheBodyBytes;
    /** Body bytes received, as they arrive, of the responses counted in {@link #hits}. */
    public long hitBodyBytes;
    /** Responses counted in {@link #cacheResponses} that answer a request for the workload's object set (not a first-time object). */
    public long setResponses;
    /** Responses counted in {@link #setResponses} whose X-Cache value starts with HIT. */
    public long setHits;
    /** Requests sent more than the late threshold after their intended start (open loop). */
    public long lateStarts;
    /** Largest delay between intended and actual start, nanoseconds. */
    public long maxStartDelayNanos;
    /** Connections established (including reconnects). */
    public long connects;
    /** Requests in flight when the run stopped at its deadline (not errors). */
    public long unfinished;
    /** Responses by status class: index 1..5 for 1xx..5xx, 0 for anything else. */
    public final long[] statusClasses = new long[6];
    /** Errors by class, indexed by {@link ErrorClass#ordinal()}. */
    public final long[] errors = new long[ErrorClass.values().length];

    /**
     * Counts a response head that carried X-Cache, a hit when {@code hit}; {@code firstTime} when the workload
     * meant it to be a first-time object; {@code ttfbNanos} its time to first byte from the intended start.
     */
    public void cacheHead(boolean hit, boolean firstTime, long ttfbNanos) {
        (hit ? ttfbHit : ttfbMiss).recordValue(Math.max(0, ttfbNanos));
        cacheResponses++;
        if (hit) {
            hits++;
        }
        if (!firstTime) {
            setResponses++;
            if (hit) {
                setHits++;
            }
        }
    }

    /** Records the time to last byte, from the intended start, of a completed response whose head carried X-Cache. */
    public void cacheEnd(boolean hit, long ttlbNanos) {
        (hit ? ttlbHit : ttlbMiss).recordValue(Math.max(0, ttlbNanos));
    }

    /** Counts {@code bytes} of body received for a response whose head carried X-Cache. */
    public void cacheBody(long bytes, boolean hit) {
        cacheBodyBytes += bytes;
        if (hit) {
            hitBodyBytes += bytes;
        }
    }

    /** Counts one error of {@code type}. */
    public void error(ErrorClass type) {
        errors[type.ordinal()]++;
    }

    /** Adds {@code other}'s counters into this (used on a snapshot, never on a live loop). */
    public void addCounters(LoopMetrics other) {
        completed += other.completed;
        sent += other.sent;
        bytesRead += other.bytesRead;
        bodyBytes += other.bodyBytes;
        goodBytes += other.goodBytes;
        goodResponses += other.goodResponses;
        cacheResponses += other.cacheResponses;
        hits += other.hits;
        cacheBodyBytes += other.cacheBodyBytes;
        hitBodyBytes += other.hitBodyBytes;
        setResponses += other.setResponses;
        setHits += other.setHits;
        lateStarts += other.lateStarts;
        maxStartDelayNanos = Math.max(maxStartDelayNanos, other.maxStartDelayNanos);
        connects += other.connects;
        unfinished += other.unfinished;
        for (int i = 0; i < statusClasses.length; i++) {
            statusClasses[i] += other.statusClasses[i];
        }
        for (int i = 0; i < errors.length; i++) {
            errors[i] += other.errors[i];
        }
    }

    /** Returns a copy of the counters (not the recorders); call on the owning loop. */
    public Counters snapshot() {
        LoopMetrics copy = new LoopMetrics();
        copy.addCounters(this);
        return new Counters(copy.completed, copy.sent, copy.bytesRead, copy.bodyBytes, copy.goodBytes,
                copy.goodResponses, copy.cacheResponses, copy.hits, copy.cacheBodyBytes, copy.hitBodyBytes,
                copy.setResponses, copy.setHits,
                copy.lateStarts, copy.maxStartDelayNanos, copy.connects, copy.unfinished,
                copy.statusClasses.clone(), copy.errors.clone());
    }
}
