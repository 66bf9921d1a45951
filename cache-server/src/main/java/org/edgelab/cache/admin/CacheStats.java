package org.edgelab.cache.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoreUsage;

/**
 * The cache server's counters since start: requests by outcome (the {@code X-Cache} value),
 * origin traffic (and each upstream's, read from where {@link #upstreams} says), bytes served, responses by status class and open connections. Hits count
 * exactly the responses whose {@code X-Cache} starts with {@code HIT}, so clients and server agree.
 * {@link #phases()} times the parts of a response inside the server.
 * Thread-safe: striped adders and concurrent histograms, updated from every event loop.
 */
public final class CacheStats {

    /** The outcome of one response, as sent in its {@code X-Cache} header. */
    public enum Result {
        HIT("HIT"), HIT_REVALIDATED("HIT-REVALIDATED"), HIT_STALE("HIT-STALE"), HIT_COALESCED("HIT-COALESCED"),
        MISS("MISS"), PASS("PASS");

        private final String header;

        Result(String header) {
            this.header = header;
        }

        /** Returns the exact {@code X-Cache} header value. */
        public String header() {
            return header;
        }

        /** Returns whether this outcome counts as a hit. */
        public boolean isHit() {
            return header.startsWith("HIT");
        }

        /** Returns the Prometheus label value, e.g. {@code hit_revalidated}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final LongAdder requests = new LongAdder();
    private final LongAdder[] byResult = newAdders(Result.values().length);
    private final LongAdder[] byStatusClass = newAdders(6);
    private final LongAdder revalidations = new LongAdder();
    private final LongAdder originRequests = new LongAdder();
    private final LongAdder originErrors = new LongAdder();
    private final LongAdder bytesFromCache = new LongAdder();
    private final LongAdder bytesFromOrigin = new LongAdder();
    private final LongAdder bytesToClients = new LongAdder();
    private final LongAdder storeRefusals = new LongAdder();
    private final LongAdder storePassThroughs = new LongAdder();
    private final LongAdder storeWriteSheds = new LongAdder();
    private final LongAdder hitsResumedFromOrigin = new LongAdder();
    private final LongAdder truncatedResponses = new LongAdder();
    private final LongAdder openConnections = new LongAdder();
    private final LongAdder acceptedConnections = new LongAdder();
    private final Map<String, java.util.function.LongSupplier> gauges = new java.util.concurrent.ConcurrentHashMap<>();
    private final PhaseTimes phases = new PhaseTimes();
    private volatile java.util.function.Supplier<List<UpstreamStats>> upstreams = List::of;

    private static LongAdder[] newAdders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** Counts a request as it starts being answered. */
    public void request() {
        requests.increment();
    }

    /** Counts a response's outcome and status when its headers are sent. */
    public void response(Result result, int status) {
        byResult[result.ordinal()].increment();
        int cls = status / 100;
        byStatusClass[cls >= 1 && cls <= 5 ? cls : 0].increment();
    }

    /** Counts a conditional request sent to the origin to revalidate a stale object. */
    public void revalidation() {
        revalidations.increment();
    }

    /** Counts a request sent to the origin. */
    public void originRequest() {
        originRequests.increment();
    }

    /** Counts an origin failure: refused, reset, timed out, or a truncated body. */
    public void originError() {
        originErrors.increment();
    }

    /** Adds body bytes sent to a client from the store (HIT* responses). */
    public void bytesFromCache(long n) {
        bytesFromCache.add(n);
    }

    /** Adds body bytes received from the origin. */
    public void bytesFromOrigin(long n) {
        bytesFromOrigin.add(n);
    }

    /** Adds body bytes sent to clients, whatever their source. */
    public void bytesToClients(long n) {
        bytesToClients.add(n);
    }

    /** Counts a storable response the store refused (full). */
    public void storeRefusal() {
        storeRefusals.increment();
    }

    /**
     * Counts a fill whose store write was refused or failed (when it began, mid-object or at its
     * commit), so that its clients got the rest of the body from the origin instead.
     */
    public void storePassThrough() {
        storePassThroughs.increment();
    }

    /**
     * Counts a fill passed through unstored because the store's write lane was stalled (see
     * {@code CacheServerConfig#storeWriteShedAfter}); such a fill is also counted by {@link #storePassThrough}.
     */
    public void storeWriteShed() {
        storeWriteSheds.increment();
    }

    /**
     * Counts a stored response whose stored bytes failed mid-body (a failed disk, a damaged extent) and whose rest was
     * asked of the origin with a range request conditional on the stored validator.
     */
    public void hitResumedFromOrigin() {
        hitsResumedFromOrigin.increment();
    }

    /** Counts a response cut short (its connection closed before the body was complete). */
    public void truncated() {
        truncatedResponses.increment();
    }

