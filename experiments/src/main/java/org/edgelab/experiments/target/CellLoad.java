package org.edgelab.experiments.target;

import java.time.Duration;
import org.edgelab.experiments.workload.WorkloadRequest;

/**
 * The load of one cell as a target that sends it from where its servers run (or writes it into manifests) needs it:
 * the whole load's connections and threads, its duration and timeout, the open-loop rate, the workload plugin and
 * what it builds the requests from, whether the cache is warmed first, and the seed. Immutable.
 *
 * @param connections  connections of the whole load
 * @param threads      client event loops, at most {@code connections}
 * @param duration     the measured run's length
 * @param timeout      per-request timeout
 * @param rate         open-loop rate text as the descriptor gives it, or null for closed loop
 * @param workloadKind the workload plugin's name ({@code load.workload.kind})
 * @param workload     what the workload plugin builds the requests from
 * @param warmUp       whether the cache is warmed before the measured run
 * @param seed         the seed of the first repetition
 */
public record CellLoad(int connections, int threads, Duration duration, Duration timeout, String rate, String workloadKind,
                       WorkloadRequest workload, boolean warmUp, long seed) {
}
