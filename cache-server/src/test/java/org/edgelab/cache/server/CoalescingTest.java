package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.verified;
import static org.edgelab.cache.server.CacheFixture.xcache;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.edgelab.origin.content.SyntheticPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Concurrent misses for one object share one origin fetch, and every client gets every byte. */
@ParameterizedClass(name = "{0}")
@MethodSource("org.edgelab.cache.server.Engines#names")
class CoalescingTest {

    @Parameter
    String engine;

    @Test
    void concurrentClientsOnAColdObjectShareOneOriginRequest() throws Exception {
        try (CacheFixture f = new CacheFixture(engine)) {
            int size = 2_000_000;
            int clients = 8;
            // 300 ms to the headers, then about a second of body: the fill is in progress for the late client
            String path = SyntheticPaths.path("coalesce", size) + "?first-byte-delay=300ms&rate=2MiB";
            List<CompletableFuture<HttpResponse<byte[]>>> early = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                early.add(f.client.sendAsync(HttpRequest.newBuilder(f.uri(path)).timeout(Duration.ofSeconds(20)).build(),
                        HttpResponse.BodyHandlers.ofByteArray()));
            }
            Thread.sleep(450); // headers are in, the body is still arriving
            HttpResponse<byte[]> late = f.get(path);
            List<HttpResponse<byte[]>> all = new ArrayList<>();
            for (CompletableFuture<HttpResponse<byte[]>> c : early) {
                all.add(c.join());
            }
            all.add(late);
            long misses = 0;
            long coalesced = 0;
            for (HttpResponse<byte[]> r : all) {
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).hasSize(size);
                assertThat(verified("coalesce", 0, r.body())).isTrue();
                // A client whose request a busy machine delays past the end of the fill finds a plain HIT.
                assertThat(xcache(r)).isIn("MISS", "HIT-COALESCED", "HIT");
                misses += xcache(r).equals("MISS") ? 1 : 0;
                coalesced += xcache(r).equals("HIT-COALESCED") ? 1 : 0;
            }
            assertThat(misses).isEqualTo(1);
            assertThat(coalesced).as("clients that joined the fill").isPositive();
            assertThat(f.origin.stats().requests()).isEqualTo(1);
            assertThat(f.cache.stats().snapshot(f.store).coalesced()).isEqualTo(coalesced);
            assertThat(xcache(f.get(path))).isEqualTo("HIT");
        }
    }
    /**
     * A request sent as soon as a miss's response has ended finds the object, never a second
     * origin fetch: the fill may still be finishing (its commit done, its registry entry not yet
     * gone), and a request that meets it then must look the store up again, not fetch anew.
     */
    @Test
    void aRequestRightAfterAMissIsAHitEveryTime() throws Exception {
        try (CacheFixture f = new CacheFixture(engine)) {
            int keys = 100;
            for (int i = 0; i < keys; i++) {
                String path = SyntheticPaths.path("right-after-" + i, 2_000);
                assertThat(xcache(f.get(path))).as(path).isEqualTo("MISS");
                HttpResponse<byte[]> again = f.get(path);
                assertThat(xcache(again)).as(path).startsWith("HIT");
                assertThat(verified("right-after-" + i, 0, again.body())).isTrue();
            }
            assertThat(f.origin.stats().requests()).isEqualTo(keys);
        }
    }

    @Test
    void anObjectTheStoreRefusesIsStreamedToEveryWaitingClientFromOneOriginRequest() throws Exception {
        try (CacheFixture f = new CacheFixture(engine, org.edgelab.origin.OriginConfig.builder().port(0).build(), "1m",
                b -> { })) {
            int size = 3_000_000;
            String path = SyntheticPaths.path("toobig", size) + "?first-byte-delay=300ms";
            List<CompletableFuture<HttpResponse<byte[]>>> all = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                all.add(f.client.sendAsync(HttpRequest.newBuilder(f.uri(path)).timeout(Duration.ofSeconds(20)).build(),
                        HttpResponse.BodyHandlers.ofByteArray()));
            }
            for (CompletableFuture<HttpResponse<byte[]>> c : all) {
                HttpResponse<byte[]> r = c.join();
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(xcache(r)).isEqualTo("PASS");
                assertThat(r.body()).hasSize(size);
                assertThat(verified("toobig", 0, r.body())).isTrue();
            }
            assertThat(f.origin.stats().requests()).isEqualTo(1);
            assertThat(f.cache.stats().snapshot(f.store).storeRefusals()).isEqualTo(1);
            assertThat(f.cache.stats().snapshot(f.store).bytesFromOrigin()).isEqualTo(size);
            assertThat(f.store.usage().usedBytes()).isLessThanOrEqualTo(1 << 20);
        }
    }
}
