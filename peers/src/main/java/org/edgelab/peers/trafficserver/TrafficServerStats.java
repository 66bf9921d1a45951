package org.edgelab.peers.trafficserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.edgelab.experiments.target.ServerCounters;

/**
 * Reads Traffic Server's counters from its stats_over_http page and maps them to EdgeLab's: requests
 * {@code proxy.process.http.incoming_requests} less this reader's earlier polls, hits {@code cache_hit_fresh}
 * (the responses labelled {@code X-Cache: HIT}), misses {@code cache_miss_cold + cache_miss_changed}, bytes
 * to clients {@code user_agent_response_document_total_size} and bytes from the origin
 * {@code origin_server_response_document_total_size}, each less the stats pages this reader received before
 * (the plugin answers as an intercepting "origin", so its pages count on both sides). Thread-safe (reads are
 * serialised; each read first waits for Traffic Server's counters to catch up with the last requests).
 */
final class TrafficServerStats {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String P = "proxy.process.http.";

    private final URI uri;
    private long polls;
    private long pollBytes;

    TrafficServerStats(int port) {
        this.uri = URI.create("http://127.0.0.1:" + port + TrafficServerConfig.STATS_PATH);
    }

    /** The counters now. */
    synchronized ServerCounters read() throws IOException {
        HttpResponse<byte[]> response;
        try {
            // Traffic Server sums its per-thread counters every sync interval: let the latest requests in
            Thread.sleep(2 * TrafficServerConfig.STATS_SYNC_MILLIS + 50);
            response = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + uri, e);
        }
        if (response.statusCode() != 200) {
            throw new IOException("GET " + uri + " answered " + response.statusCode());
        }
        JsonNode global = JSON.readTree(response.body()).path("global");
        // the counters include this reader's earlier polls, not yet this one (its count lands at the next sync)
        ServerCounters counters = counters(global, polls, pollBytes);
        polls++;
        pollBytes += response.body().length;
        return counters;
    }

    /**
     * Maps the {@code global} object of stats_over_http's JSON, given how many of this reader's polls it
     * counted and their stats pages' body bytes.
     */
    static ServerCounters counters(JsonNode global, long polls, long pollBytes) throws IOException {
        for (String name : List.of("incoming_requests", "cache_hit_fresh", "cache_miss_cold", "cache_miss_changed",
                "user_agent_response_document_total_size", "origin_server_response_document_total_size")) {
            if (!global.has(P + name)) {
                throw new IOException("Traffic Server's stats have no " + P + name + " (an unexpected version?)");
            }
        }
        return new ServerCounters(Math.max(0, value(global, "incoming_requests") - polls), value(global, "cache_hit_fresh"),
                value(global, "cache_miss_cold") + value(global, "cache_miss_changed"),
                Math.max(0, value(global, "user_agent_response_document_total_size") - pollBytes), Math.max(0, value(global, "origin_server_response_document_total_size") - pollBytes));
    }

    private static long value(JsonNode global, String name) {
        return Long.parseLong(global.get(P + name).asText().trim());
    }
}
