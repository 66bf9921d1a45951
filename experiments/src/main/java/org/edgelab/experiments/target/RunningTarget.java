package org.edgelab.experiments.target;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/**
 * An origin and a server started by a {@link Target} for one cell: where clients send requests, the
 * server's own counters, and the CPU time of the processes under test. {@link #close()} stops everything
 * it started and removes what it wrote outside the cell's folders, also after a failure. Implementations
 * are thread-safe for {@link #counters()} and {@link #cpu()}; start and close happen on one thread.
 */
public interface RunningTarget extends AutoCloseable {

    /** The base URI clients send requests to (loopback). */
    URI clientUri();

    /** The server's counters since it started (hits and misses -1 when the server cannot tell). */
    ServerCounters counters() throws IOException;

    /** CPU seconds used so far by the processes under test, and how they were measured. */
    CpuSample cpu() throws IOException;

    /**
     * Whether the bodies clients receive are EdgeLab's synthetic content (so every byte can be checked);
     * false only for a foreign origin, where lengths and Content-Range are still checked.
     */
    default boolean syntheticContent() {
        return true;
    }

    /**
     * The process of the server under test, whose process tree's I/O and peak RSS are read from {@code /proc} when it
     * runs in no cgroup; empty when the server shares the runner's process (embedded) or is not a child process.
     */
    default Optional<Long> serverPid() {
        return Optional.empty();
    }

    /**
     * The EdgeLab cache's whole {@code /stats} document (snake_case names: {@code store_usage},
     * {@code store_stats.extra} with the engine's disk states, {@code by_status_class}, ...), read now; empty
     * for a server that is not EdgeLab's cache. May block on the server's admin port.
     */
    default Optional<JsonNode> cacheStats() throws IOException {
        return Optional.empty();
    }

    /**
     * The client that sends this cell's loads (the warm-up, a settle and the measured runs) from where the target's own
     * load workers run, instead of the descriptor's client in the runner's link; empty for every target but one that
     * runs a {@link Topology} (its workers in namespaces of their own).
     */
    default Optional<org.edgelab.experiments.client.LoadClient> ownLoad() {
        return Optional.empty();
    }

    /**
     * The counters of each cache tier (its replicas' {@code /stats} summed) and then of the origin ({@code origin}), read
     * now, by name in order from the edge; empty for one cache in front of one origin. May block on the admin ports.
     */
    default java.util.Map<String, ServerCounters> tierCounters() throws IOException {
        return java.util.Map.of();
    }

    /**
     * The server under test as a process this target can kill and start again on the same store and port (the
     * {@code restart} experiment); empty where it cannot (embedded: the runner's own JVM; a server it did not start).
     */
    default java.util.Optional<ServerRestart> restart() {
        return java.util.Optional.empty();
    }

    @Override
    void close();
}
