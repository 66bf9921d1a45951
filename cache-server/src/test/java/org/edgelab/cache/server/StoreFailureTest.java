package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.edgelab.cache.server.CacheFixture.verified;
import static org.edgelab.cache.server.CacheFixture.xcache;

import java.net.http.HttpResponse;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.edgelab.cache.store.StoreLane;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.StorageEngines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Store calls that fail on the executor reach the client as a clean answer, an origin pass-through
 * or a closed connection, never as a connection left waiting; closing the server drains both
 * of the store's lanes; and a fill's body pieces that queue behind a write in progress are written in
 * one call on the write lane (one thread wake-up, not one per piece), also when a write inside that
 * batch fails.
 */
class StoreFailureTest {

    private static final int BATCHED_SIZE = 1_000_000; // under the fill's write-ahead (1 MiB): the origin is never paused

    private OriginServer origin;
    private FaultyStore store;
    private CacheServer cache;

    @BeforeEach
    void start() throws Exception {
        origin = OriginServer.start(OriginConfig.builder().port(0).build());
        store = new FaultyStore(StorageEngines.open("memory", PluginSettings.of("capacity", "32m")));
        cache = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).ioThreads(2).storeThreads(2)
                .build(), store);
    }

    @AfterEach
    void stop() throws Exception {
        cache.close();
        origin.close();
        store.close();
    }

    private CacheKey key(String path) {
        return CacheKey.of("http://127.0.0.1" + path);
    }

    @Test
    void aLookupThatFailsIsAnsweredFromTheOrigin() throws Exception {
        store.failLookup = true;
        String path = SyntheticPaths.path("lookup-fails", 100_000);
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response r = raw.read(false);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.complete()).isTrue();
            assertThat(verified("lookup-fails", 0, r.body())).isTrue();
        }
    }

    @Test
    void aBeginThatFailsIsPassedThroughToTheClient() throws Exception {
        store.failBegin = true;
        String path = SyntheticPaths.path("begin-fails", 500_000);
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response r = raw.read(false);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("x-cache")).isEqualTo("PASS");
            assertThat(r.complete()).isTrue();
            assertThat(verified("begin-fails", 0, r.body())).isTrue();
        }
        assertThat(cache.stats().snapshot(store).storeRefusals()).isEqualTo(1);
    }

    @Test
    void aWriteThatFailsMidObjectIsPassedThroughWholeAndTheConnectionGoesOn() throws Exception {
        store.failWriteAt = 300_000;
        String path = SyntheticPaths.path("write-fails", 1_000_000);
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response r = raw.read(false);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("x-cache")).isEqualTo("MISS");
            assertThat(r.complete()).as("the rest came from the origin").isTrue();
            assertThat(r.body()).hasSize(1_000_000);
            assertThat(verified("write-fails", 0, r.body())).isTrue();
            store.failWriteAt = -1;
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response again = raw.read(false);
            assertThat(again.header("x-cache")).as("nothing was stored: refetched on the same connection")
                    .isEqualTo("MISS");
            assertThat(verified("write-fails", 0, again.body())).isTrue();
        }
        assertThat(cache.stats().snapshot(store).storePassThroughs()).isEqualTo(1);
    }

    @Test
    void everyFollowerOfAWriteThatFailsMidObjectGetsTheWholeBody() throws Exception {
        store.failWriteAt = 1_000_000;
        // The failure waits until every client has joined: with a fixed pace and a sleep between clients,
        // a loaded machine let the last one arrive after the failure, as a second miss (two origin requests).
        java.util.concurrent.CountDownLatch everyoneJoined = new java.util.concurrent.CountDownLatch(1);
        store.writeFailureGate = everyoneJoined;
        String path = SyntheticPaths.path("write-fails-shared", 3_000_000);
        int clients = 4;
        java.util.List<RawHttp> raws = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                RawHttp raw = new RawHttp(cache.port());
                raws.add(raw);
                raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            }
            long giveUp = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            while (cache.stats().snapshot(store).requests() < clients && System.nanoTime() < giveUp) {
                Thread.sleep(5);
            }
            // a memory lookup runs inline: the loop task that counted the last request also made it a follower
            Thread.sleep(50);
            everyoneJoined.countDown();
            java.util.Set<String> results = new java.util.TreeSet<>();
            for (RawHttp raw : raws) {
                RawHttp.Response r = raw.read(false);
                results.add(r.header("x-cache"));
                assertThat(r.complete()).isTrue();
                assertThat(r.body()).hasSize(3_000_000);
                assertThat(verified("write-fails-shared", 0, r.body())).isTrue();
            }
            assertThat(results).contains("MISS", "HIT-COALESCED");
        } finally {
            for (RawHttp raw : raws) {
                raw.close();
            }
        }
        assertThat(origin.stats().requests()).as("one origin request for all of them").isEqualTo(1);
        assertThat(cache.stats().snapshot(store).storePassThroughs()).isEqualTo(1);
    }

    @Test
    void aCommitThatFailsStoresNothingButTheResponseEndsWholeAndTheNextRequestIsAMiss() throws Exception {
        store.failCommit = true;
        String path = SyntheticPaths.path("commit-fails", 200_000);
        long t0 = System.nanoTime();
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response r = raw.read(false);
            assertThat(r.status()).isEqualTo(200);
            // The client has every byte (the commit comes after the body): the object is just not stored.
            assertThat(r.complete()).isTrue();
            assertThat(verified("commit-fails", 0, r.body())).isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (cache.stats().snapshot(store).storePassThroughs() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5); // the body is out before the commit is tried: let it fail first
            }
            store.failCommit = false;
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response again = raw.read(false);
            assertThat(again).as("the connection goes on after a fill that did not commit").isNotNull();
            assertThat(again.header("x-cache")).isEqualTo("MISS");
        }
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).as("not left to time out")
                .isLessThan(5_000);
        assertThat(cache.stats().snapshot(store).storePassThroughs()).isEqualTo(1);
    }

    /**
     * A client that joins a fill whose engine has committed, but whose commit has not yet returned
     * to the fill, cannot follow the write any more ("already committed"): it must be served the
     * stored object, not sent to the origin on its own.
     */
    @Test
    void aClientWhoseFollowMeetsTheCommitIsServedTheStoredObject() throws Exception {
        store.commitEdgeMillis = 500;
        String path = SyntheticPaths.path("follow-meets-commit", 20_000);
        java.util.concurrent.CompletableFuture<RawHttp.Response> first = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> {
                    try (RawHttp raw = new RawHttp(cache.port())) {
                        raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
                        return raw.read(false);
                    } catch (Exception e) {
                        throw new java.util.concurrent.CompletionException(e);
                    }
                });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (origin.stats().requests() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        Thread.sleep(150); // the body is in, the commit is in its first half
        RawHttp.Response second;
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            second = raw.read(false);
        }
        RawHttp.Response firstResponse = first.get(20, TimeUnit.SECONDS);
        assertThat(firstResponse.header("x-cache")).isEqualTo("MISS");
        assertThat(verified("follow-meets-commit", 0, firstResponse.body())).isTrue();
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.header("x-cache")).as("served from the fill or the store").startsWith("HIT");
        assertThat(verified("follow-meets-commit", 0, second.body())).isTrue();
        assertThat(origin.stats().requests()).as("one origin fetch").isEqualTo(1);
    }

    /**
     * A follower whose store reads end as "aborted" while its fill goes on and commits (what the
     * lmdb engine did when a read met a chunk committed during it): no tail is ever handed over,
     * since the write never failed. The client used to wait for one until its idle timeout; the
     * response now ends short at once (the connection closes before the announced length), and the
     * object, stored whole, is a hit for the next client.
     */
    @Test
    void aFollowerWhoseReadsEndEarlyOnACommittedFillIsNotLeftWaiting() throws Exception {
        store.followerAbortsAt = 100_000;
        String path = SyntheticPaths.path("reads-end-early", 600_000);
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.soTimeout(20_000); // well under the idle timeout (60 s): a client left waiting fails here
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response cut = raw.read(false);
            assertThat(cut.header("x-cache")).isEqualTo("MISS");
            assertThat(cut.complete()).as("cut short, not passed off as whole").isFalse();
            assertThat(cut.body().length).isLessThan(600_000);
            assertThat(verified("reads-end-early", 0, cut.body())).as("what came is right").isTrue();
        }
        store.followerAbortsAt = -1;
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response hit = raw.read(false);
            assertThat(hit.header("x-cache")).isEqualTo("HIT");
            assertThat(verified("reads-end-early", 0, hit.body())).isTrue();
        }
        assertThat(origin.stats().requests()).as("one origin fetch").isEqualTo(1);
    }

    /**
     * A client that reads a MISS's Content-Length body to its last byte and closes at once, while
     * the fill's commit is still running (so the response's end is not written yet): its response
     * was whole, and /stats must not count it as cut short. One that closes mid-body is counted.
     */
    @Test
    void aClientThatClosesAfterTheWholeBodyIsNotCountedAsTruncated() throws Exception {
        store.commitEdgeMillis = 500;
        store.countFollowerCloses = true;
        String whole = SyntheticPaths.path("closes-after-the-body", 20_000);
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + whole + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response r = raw.read(false);
            assertThat(r.complete()).isTrue();
            assertThat(verified("closes-after-the-body", 0, r.body())).isTrue();
        } // closed within the commit's first 500 ms
        awaitFollowersClosed(1); // the response's completion ran (it counts before it lets the object go)
        assertThat(cache.stats().snapshot(store).truncatedResponses()).as("a whole body is not truncated").isZero();

        store.commitEdgeMillis = 0;
        String cut = SyntheticPaths.path("closes-mid-body", 4_000_000) + "?rate=4MiB";
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + cut + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            raw.line(); // the response has begun; the body takes about a second
        }
        awaitFollowersClosed(2);
        assertThat(cache.stats().snapshot(store).truncatedResponses()).as("a body cut by its client").isEqualTo(1);
    }

    private void awaitFollowersClosed(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (store.followersClosed.get() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(store.followersClosed.get()).as("followers closed").isGreaterThanOrEqualTo(n);
    }

    @Test
    void closingTheServerDrainsTheStoreExecutor() throws Exception {
        String path = SyntheticPaths.path("drain", 4_000_000) + "?rate=8MiB";
        RawHttp raw = new RawHttp(cache.port());
        raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        raw.soTimeout(5_000);
        raw.line(); // the fill is under way
        cache.close();
        for (StoreLane lane : StoreLane.values()) {
            assertThat(cache.storeExecutor(lane).totals()[0]).as("%s lane calls", lane).isPositive();
            assertThat(cache.storeExecutor(lane).admitted()).as("%s lane admitted", lane).isZero();
            assertThat(cache.storeExecutor(lane).waiting()).as("%s lane waiting", lane).isZero();
            assertThatThrownBy(() -> cache.storeExecutor(lane).execute(() -> { })).as("%s lane closed", lane)
                    .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
        }
        raw.close();
        assertThat(store.lookup(key(path))).as("a fill cut by the shutdown is not stored").isEmpty();
    }

    private HttpResponse<byte[]> getWithJdkClient(String path) throws Exception {
        java.net.http.HttpClient c = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        return c.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + cache.port() + path))
                .timeout(java.time.Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Sends a GET for a fill whose first write is held until the whole body came from the origin; returns the answer. */
    private RawHttp.Response fillWithItsFirstWriteHeld(RawHttp raw, String path) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        store.firstWriteGate = gate;
        raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (cache.stats().snapshot(store).bytesFromOrigin() < BATCHED_SIZE) {
            assertThat(System.nanoTime()).as("the origin's whole body reached the cache").isLessThan(deadline);
            Thread.sleep(5);
        }
        gate.countDown();
        store.firstWriteGate = null;
        return raw.read(false);
    }

    @Test
    void piecesQueuedBehindAWriteAreWrittenInOneCallAndTheObjectIsStoredWhole() throws Exception {
        String path = SyntheticPaths.path("batched", BATCHED_SIZE);
        long callsBefore = cache.storeExecutor(StoreLane.WRITE).totals()[0];
        try (RawHttp raw = new RawHttp(cache.port())) {
            RawHttp.Response r = fillWithItsFirstWriteHeld(raw, path);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("x-cache")).isEqualTo("MISS");
            assertThat(r.complete()).isTrue();
            assertThat(verified("batched", 0, r.body())).isTrue();
            long calls = cache.storeExecutor(StoreLane.WRITE).totals()[0] - callsBefore;
            assertThat(store.writes.get()).as("the body came in many pieces").isGreaterThanOrEqualTo(8);
            // begin, the held first write, one batch for every piece queued behind it, the commit
            assertThat(calls).as("write-lane calls for %d writes", store.writes.get()).isLessThanOrEqualTo(4);

            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response hit = raw.read(false);
            assertThat(hit.header("x-cache")).isEqualTo("HIT");
            assertThat(hit.body()).hasSize(BATCHED_SIZE);
            assertThat(verified("batched", 0, hit.body())).isTrue();
        }
    }

    @Test
    void aWriteThatFailsInsideABatchEndsTheResponseWholeFromTheOriginAndStoresNothing() throws Exception {
        store.failWriteAt = 600_000;
        String path = SyntheticPaths.path("batch-fails", BATCHED_SIZE);
        try (RawHttp raw = new RawHttp(cache.port())) {
            RawHttp.Response r = fillWithItsFirstWriteHeld(raw, path);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("x-cache")).isEqualTo("MISS");
            assertThat(r.complete()).as("the pieces after the failed one were passed on").isTrue();
            assertThat(r.body()).hasSize(BATCHED_SIZE);
            assertThat(verified("batch-fails", 0, r.body())).isTrue();

            store.failWriteAt = -1;
            raw.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response again = raw.read(false);
            assertThat(again.header("x-cache")).as("nothing was stored").isEqualTo("MISS");
            assertThat(verified("batch-fails", 0, again.body())).isTrue();
        }
        assertThat(cache.stats().snapshot(store).storePassThroughs()).isEqualTo(1);
    }
}
