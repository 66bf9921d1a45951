package org.edgelab.cache.admin;

import java.util.Map;
import org.edgelab.storage.api.StoreStats;

/** Renders a {@link CacheStats.Snapshot} in the Prometheus text exposition format (0.0.4). Stateless. */
public final class PrometheusText {

    /** The Content-Type of the rendered text. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {
    }

    /** Returns every counter and gauge of the snapshot as Prometheus text. */
    public static String render(CacheStats.Snapshot s) {
        StringBuilder b = new StringBuilder(2048);
        header(b, "edgelab_cache_requests_total", "counter", "Requests answered, by X-Cache outcome.");
        for (CacheStats.Result r : CacheStats.Result.values()) {
            b.append("edgelab_cache_requests_total{result=\"").append(r.label()).append("\"} ")
                    .append(s.byResult().get(r.header())).append('\n');
        }
        header(b, "edgelab_cache_responses_total", "counter", "Responses by status class.");
        for (Map.Entry<String, Long> e : s.byStatusClass().entrySet()) {
            b.append("edgelab_cache_responses_total{class=\"").append(e.getKey()).append("\"} ")
                    .append(e.getValue()).append('\n');
        }
        simple(b, "edgelab_cache_hits_total", "counter", "Responses whose X-Cache starts with HIT.", s.hits());
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
        simple(b, "edgelab_cache_truncated_responses_total", "counter", "Responses cut short by a failure.",
                s.truncatedResponses());
        simple(b, "edgelab_cache_open_connections", "gauge", "Client connections open now.", s.openConnections());
        simple(b, "edgelab_cache_accepted_connections_total", "counter", "Client connections accepted.",
                s.acceptedConnections());
        header(b, "edgelab_cache_phase_seconds", "summary",
                "Time of a phase of answering a request inside the server (see PhaseTimes.Phase), since start.");
        for (Map.Entry<String, PhaseTimes.Summary> e : s.phaseMillis().entrySet()) {
            PhaseTimes.Summary p = e.getValue();
            String phase = "edgelab_cache_phase_seconds{phase=\"" + e.getKey() + "\"";
            b.append(phase).append(",quantile=\"0.5\"} ").append(p.p50Ms() / 1e3).append('\n');
            b.append(phase).append(",quantile=\"0.9\"} ").append(p.p90Ms() / 1e3).append('\n');
            b.append(phase).append(",quantile=\"0.99\"} ").append(p.p99Ms() / 1e3).append('\n');
            b.append("edgelab_cache_phase_seconds_sum{phase=\"").append(e.getKey()).append("\"} ")
                    .append(p.meanMs() * p.count() / 1e3).append('\n');
            b.append("edgelab_cache_phase_seconds_count{phase=\"").append(e.getKey()).append("\"} ")
                    .append(p.count()).append('\n');
        }
        for (Map.Entry<String, Long> e : s.gauges().entrySet()) {
            simple(b, "edgelab_cache_" + e.getKey(), "gauge", "A server figure (see CacheStats.gauge).", e.getValue());
        }
        simple(b, "edgelab_store_capacity_bytes", "gauge", "Store capacity.", s.storeUsage().capacityBytes());
        simple(b, "edgelab_store_used_bytes", "gauge", "Store bytes in use.", s.storeUsage().usedBytes());
        simple(b, "edgelab_store_objects", "gauge", "Objects in the store.", s.storeUsage().objectCount());
        StoreStats st = s.storeStats();
        simple(b, "edgelab_store_lookups_total", "counter", "Store lookups.", st.lookups());
        simple(b, "edgelab_store_lookup_hits_total", "counter", "Store lookups that found an object.", st.lookupHits());
        simple(b, "edgelab_store_writes_committed_total", "counter", "Objects committed.", st.writesCommitted());
        simple(b, "edgelab_store_writes_aborted_total", "counter", "Writes aborted.", st.writesAborted());
        simple(b, "edgelab_store_bytes_written_total", "counter", "Bytes written to the store.", st.bytesWritten());
        simple(b, "edgelab_store_bytes_read_total", "counter", "Bytes read from the store.", st.bytesRead());
        simple(b, "edgelab_store_evictions_total", "counter", "Objects evicted.", st.evictions());
        simple(b, "edgelab_store_evicted_bytes_total", "counter", "Bytes evicted.", st.evictedBytes());
        return b.toString();
    }

    private static void header(StringBuilder b, String name, String type, String help) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void simple(StringBuilder b, String name, String type, String help, long value) {
        header(b, name, type, help);
        b.append(name).append(' ').append(value).append('\n');
    }
}
