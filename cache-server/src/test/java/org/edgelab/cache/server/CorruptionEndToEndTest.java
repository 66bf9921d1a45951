package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.verified;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.SyntheticContent;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.storage.contract.DamagedFileScenario;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Damaged object bytes on disk, end to end, per disk engine: the cache (its own JVM) stores six
 * objects, is stopped, one object's body is damaged in the engine's files well past its first
 * chunk, and the cache is started again on the same files. No response may carry a wrong byte or
 * be an empty reply: the first request for the damaged object is a clean MISS on a connection
 * that stays open (the object is refetched and stored again, a HIT on the next request), and every
 * other object is still a byte-exact HIT.
 */
class CorruptionEndToEndTest {

    private static final long SIZE = DamagedFileScenario.SIZE;
    private static final int OBJECTS = 6;
    private static final int VICTIM = 3;

    private static String request(int i) {
        return "GET " + SyntheticPaths.path("damaged-" + i, SIZE) + " HTTP/1.1\r\nHost: edge.example\r\n\r\n";
    }

    /** Sends the request for object {@code i} on {@code raw}; fails unless the answer is a whole, byte-exact 200. */
    private static String exact(RawHttp raw, int i, String what, ServeProcess cache) throws Exception {
        raw.send(request(i));
        RawHttp.Response r = raw.read(false);
        assertThat(r).as("%s: an empty reply (connection closed); the server's errors:%n%s", what, cache.errors())
                .isNotNull();
        assertThat(r.status()).as(what).isEqualTo(200);
        assertThat(r.complete()).as("%s: cut mid-body", what).isTrue();
        assertThat(r.body().length).as(what).isEqualTo(SIZE);
        assertThat(verified("damaged-" + i, 0, r.body())).as("%s: every byte right", what).isTrue();
        return r.header("x-cache");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"raw-log", "raw-files", "lmdb", "tiered"})
    void aDamagedObjectIsACleanMissOnTheFirstRequestAfterARestartAndNoWrongByteIsServed(String engine,
            @TempDir Path store, @TempDir Path work) throws Exception {
        List<String> options = ServeProcess.diskStoreOptions(engine, store, "256MB");
        try (OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).build())) {
            try (ServeProcess cache = ServeProcess.start(origin.baseUri(), engine, options, work, "fill")) {
                try (RawHttp raw = new RawHttp(cache.port)) {
                    // the first fills of a fresh server JVM, on a loaded machine, once took over the 10-s default
                    raw.soTimeout(30_000);
                    for (int i = 0; i < OBJECTS; i++) {
                        assertThat(exact(raw, i, "fill damaged-" + i, cache)).startsWith("MISS");
                    }
                    for (int i = 0; i < OBJECTS; i++) {
                        assertThat(exact(raw, i, "stored damaged-" + i, cache)).startsWith("HIT");
                    }
                }
                cache.stop();
            }
            byte[] pattern = new byte[64];
            SyntheticContent.fill(SyntheticContent.seed("damaged-" + VICTIM), DamagedFileScenario.DAMAGE_AT,
                    ByteBuffer.wrap(pattern));
            Path damaged = DamagedFileScenario.flipBytes(store, pattern);
            long originBefore = origin.stats().requests();
            try (ServeProcess cache = ServeProcess.start(origin.baseUri(), engine, options, work, "after-damage");
                 RawHttp raw = new RawHttp(cache.port)) {
                raw.soTimeout(30_000); // a fresh server JVM again
                List<String> xcache = new ArrayList<>();
                xcache.add(exact(raw, VICTIM, "first request for the damaged object (in " + damaged.getFileName() + ")",
                        cache));
                xcache.add(exact(raw, VICTIM, "second request for the damaged object, same connection", cache));
                assertThat(xcache).as("the damaged object is refetched once, then stored again")
                        .satisfiesExactly(x -> assertThat(x).startsWith("MISS"), x -> assertThat(x).startsWith("HIT"));
                for (int i = 0; i < OBJECTS; i++) {
                    if (i != VICTIM) {
                        assertThat(exact(raw, i, "undamaged damaged-" + i, cache)).startsWith("HIT");
                    }
                }
                assertThat(origin.stats().requests() - originBefore).as("origin requests after the restart")
                        .isEqualTo(1);
                System.out.printf("%s, damaged %s: 0 wrong bytes, 0 empty replies; the damaged object %s then %s%n",
                        engine, damaged.getFileName(), xcache.get(0), xcache.get(1));
            }
        }
    }
}
