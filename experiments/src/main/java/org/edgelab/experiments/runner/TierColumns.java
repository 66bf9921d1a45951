package org.edgelab.experiments.runner;

import java.util.LinkedHashMap;
import java.util.Map;

import org.edgelab.experiments.target.ServerCounters;

/**
 * A topology's per-tier result columns over a measured run, from each tier's counters before and after it
 * ({@link org.edgelab.experiments.target.RunningTarget#tierCounters()}): {@code tier_<name>_requests}, {@code _hits},
 * {@code _misses}, {@code _hit_ratio} (hits over hits and misses), {@code _bytes_to_clients} and
 * {@code _bytes_from_upstream} (what the tier fetched from its parents or the origin); the origin's requests and bytes
 * sent as {@code tier_origin_*}. Stateless.
 */
final class TierColumns {
    /** How the columns are made, for the manifest. */
    static final String METHOD = "a topology's cells (netns target): tier_<name>_requests, _hits, _misses, _hit_ratio (hits over"
            + " hits and misses), _bytes_to_clients and _bytes_from_upstream are each tier's replicas' /stats counters summed,"
            + " read before and after the measured run; tier_origin_requests and _bytes_to_clients are the origin's /_stats;"
            + " server_* are the edge tier's; cpu_s_server is every cache node's JVM; the load's own figures (workers,"
            + " start_skew_ms, worker_requests) come from its workers, merged";
    private TierColumns() {
    }

    /** The columns of every tier in {@code after}; none when the target has no tiers. */
    static Map<String, String> of(Map<String, ServerCounters> before, Map<String, ServerCounters> after) {
        Map<String, String> v = new LinkedHashMap<>();
        for (Map.Entry<String, ServerCounters> e : after.entrySet()) {
            ServerCounters a = e.getValue();
            ServerCounters b = before.get(e.getKey());
            String p = "tier_" + e.getKey().replace('-', '_') + "_";
            v.put(p + "requests", String.valueOf(a.requests() - b.requests()));
            if (a.hasCacheCounters() && b.hasCacheCounters()) {
                long hits = a.hits() - b.hits();
                long misses = a.misses() - b.misses();
                v.put(p + "hits", String.valueOf(hits));
                v.put(p + "misses", String.valueOf(misses));
                v.put(p + "hit_ratio", hits + misses == 0 ? "" : ExperimentRunner.num(hits / (double) (hits + misses)));
                v.put(p + "bytes_from_upstream", delta(b.bytesFromOrigin(), a.bytesFromOrigin()));
            }
            v.put(p + "bytes_to_clients", delta(b.bytesToClients(), a.bytesToClients()));
        }
        return v;
    }

    private static String delta(long before, long after) {
        return before < 0 || after < 0 ? "" : String.valueOf(after - before);
    }
}
