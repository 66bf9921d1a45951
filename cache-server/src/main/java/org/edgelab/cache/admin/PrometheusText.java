package org.edgelab.cache.admin;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;
import org.edgelab.storage.api.StoreStats;

/**
 * Renders a {@link CacheStats.Snapshot} in the Prometheus text exposition format (0.0.4): the cache's counters under
 * {@code edgelab_cache_*} (each figure once: hits are {@code edgelab_cache_requests_total{result=~"hit.*"}}), the phase
 * timings as a histogram, and the storage engine's own figures under {@code edgelab_store_*}: the counters every
 * engine keeps, its numeric engine-specific figures (untyped: an engine's figure may be a gauge or a counter) and its
 * text settings and states as labels of {@code edgelab_store_info}.
 *
 * <p>Written here rather than with the Prometheus Java client: the cache keeps its counters in {@link CacheStats}
 * (striped adders) and its timings in HdrHistogram already, so the client would be a second registry to keep in step
 * and four jars for some forty lines of text format.
 *
 * <p>Stateless.
 */
public final class PrometheusText {

    /** The Content-Type of the rendered text. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {
    }

    /** Returns every counter, gauge and histogram of the snapshot as Prometheus text. */
    public static String render(CacheStats.Snapshot s) {
        StringBuilder b = new StringBuilder(4096);
        header(b, "edgelab_cache_requests_total", "counter", "Requests answered, by X-Cache outcome (hit* are served from the store).");
        for (CacheStats.Result r : CacheStats.Result.values()) {
            b.append("edgelab_cache_requests_total{result=\"").append(r.label()).append("\"} ")
                    .append(s.byResult().get(r.label())).append('\n');
        }
        header(b, "edgelab_cache_responses_total", "counter", "Responses by status class.");
        for (Map.Entry<String, Long> e : s.byStatusClass().entrySet()) {
            b.append("edgelab_cache_responses_total{class=\"").append(e.getKey()).append("\"} ")
                    .append(e.getValue()).append('\n');
        }
        simple(b, "edgelab_cache_revalidations_total", "counter", "Conditional requests sent to the origin.",
                s.revalidations());
        simple(b, "edgelab_cache_origin_requests_total", "counter", "Requests sent to the origin.", s.originRequests());
        simple(b, "edgelab_cache_origin_errors_total", "counter", "Origin failures (refused, reset, timeout).",
                s.originErrors());
        simple(b, "edgelab_cache_bytes_from_cache_total", "counter", "Body bytes served from the store.",
                s.bytesFromCache());
        simple(b, "edgelab_cache_bytes_from_origin_total", "counter", "Body bytes received from the origin.",
                s.bytesFromOrigin());
        simple(b, "edgelab_cache_bytes_to_clients_total", "counter", "Body bytes sent to clients.",
                s.bytesToClients());
        simple(b, "edgelab_cache_store_refusals_total", "counter", "Storable responses the store refused.",
                s.storeRefusals());
        simple(b, "edgelab_cache_store_pass_throughs_total", "counter",
                "Fills whose store write was refused or failed, passed through to their clients from the origin.",
                s.storePassThroughs());
        simple(b, "edgelab_cache_store_write_sheds_total", "counter",
                "Fills passed through unstored because the store's write lane was stalled.", s.storeWriteSheds());
        simple(b, "edgelab_cache_hits_resumed_from_origin_total", "counter",
                "Stored responses whose stored bytes failed mid-body and whose rest was asked of the origin.",
                s.hitsResumedFromOrigin());
        simple(b, "edgelab_cache_truncated_responses_total", "counter", "Responses cut short by a failure.",
                s.truncatedResponses());
        simple(b, "edgelab_cache_open_connections", "gauge", "Client connections open now.", s.openConnections());
        simple(b, "edgelab_cache_accepted_connections_total", "counter", "Client connections accepted.",
                s.acceptedConnections());
        upstreams(b, s);
        header(b, "edgelab_cache_phase_seconds", "histogram",
                "Time of a phase of answering a request inside the server (see PhaseTimes.Phase).");
        for (Map.Entry<String, PhaseTimes.Summary> e : s.phaseMillis().entrySet()) {
            PhaseTimes.Summary p = e.getValue();
            String phase = "{phase=\"" + e.getKey() + "\"";
            long[] cumulative = p.cumulativeCounts();
            for (int i = 0; i < PhaseTimes.BUCKET_BOUNDS_SECONDS.length; i++) {
                b.append("edgelab_cache_phase_seconds_bucket").append(phase).append(",le=\"")
                        .append(number(PhaseTimes.BUCKET_BOUNDS_SECONDS[i])).append("\"} ").append(cumulative[i]).append('\n');
            }
            b.append("edgelab_cache_phase_seconds_bucket").append(phase).append(",le=\"+Inf\"} ").append(p.count()).append('\n');
            b.append("edgelab_cache_phase_seconds_sum").append(phase).append("} ").append(number(p.sumSeconds())).append('\n');
            b.append("edgelab_cache_phase_seconds_count").append(phase).append("} ").append(p.count()).append('\n');
        }
        for (Map.Entry<String, Long> e : s.gauges().entrySet()) {
            simple(b, "edgelab_cache_" + e.getKey(), "gauge", "A server figure (see CacheStats.gauge).", e.getValue());
        }
        header(b, "edgelab_store_info", "gauge", "The storage engine, and its settings and states as labels; always 1.");
        b.append("edgelab_store_info{engine=\"").append(escape(s.engine())).append('"');
        StoreStats st = s.storeStats();
        Map<String, Object> extra = new TreeMap<>(st.extra());
        for (Map.Entry<String, Object> e : extra.entrySet()) {
            if (!(e.getValue() instanceof Number)) {
                b.append(',').append(e.getKey()).append("=\"").append(escape(String.valueOf(e.getValue()))).append('"');
            }
        }
        b.append("} 1\n");
        simple(b, "edgelab_store_capacity_bytes", "gauge", "Store capacity.", s.storeUsage().capacityBytes());
        simple(b, "edgelab_store_used_bytes", "gauge", "Store bytes in use.", s.storeUsage().usedBytes());
        simple(b, "edgelab_store_objects", "gauge", "Objects in the store.", s.storeUsage().objectCount());
        simple(b, "edgelab_store_lookups_total", "counter", "Store lookups.", st.lookups());
        simple(b, "edgelab_store_lookup_hits_total", "counter", "Store lookups that found an object.", st.lookupHits());
        simple(b, "edgelab_store_writes_begun_total", "counter", "Writes begun.", st.writesBegun());
        simple(b, "edgelab_store_writes_committed_total", "counter", "Objects committed.", st.writesCommitted());
        simple(b, "edgelab_store_writes_aborted_total", "counter", "Writes aborted.", st.writesAborted());
        simple(b, "edgelab_store_bytes_written_total", "counter", "Bytes written to the store.", st.bytesWritten());
        simple(b, "edgelab_store_bytes_read_total", "counter", "Bytes read from the store.", st.bytesRead());
        simple(b, "edgelab_store_evictions_total", "counter", "Objects evicted.", st.evictions());
        simple(b, "edgelab_store_evicted_bytes_total", "counter", "Bytes evicted.", st.evictedBytes());
        simple(b, "edgelab_store_removals_total", "counter", "Objects removed (invalidated or replaced).", st.removals());
        simple(b, "edgelab_store_corrupt_objects_dropped_total", "counter", "Damaged objects found and dropped.",
                st.corruptObjectsDropped());
        for (Map.Entry<String, Object> e : extra.entrySet()) {
            if (e.getValue() instanceof Number n) {
                String name = "edgelab_store_" + e.getKey();
                header(b, name, "untyped", "Engine-specific figure '" + e.getKey() + "' of " + s.engine() + ".");
                b.append(name).append(' ').append(number(n.doubleValue())).append('\n');
            }
        }
        return b.toString();
    }

