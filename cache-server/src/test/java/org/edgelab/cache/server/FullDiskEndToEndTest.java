package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.verified;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.storage.contract.FullDiskScenario;
import org.edgelab.storage.contract.ScratchMount;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A full disk under the cache, end to end, per disk engine: the cache (its own JVM) stores on a
 * 64 MiB tmpfs (mounted by the test as root; skipped with the reason without root, failing instead
 * when {@code EDGELAB_REQUIRE_ROOT=1}; always unmounted) with a configured capacity four times that,
 * and clients fetch 40 distinct 4 MiB objects through it, four at a time. Every response must be
 * complete and byte-exact (the fills the store refuses are passed through, and counted); the
 * store's disk stays online; each object is fetched from the origin once (a refused fill does not
 * send its clients to fetch again); the objects it did store are served as hits; and after a SIGKILL and
 * a restart on the same file system every one of them is still a hit, byte-exact.
 */
class FullDiskEndToEndTest {

    private static final int OBJECTS = FullDiskScenario.OBJECTS;
    private static final long SIZE = FullDiskScenario.OBJECT_SIZE;
    private static final String CAPACITY = Long.toString(FullDiskScenario.CAPACITY);

    private static List<String> options(String engine, Path fs) {
        return ServeProcess.diskStoreOptions(engine, fs, CAPACITY);
    }

    private record Got(int status, String xcache, boolean complete, boolean exact) {
    }

    private static Got get(int port, int i, String extraHeader) throws Exception {
        String id = "full-" + i;
        try (RawHttp raw = new RawHttp(port)) {
            raw.soTimeout(60_000);
            raw.send("GET " + SyntheticPaths.path(id, SIZE) + " HTTP/1.1\r\nHost: edge.example\r\n" + extraHeader + "\r\n");
            RawHttp.Response r = raw.read(false);
            if (r == null) {
                return new Got(0, "(empty reply)", false, false);
            }
            boolean exact = r.status() == 200 && r.body().length == SIZE && verified(id, 0, r.body());
            return new Got(r.status(), r.header("x-cache"), r.complete(), exact);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"raw-log", "raw-files", "lmdb", "tiered"})
    void fortyObjectsThroughAFullDiskAreFortyWholeResponsesAndEveryStoredOneSurvivesASigkill(String engine,
            @TempDir Path work) throws Exception {
        try (ScratchMount fs = ScratchMount.tmpfs(FullDiskScenario.FILE_SYSTEM);
             OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).build())) {
            List<Integer> stored = new ArrayList<>();
            try (ServeProcess cache = ServeProcess.start(origin.baseUri(), engine, options(engine, fs.dir()), work,
                    "first")) {
                ExecutorService clients = Executors.newFixedThreadPool(4);
                List<Future<Got>> got = new ArrayList<>();
                try {
                    for (int i = 0; i < OBJECTS; i++) {
                        int n = i;
                        got.add(clients.submit(() -> get(cache.port, n, "")));
                    }
                    int whole = 0;
                    List<String> bad = new ArrayList<>();
                    for (int i = 0; i < OBJECTS; i++) {
                        Got g = got.get(i).get(120, TimeUnit.SECONDS);
                        if (g.status == 200 && g.complete && g.exact) {
                            whole++;
                        } else {
                            bad.add("full-" + i + ": " + g);
                        }
                    }
                    System.out.printf("%s on a full file system: %d of %d responses complete and byte-exact%n",
                            engine, whole, OBJECTS);
                    assertThat(bad).as("responses cut, empty or wrong; the server's errors:%n%s", cache.errors())
                            .isEmpty();
                    assertThat(origin.stats().requests()).as("each object fetched from the origin once, also"
                            + " when the store refused its first write").isEqualTo(OBJECTS);
                } finally {
                    clients.shutdownNow();
                }
                for (int i = 0; i < OBJECTS; i++) {
                    Got g = get(cache.port, i, "Cache-Control: only-if-cached\r\n");
                    if (g.status == 200) {
                        assertThat(g.exact).as("stored full-%d", i).isTrue();
                        assertThat(g.xcache).startsWith("HIT");
                        stored.add(i);
                    } else {
                        assertThat(g.status).as("full-%d, not stored", i).isEqualTo(504);
                    }
                }
                JsonNode stats = cache.stats();
                long passThroughs = stats.path("store_pass_throughs").asLong();
                System.out.printf("%s: %d objects stored, %d fills passed through, store %s%n", engine, stored.size(),
                        passThroughs, stats.path("store_stats").path("extra"));
                assertThat(stored).as("objects that fitted before the file system filled").isNotEmpty();
                assertThat(stored.size()).as("the file system filled").isLessThan(OBJECTS);
                assertThat(passThroughs).isEqualTo(OBJECTS - stored.size());
                assertThat(cache.metrics()).contains("edgelab_cache_store_pass_throughs_total " + passThroughs);
                List<String> diskStates = new ArrayList<>();
                stats.path("store_stats").path("extra").fields().forEachRemaining((Map.Entry<String, JsonNode> e) -> {
                    if (e.getKey().endsWith("_state")) {
                        diskStates.add(e.getKey() + "=" + e.getValue().asText());
                        assertThat(e.getValue().asText()).as("a full file system is not a failed disk: " + e.getKey())
                                .isEqualTo("ONLINE");
                    }
                });
                if (engine.equals("raw-log") || engine.equals("tiered")) {
                    assertThat(diskStates).as("raw-log's disk states in /stats").isNotEmpty();
                }
                cache.kill();
            }
            try (ServeProcess again = ServeProcess.start(origin.baseUri(), engine, options(engine, fs.dir()), work,
                    "after-sigkill")) {
                List<String> lost = new ArrayList<>();
                for (int i : stored) {
                    Got g = get(again.port, i, "Cache-Control: only-if-cached\r\n");
                    if (g.status != 200 || !g.complete || !g.exact) {
                        lost.add("full-" + i + ": " + g);
                    }
                }
                System.out.printf("%s after SIGKILL and restart: %d of %d stored objects byte-exact%n", engine,
                        stored.size() - lost.size(), stored.size());
                assertThat(lost).as("stored objects lost or damaged by the SIGKILL; the server's errors:%n%s",
                        again.errors()).isEmpty();
            }
        }
    }
}
