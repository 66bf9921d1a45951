package org.edgelab.experiments.client;

import java.time.Duration;
import java.util.List;

/**
 * What a descriptor asks every load client to send, as {@link LoadClient#validate} checks it while the
 * descriptor loads. Immutable and thread-safe.
 *
 * @param connections  connection counts (one per cell along that dimension)
 * @param threads      client event loops or threads (a cell uses at most one per connection)
 * @param duration     measured run length (its cap, when {@code requests} is set)
 * @param requests     the measured run ends after this many requests, 0 for no bound
 * @param settle       unrecorded run before the measured one (zero: none)
 * @param timeout      per-request timeout
 * @param rate         open-loop rate text ({@code 2000}, {@code 100..1000}), or null for closed loop
 * @param workloadKind the workload plugin that makes the requests ({@code objects}, {@code trace}, {@code video})
 * @param userSpaceLink whether any cell's link is, or may fall back to, a user-space link, which the client emulates
 *                     itself (a kernel link needs nothing of the client: it runs in the link's client namespace)
 */
public record ClientLoad(List<Integer> connections, int threads, Duration duration, long requests, Duration settle, Duration timeout,
                         String rate, String workloadKind, boolean userSpaceLink) {
    public ClientLoad {
        connections = List.copyOf(connections);
    }
}
