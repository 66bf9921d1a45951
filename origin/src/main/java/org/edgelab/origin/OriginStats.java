package org.edgelab.origin;

import java.util.Map;
import java.util.TreeMap;

/**
 * A snapshot of an origin's counters: requests received (the stats endpoint excluded), response
 * body bytes sent, and responses by status code. Immutable and thread-safe.
 *
 * @param requests  requests received, including malformed ones, excluding {@code /_stats}
 * @param bytesSent response body bytes handed to the network (headers excluded)
 * @param byStatus  responses per status code, in ascending code order
 */
public record OriginStats(long requests, long bytesSent, Map<Integer, Long> byStatus) {

    /** Copies {@code byStatus} into an unmodifiable, sorted map. */
    public OriginStats {
        byStatus = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(byStatus));
    }

    /** Responses sent with {@code status}, 0 if none. */
    public long responses(int status) {
        return byStatus.getOrDefault(status, 0L);
    }

    /** This snapshot as JSON, snake_case like every EdgeLab file: {@code {"requests":..,"bytes_sent":..,"by_status":{"200":..}}}. */
    public String toJson() {
        StringBuilder json = new StringBuilder(64 + 16 * byStatus.size());
        json.append("{\"requests\":").append(requests)
                .append(",\"bytes_sent\":").append(bytesSent)
                .append(",\"by_status\":{");
        String separator = "";
        for (Map.Entry<Integer, Long> e : byStatus.entrySet()) {
            json.append(separator).append('"').append(e.getKey()).append("\":").append(e.getValue());
            separator = ",";
        }
        return json.append("}}").toString();
    }
}
