package org.edgelab.cache.admin;

/**
 * One upstream's figures since the server started, as {@code /stats} shows them under {@code upstreams}.
 * Immutable.
 *
 * @param upstream    its {@code host[:port]}
 * @param state       {@code up} or {@code down} (skipped by the ring until a probe or a request finds it answering)
 * @param requests    requests sent to it (each attempt, fills and passes)
 * @param failures    exchanges that failed: refused, reset, timed out or cut short
 * @param markedDown  times it was marked down
 * @param takenBack   times it was taken back
 * @param probes      connection probes made while it was down
 */
public record UpstreamStats(String upstream, String state, long requests, long failures, long markedDown,
                            long takenBack, long probes) {
}
