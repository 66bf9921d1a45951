package org.edgelab.peers.trafficserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.Targets;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.peers.PeerRequirement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression test for Traffic Server's lost hits in {@code varnish-edge} (issue 23): its store is a cyclic
 * log whose write cursor overwrites the warmed set once the run has written a store's worth of new objects,
 * popular or not. A small set is read between writes of never-seen objects until the cursor has gone round
 * the store {@value #LAPS} times; with hit evacuation the set is copied past the cursor and every read stays a
 * hit, without it each set object misses once per lap. Requests go one at a time, so no write is dropped
 * for the write backlog and the outcome does not depend on the machine's speed. The set is written after
 * {@value #FILLER} MB of other objects: 9.2 marks an object behind the cursor only within 1/16 of the stripe
 * (the same unit mismatch as its window), so an object at the very start of the stripe is marked only after
 * the cursor has wrapped, too late when it lies in the first agg buffer and the 8 MB ahead that can no longer
 * be evacuated; that loss is Traffic Server's own and not what this test is about.
 */
class TrafficServerHitEvacuationTest {

    private static final long STORE = 64L << 20;
    private static final long SIZE = 1_000_000;
    private static final int SET = 8;
    /** Objects written before the set, so that the set lies clear of the stripe's start (see the class comment). */
    private static final int FILLER = 24;
    private static final int NEW_PER_ROUND = 2;
    private static final int LAPS = 2;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @BeforeEach
    void requireTrafficServer() {
        PeerRequirement.assumeAvailable(Targets.get("trafficserver").unavailableReason(build(true)));
    }

    @Test
    void aSetReadBetweenWritesSurvivesTheWriteCursorGoingRoundTheStore() throws Exception {
        assertThat(setMissesAfterWarmUp(build(true))).as("reads of the warmed set that missed").isZero();
    }

    /** Reads the set after every few new objects until LAPS stores' worth were written; returns the set reads that missed. */
    private int setMissesAfterWarmUp(ServerBuild build) throws Exception {
        Target target = Targets.get(build.target());
        target.validate(build);
        TargetContext context = new TargetContext(dir.resolve("store"), dir.resolve("work"), 1, 0, Duration.ofSeconds(30));
        try (RunningTarget running = target.start(build, context)) {
            int fresh = 0;
            for (int i = 0; i < FILLER; i++) {
                assertThat(get(running, "new-" + fresh++)).isEqualTo("MISS");
            }
            for (int i = 0; i < SET; i++) {
                assertThat(get(running, "set-" + i)).isEqualTo("MISS");
            }
            int misses = 0;
            long rounds = LAPS * STORE / (NEW_PER_ROUND * SIZE) + 1;
            for (long round = 0; round < rounds; round++) {
                for (int n = 0; n < NEW_PER_ROUND; n++) {
                    assertThat(get(running, "new-" + fresh++)).isEqualTo("MISS");
                }
                for (int i = 0; i < SET; i++) {
                    if (!get(running, "set-" + i).startsWith("HIT")) {
                        misses++;
                    }
                }
            }
            return misses;
        }
    }

    /** GETs the object {@code id} through Traffic Server, checks status and length, and returns X-Cache. */
    private String get(RunningTarget running, String id) throws Exception {
        URI uri = URI.create(running.clientUri() + SyntheticPaths.path(id, SIZE));
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).hasSize((int) SIZE);
        return response.headers().firstValue("X-Cache").orElse("(none)");
    }

    private static ServerBuild build(boolean evacuateHits) {
        return new ServerBuild("trafficserver-file", "trafficserver", "file",
                Map.of("size", STORE + "", "evacuate_hits", Boolean.toString(evacuateHits)), Map.of());
    }
}
