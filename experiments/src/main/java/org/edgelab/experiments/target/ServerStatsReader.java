package org.edgelab.experiments.target;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import org.edgelab.experiments.process.PlainHttp;

/**
 * Reads {@link ServerCounters} over HTTP from an EdgeLab server's JSON statistics: the cache's admin
 * {@code GET /stats} (requests, hits, misses, bytes_to_clients, bytes_from_origin) or the origin's
 * {@code GET /_stats} (requests, bytes_sent; no cache counters). Thread-safe.
 */
public final class ServerStatsReader {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final URI statsUri;

    /** A reader of {@code statsUri} (a cache's admin {@code /stats} or an origin's {@code /_stats}). */
    public ServerStatsReader(URI statsUri) {
        this.statsUri = statsUri;
    }

    /** The URL read. */
    URI uri() {
        return statsUri;
    }

    /** Reads the counters now. */
    public ServerCounters read() throws IOException {
        // on the calling thread: behind a kernel link the server is reached only from its namespace's threads
        PlainHttp.Response response = PlainHttp.get(statsUri, TIMEOUT);
        if (response.status() != 200) {
            throw new IOException("GET " + statsUri + " answered " + response.status() + ", not EdgeLab statistics");
        }
        return parse(response.body());
    }

    /** Reads the whole JSON document now. */
    public JsonNode readJson() throws IOException {
        PlainHttp.Response response = PlainHttp.get(statsUri, TIMEOUT);
        if (response.status() != 200) {
            throw new IOException("GET " + statsUri + " answered " + response.status() + ", not EdgeLab statistics");
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IOException(statsUri + " did not answer JSON: " + e.getMessage(), e);
        }
    }

    /**
     * The numeric figures of the store in an EdgeLab cache's {@code /stats} document ({@link RunningTarget#cacheStats()}):
     * {@code store_stats}' own counters ({@code bytes_written}, {@code evictions}, ...) and its engine's figures
     * ({@code store_stats.extra}, e.g. lmdb's {@code map_high_water_bytes}), by their snake_case names.
     */
    public static java.util.Map<String, Double> storeFigures(JsonNode cacheStats) {
        JsonNode stats = cacheStats.path("store_stats");
        java.util.Map<String, Double> out = new java.util.TreeMap<>();
        for (JsonNode node : java.util.List.of(stats, stats.path("extra"))) {
            node.fields().forEachRemaining(e -> {
                if (e.getValue().isNumber()) {
                    out.put(e.getKey(), e.getValue().asDouble());
                }
            });
        }
        return out;
    }

    /** Counters from the JSON of a cache's {@code /stats} or an origin's {@code /_stats}. */
    ServerCounters parse(String json) throws IOException {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (IOException e) {
            throw new IOException(statsUri + " did not answer JSON: " + e.getMessage(), e);
        }
        if (node != null && node.has("hits") && node.has("misses") && node.has("requests")) {
            return new ServerCounters(node.get("requests").asLong(), node.get("hits").asLong(), node.get("misses").asLong(),
                    node.path("bytes_to_clients").asLong(-1), node.path("bytes_from_origin").asLong(-1));
        }
        if (node != null && node.has("requests") && node.has("bytes_sent")) {
            return new ServerCounters(node.get("requests").asLong(), -1, -1, node.get("bytes_sent").asLong(), 0);
        }
        throw new IOException(statsUri + " is not an EdgeLab cache's /stats or origin's /_stats"
                + " (expected fields requests and hits/misses or bytes_sent)");
    }
}
