package org.edgelab.experiments.target;

/**
 * Counters of whatever answers the clients, since it started, in the same meaning for every target so
 * that EdgeLab's cache and its peers fill the same result columns. Immutable.
 *
 * @param requests        requests answered
 * @param hits            cache hits, -1 without a cache or when the server cannot tell
 * @param misses          cache misses, -1 without a cache or when the server cannot tell
 * @param bytesToClients  body bytes sent to clients, -1 when the server cannot tell
 * @param bytesFromOrigin body bytes fetched from the origin, -1 when unknown
 */
public record ServerCounters(long requests, long hits, long misses, long bytesToClients, long bytesFromOrigin) {

    /** Whether the server reports hits and misses. */
    public boolean hasCacheCounters() {
        return hits >= 0 && misses >= 0;
    }
}
