package org.edgelab.kubernetes.worker;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.Segment;
import org.edgelab.loadgen.workload.ObjectWorkload;

/**
 * The whole load that the workers of one Job divide among them, as the runner hands it to every worker (one JSON
 * value in the pod's environment): the edge tier's URL, connections and threads of the whole load, its duration and
 * timeout, the objects workload (sizes, count, popularity, target hit ratio), the run's seed and the number of workers.
 * Each worker takes its segment of it (the completion index of N). Immutable and thread-safe.
 *
 * @param url            the edge tier's base URL inside the cluster
 * @param connections    connections of the whole load (each worker keeps its share open)
 * @param threads        event-loop threads of each worker
 * @param durationMillis the measured run's length
 * @param timeoutMillis  a response not complete after this long is a timeout
 * @param sizes          object sizes as loadgen's {@code --sizes} reads them, e.g. {@code 100KB}
 * @param objects        distinct objects
 * @param popularity     {@code uniform} or {@code zipf:ALPHA}
 * @param hitRatio       the target hit ratio, or null for none
 * @param seed           the run's seed (each worker derives its own from it and its segment)
 * @param workers        the number of workers N
 */
public record WorkerSpec(String url, int connections, int threads, long durationMillis, long timeoutMillis, String sizes,
                         long objects, String popularity, Double hitRatio, long seed, int workers) {

    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    /** Checks the workers can share the connections (each worker keeps at least one open). */
    public WorkerSpec {
        Segment.checkConnections(workers, connections);
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
        ObjectWorkload.Builder workload = ObjectWorkload.builder().sizes(sizes).objects(objects).popularity(popularity)
                .namespace("s" + seed);
        if (hitRatio != null) {
            workload.targetHitRatio(hitRatio);
        }
        return LoadConfig.builder().url(URI.create(url)).connections(connections).threads(threads)
                .duration(Duration.ofMillis(durationMillis)).timeout(Duration.ofMillis(timeoutMillis)).seed(seed)
                .workload(workload.build()).segment(new Segment(index, workers)).startAt(startAt).build();
    }
}