    /** Each upstream's counters, labelled {@code upstream="host:port"}. */
    private static void upstreams(StringBuilder b, CacheStats.Snapshot s) {
        if (s.upstreams().isEmpty()) {
            return;
        }
        header(b, "edgelab_cache_upstream_up", "gauge", "1 while the upstream is up, 0 while it is marked down.");
        for (UpstreamStats u : s.upstreams()) {
            labelled(b, "edgelab_cache_upstream_up", u, "up".equals(u.state()) ? 1 : 0);
        }
        header(b, "edgelab_cache_upstream_requests_total", "counter", "Requests sent to the upstream (each attempt).");
        for (UpstreamStats u : s.upstreams()) {
            labelled(b, "edgelab_cache_upstream_requests_total", u, u.requests());
        }
        header(b, "edgelab_cache_upstream_failures_total", "counter", "Exchanges with the upstream that failed.");
        for (UpstreamStats u : s.upstreams()) {
            labelled(b, "edgelab_cache_upstream_failures_total", u, u.failures());
        }
        header(b, "edgelab_cache_upstream_marked_down_total", "counter", "Times the upstream was marked down.");
        for (UpstreamStats u : s.upstreams()) {
            labelled(b, "edgelab_cache_upstream_marked_down_total", u, u.markedDown());
        }
    }

    private static void labelled(StringBuilder b, String name, UpstreamStats u, long value) {
        b.append(name).append("{upstream=\"").append(escape(u.upstream())).append("\"} ").append(value).append('\n');
    }

    private static void header(StringBuilder b, String name, String type, String help) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void simple(StringBuilder b, String name, String type, String help, long value) {
        header(b, name, type, help);
        b.append(name).append(' ').append(value).append('\n');
    }

    /** A sample value or bound without exponent or trailing zeros: {@code 0.00005}, {@code 2.5}, {@code 10}. */
    static String number(double value) {
        if (!Double.isFinite(value)) {
            return Double.isNaN(value) ? "NaN" : value > 0 ? "+Inf" : "-Inf";
        }
        return new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
    }

    /** A label value with backslash, quote and line feed escaped, as the text format asks. */
    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
