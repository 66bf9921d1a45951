package org.edgelab.origin.server;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.edgelab.origin.OriginStats;

/** The live counters behind {@link OriginStats}; thread-safe (lock-free adders). */
public final class OriginCounters {

    private final AtomicLong requests = new AtomicLong();
    private final LongAdder bytesSent = new LongAdder();
    private final ConcurrentHashMap<Integer, LongAdder> byStatus = new ConcurrentHashMap<>();

    /** Counts one request and returns its number, from 1 (fault rules fire on these numbers). */
    public long recordRequest() {
        return requests.incrementAndGet();
    }

    /** Counts a response sent with {@code status}. */
    public void recordResponse(int status) {
        byStatus.computeIfAbsent(status, s -> new LongAdder()).increment();
    }

    /** Counts {@code bytes} of response body handed to the network. */
    public void recordBytes(long bytes) {
        bytesSent.add(bytes);
    }

    /** A consistent-enough snapshot (each counter read once). */
    public OriginStats snapshot() {
        Map<Integer, Long> statuses = new TreeMap<>();
        byStatus.forEach((status, count) -> statuses.put(status, count.sum()));
        return new OriginStats(requests.get(), bytesSent.sum(), statuses);
    }
}
