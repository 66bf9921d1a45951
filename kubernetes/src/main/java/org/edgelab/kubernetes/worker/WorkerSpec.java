package org.edgelab.kubernetes.worker;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.edgelab.experiments.target.CellLoad;
import org.edgelab.experiments.workload.WorkloadPlugins;
import org.edgelab.experiments.workload.WorkloadRequest;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.RateSchedule;
import org.edgelab.loadgen.Segment;
import org.edgelab.loadgen.workload.MeasuredOnly;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.PluginSettings;

/**
 * The whole load that the workers of one Job divide among them, as the runner hands it to every worker (one JSON
 * value in the pod's environment): the edge tier's URL, the cell's load ({@link CellLoad}: connections, threads,
 * duration, timeout, rate, the workload plugin and its request, warm-up, seed) and the number of workers N. Each worker
 * builds the same workload with the same plugin and takes its segment (the completion index of N); worker 0 warms the
 * cache first, once for all. Immutable and thread-safe.
 *
 * @param url              the edge tier's base URL inside the cluster
 * @param connections      connections of the whole load (each worker keeps its share open)
 * @param threads          event-loop threads of the whole load (a worker uses at most its connections)
 * @param durationMillis   the measured run's length
 * @param timeoutMillis    a response not complete after this long is a timeout
 * @param rate             the open-loop rate as the descriptor gives it, or null for closed loop
 * @param workloadKind     the workload plugin
 * @param objectSize       the cell's object size
 * @param rangeSize        the cell's range size, 0 for whole objects
 * @param workingSet       the working set in bytes
 * @param maxObjects       the bound on distinct objects
 * @param popularity       {@code uniform} or {@code zipf:ALPHA}
 * @param targetHitRatio   the target hit ratio
 * @param workloadSettings the workload plugin's settings
 * @param namespace        the object-id prefix of the cell
 * @param warmUp           whether worker 0 warms the cache before the start barrier
 * @param seed             the run's seed (each worker derives its own from it and its segment)
 * @param workers          the number of workers N
 */
public record WorkerSpec(String url, int connections, int threads, long durationMillis, long timeoutMillis, String rate,
                         String workloadKind, long objectSize, long rangeSize, long workingSet, long maxObjects,
                         String popularity, double targetHitRatio, Map<String, String> workloadSettings, String namespace,
                         boolean warmUp, long seed, int workers) {

    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    /** Copies the settings; checks the workers can share the connections (each worker keeps at least one open). */
    public WorkerSpec {
        workloadSettings = Map.copyOf(workloadSettings);
        Segment.checkConnections(workers, connections);
    }

    /** The spec of {@code load} sent to {@code url} by {@code workers} workers. */
    public static WorkerSpec of(String url, CellLoad load, int workers) {
        WorkloadRequest w = load.workload();
        return new WorkerSpec(url, load.connections(), load.threads(), load.duration().toMillis(), load.timeout().toMillis(),
                load.rate(), load.workloadKind(), w.objectSize(), w.rangeSize(), w.workingSet(), w.maxObjects(), w.popularity(),
                w.targetHitRatio(), w.settings().asMap(), w.namespace(), load.warmUp(), load.seed(), workers);
    }

    /** This spec as one line of JSON (an environment value). */
    public String toJson() {
        try {
            return MAPPER.writeValueAsString(this);
        } catch (IOException e) {
            throw new IllegalStateException("a worker spec did not serialise: " + e.getMessage(), e);
        }
    }

    /** Reads {@link #toJson}; throws IllegalArgumentException saying what is wrong. */
    public static WorkerSpec parse(String json) {
        try {
            return MAPPER.readValue(json, WorkerSpec.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a worker spec: " + e.getMessage(), e);
        }
    }

    /** Worker {@code index}'s share of this load, its measured run starting at {@code startAt}. */
    public LoadConfig segment(int index, Instant startAt) {
        Workload workload = WorkloadPlugins.get(workloadKind).create(new WorkloadRequest(objectSize, rangeSize, workingSet,
                maxObjects, popularity, targetHitRatio, PluginSettings.of(workloadSettings), namespace));
        Duration duration = Duration.ofMillis(durationMillis);
        LoadConfig.Builder config = LoadConfig.builder().url(URI.create(url)).connections(connections).threads(threads)
                .duration(duration).timeout(Duration.ofMillis(timeoutMillis)).seed(seed)
                .workload(warmUp ? workload : new MeasuredOnly(workload)).segment(new Segment(index, workers)).startAt(startAt);
        if (rate != null) {
            config.rate(RateSchedule.parse(rate, duration));
        }
        return config.build();
    }
}