    /** Counts a client connection opening. */
    public void connectionOpened() {
        openConnections.increment();
        acceptedConnections.increment();
    }

    /** Counts a client connection closing. */
    public void connectionClosed() {
        openConnections.decrement();
    }

    /**
     * Registers a gauge read at each snapshot (the server's own figures: its store executor's
     * queue, its loops' write turns), shown under {@code gauges} in /stats and as
     * {@code edgelab_cache_<name>} in /metrics. Thread-safe.
     */
    public void gauge(String name, java.util.function.LongSupplier value) {
        gauges.put(name, value);
    }

    /** Sets where each upstream's figures are read at each snapshot ({@code upstreams} in /stats). Thread-safe. */
    public void upstreams(java.util.function.Supplier<List<UpstreamStats>> figures) {
        this.upstreams = figures;
    }

    /** Returns the server-side phase timings (time to first write of hits and misses, and a miss's parts). */
    public PhaseTimes phases() {
        return phases;
    }

    /** Returns the number of responses with the given outcome. */
    public long count(Result result) {
        return byResult[result.ordinal()].sum();
    }

    /** Returns a consistent-enough snapshot (each counter read once) including the store's own figures. */
    public Snapshot snapshot(ObjectStore store) {
        Map<String, Long> results = new LinkedHashMap<>();
        long hits = 0;
        for (Result r : Result.values()) {
            long n = byResult[r.ordinal()].sum();
            results.put(r.label(), n);
            if (r.isHit()) {
                hits += n;
            }
        }
        Map<String, Long> classes = new LinkedHashMap<>();
        for (int c = 1; c <= 5; c++) {
            classes.put(c + "xx", byStatusClass[c].sum());
        }
        return new Snapshot(requests.sum(), hits, count(Result.MISS), count(Result.PASS),
                count(Result.HIT_COALESCED), revalidations.sum(), count(Result.HIT_STALE), originRequests.sum(),
                originErrors.sum(), bytesFromCache.sum(), bytesFromOrigin.sum(), bytesToClients.sum(),
                storeRefusals.sum(), storePassThroughs.sum(), storeWriteSheds.sum(), hitsResumedFromOrigin.sum(), truncatedResponses.sum(), openConnections.sum(),
                acceptedConnections.sum(), results, classes, phases.summaries(), store.engineName(), store.usage(),
                snakeCaseExtras(store.stats()), gaugeValues(),
                upstreams.get());
    }

    private Map<String, Long> gaugeValues() {
        Map<String, Long> out = new java.util.TreeMap<>();
        gauges.forEach((name, value) -> out.put(name, value.getAsLong()));
        return out;
    }

    /** The store's counters with the names of its engine-specific figures in snake_case, as every name in /stats is. */
    private static StoreStats snakeCaseExtras(StoreStats st) {
        Map<String, Object> extra = new LinkedHashMap<>();
        new java.util.TreeMap<>(st.extra()).forEach((name, value) -> extra.put(snakeCase(name), value));
        return new StoreStats(st.lookups(), st.lookupHits(), st.writesBegun(), st.writesCommitted(), st.writesAborted(),
                st.bytesWritten(), st.bytesRead(), st.evictions(), st.evictedBytes(), st.removals(),
                st.corruptObjectsDropped(), extra);
    }

    /** {@code mapSizeBytes} as {@code map_size_bytes}, {@code disk.0.state} as {@code disk_0_state}. */
    static String snakeCase(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replaceAll("[^A-Za-z0-9]+", "_").toLowerCase(Locale.ROOT);
    }

    /**
     * A point-in-time copy of every counter, serialised as the admin {@code /stats} JSON with snake_case names
     * ({@code bytes_to_clients}, {@code by_result}: counts by {@link Result#label()}, {@code phase_ms}, the store's
     * figures under {@code store_usage} and {@code store_stats}, each upstream's under {@code upstreams}). Immutable.
     */
    public record Snapshot(
            long requests,
            long hits,
            long misses,
            long passes,
            long coalesced,
            long revalidations,
            long staleServed,
            long originRequests,
            long originErrors,
            long bytesFromCache,
            long bytesFromOrigin,
            long bytesToClients,
            long storeRefusals,
            long storePassThroughs,
            long storeWriteSheds,
            long hitsResumedFromOrigin,
            long truncatedResponses,
            long openConnections,
            long acceptedConnections,
            Map<String, Long> byResult,
            Map<String, Long> byStatusClass,
            @com.fasterxml.jackson.annotation.JsonProperty("phase_ms") Map<String, PhaseTimes.Summary> phaseMillis,
            String engine,
            StoreUsage storeUsage,
            StoreStats storeStats,
            Map<String, Long> gauges,
            List<UpstreamStats> upstreams) {
    }
}
