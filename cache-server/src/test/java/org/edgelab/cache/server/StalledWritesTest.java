package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.edgelab.cache.server.CacheFixture.getWhole;
import static org.edgelab.cache.server.CacheFixture.verified;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.cache.store.StoreExecutor;
import org.edgelab.cache.store.StoreLane;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.StorageEngines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 14: writes the device throttles (a {@code pwrite} held for hundreds of milliseconds by
 * dirty-page limits) must never hold the threads hits need. Every write of the store is held while
 * more misses are in flight than the server has store threads in both lanes together; a hit must
 * still be served at once, and once the writes go on every miss ends whole.
 */
class StalledWritesTest {

    private static final int READ_THREADS = 2;
    private static final int WRITE_THREADS = 2;
    /** More misses than both lanes' threads together, so on one shared pool every thread would be in a write. */
    private static final int MISSES = READ_THREADS + WRITE_THREADS + 2;
    private static final int MISS_SIZE = 300_000;
    private static final int HIT_SIZE = 200_000;
    /** How long a hit may take while the writes are held: generous for a loaded machine, far below "never". */
    private static final int HIT_PATIENCE_MS = 10_000;
    /** The write-lane stall after which a cache with shedding on passes new fills through. */
    private static final Duration SHED_AFTER = Duration.ofMillis(200);

    private OriginServer origin;
    private StallingStore store;
    private CacheServer cache;

    @BeforeEach
    void start() throws Exception {
        origin = OriginServer.start(OriginConfig.builder().port(0).build());
        store = new StallingStore(StorageEngines.open("memory", PluginSettings.of("capacity", "32m")));
        cache = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).ioThreads(2)
                .storeThreads(READ_THREADS).storeWriteThreads(WRITE_THREADS).build(), store);
    }

    @AfterEach
    void stop() throws Exception {
        store.resumeWrites(); // a failed test leaves nothing held
        cache.close();
        origin.close();
        store.close();
    }

    @Test
    void aHitIsServedWhileEveryWriteThreadIsHeldInAWrite() throws Exception {
        String hitPath = SyntheticPaths.path("stored-before", HIT_SIZE);
        try (RawHttp raw = new RawHttp(cache.port())) {
            assertThat(getWhole(raw, hitPath, "stored-before", HIT_SIZE, "the object's first request")).isEqualTo("MISS");
        }
        assertThat(store.awaitCommits(1, 20, TimeUnit.SECONDS)).as("the object is stored").isTrue();

        store.stallWrites(WRITE_THREADS);
        List<RawHttp> misses = new ArrayList<>();
        try {
            for (int i = 0; i < MISSES; i++) {
                RawHttp raw = new RawHttp(cache.port());
                misses.add(raw);
                raw.send("GET " + SyntheticPaths.path("miss-" + i, MISS_SIZE) + " HTTP/1.1\r\nHost: edge.example\r\n\r\n");
            }
            assertThat(store.awaitHeld(20, TimeUnit.SECONDS)).as("every write thread is held in a write").isTrue();

            try (RawHttp raw = new RawHttp(cache.port())) {
                raw.soTimeout(HIT_PATIENCE_MS);
                long t0 = System.nanoTime();
                String xcache;
                try {
                    xcache = getWhole(raw, hitPath, "stored-before", HIT_SIZE, "the hit while writes are held");
                } catch (SocketTimeoutException waited) {
                    fail("the hit waited more than %d ms behind %d held writes (lanes: read %d admitted %d waiting, "
                            + "write %d admitted %d waiting)", HIT_PATIENCE_MS, store.heldNow(),
                            cache.storeExecutor(StoreLane.READ).admitted(), cache.storeExecutor(StoreLane.READ).waiting(),
                            cache.storeExecutor(StoreLane.WRITE).admitted(), cache.storeExecutor(StoreLane.WRITE).waiting());
                    return;
                }
                assertThat(xcache).isEqualTo("HIT");
                assertThat(store.heldNow()).as("the writers were still held when the hit was served, %d ms in",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isEqualTo(WRITE_THREADS);
            }

            store.resumeWrites();
            for (int i = 0; i < MISSES; i++) {
                RawHttp.Response r = misses.get(i).read(false);
                assertThat(r).as("miss %d: an empty reply", i).isNotNull();
                assertThat(r.status()).as("miss %d", i).isEqualTo(200);
                assertThat(r.header("x-cache")).as("miss %d", i).isEqualTo("MISS");
                assertThat(r.complete()).as("miss %d: cut, %d bytes", i, r.body().length).isTrue();
                assertThat(r.body()).as("miss %d", i).hasSize(MISS_SIZE);
                assertThat(verified("miss-" + i, 0, r.body())).as("miss %d: every byte right", i).isTrue();
            }
        } finally {
            for (RawHttp raw : misses) {
                raw.close();
            }
        }
        assertThat(store.awaitCommits(MISSES, 20, TimeUnit.SECONDS)).as("every miss was stored").isTrue();
        try (RawHttp raw = new RawHttp(cache.port())) {
            for (int i = 0; i < MISSES; i++) {
                assertThat(getWhole(raw, SyntheticPaths.path("miss-" + i, MISS_SIZE), "miss-" + i, MISS_SIZE,
                        "miss " + i + " again")).isEqualTo("HIT");
            }
        }
        assertThat(origin.stats().requests()).as("one origin request per object").isEqualTo(MISSES + 1);
        assertThat(cache.stats().snapshot(store).storeWriteSheds()).as("shedding is off by default").isZero();

        cache.close(); // drains both lanes: every release has run
        for (StoreLane lane : StoreLane.values()) {
            assertThat(cache.storeExecutor(lane).admitted()).as("%s lane admitted", lane).isZero();
            assertThat(cache.storeExecutor(lane).waiting()).as("%s lane waiting", lane).isZero();
        }
        assertThat(store.openObjects()).as("stored objects left open").isZero();
        assertThat(store.openWriters()).as("writers left open").isZero();
    }

    @Test
    void withWriteSheddingANewMissIsPassedThroughWhileEveryWriteThreadIsHeldAndStoredOnceWritesGoOn() throws Exception {
        cache.close();
        cache = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).ioThreads(2)
                .storeThreads(READ_THREADS).storeWriteThreads(WRITE_THREADS).storeWriteShedAfter(SHED_AFTER).build(), store);
        StoreExecutor writes = cache.storeExecutor(StoreLane.WRITE);
        store.stallWrites(WRITE_THREADS);
        List<RawHttp> held = new ArrayList<>();
        try {
            for (int i = 0; i < WRITE_THREADS; i++) {
                RawHttp raw = new RawHttp(cache.port());
                held.add(raw);
                raw.send("GET " + SyntheticPaths.path("held-" + i, MISS_SIZE) + " HTTP/1.1\r\nHost: edge.example\r\n\r\n");
            }
            assertThat(store.awaitHeld(20, TimeUnit.SECONDS)).as("every write thread is held in a write").isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (writes.stalledNanos() < SHED_AFTER.toNanos() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(writes.stalledNanos()).as("the write lane reports its stall").isGreaterThanOrEqualTo(SHED_AFTER.toNanos());

            try (RawHttp raw = new RawHttp(cache.port())) {
                raw.soTimeout(HIT_PATIENCE_MS);
                assertThat(getWhole(raw, SyntheticPaths.path("shed", MISS_SIZE), "shed", MISS_SIZE,
                        "a miss while every write is held")).as("served from the origin, not stored").isEqualTo("PASS");
            }
            assertThat(store.heldNow()).as("the writes were still held when the miss was answered").isEqualTo(WRITE_THREADS);
            CacheStats.Snapshot during = cache.stats().snapshot(store);
            assertThat(during.storeWriteSheds()).as("the miss was shed").isEqualTo(1);
            assertThat(during.storePassThroughs()).as("and passed through").isEqualTo(1);

            store.resumeWrites();
            for (int i = 0; i < WRITE_THREADS; i++) {
                RawHttp.Response r = held.get(i).read(false);
                assertThat(r.status()).as("held miss %d", i).isEqualTo(200);
                assertThat(r.complete() && verified("held-" + i, 0, r.body())).as("held miss %d whole and right", i).isTrue();
            }
        } finally {
            for (RawHttp raw : held) {
                raw.close();
            }
        }
        assertThat(store.awaitCommits(WRITE_THREADS, 20, TimeUnit.SECONDS)).as("the held misses were stored").isTrue();
        assertThat(writes.stalledNanos()).as("no stall once writes go on").isZero();
        try (RawHttp raw = new RawHttp(cache.port())) {
            assertThat(getWhole(raw, SyntheticPaths.path("shed", MISS_SIZE), "shed", MISS_SIZE, "the shed object again"))
                    .as("the shed fill stored nothing").isEqualTo("MISS");
        }
        assertThat(store.awaitCommits(1, 20, TimeUnit.SECONDS)).as("stored now that the lane is not stalled").isTrue();
        try (RawHttp raw = new RawHttp(cache.port())) {
            assertThat(getWhole(raw, SyntheticPaths.path("shed", MISS_SIZE), "shed", MISS_SIZE, "the shed object a third time"))
                    .isEqualTo("HIT");
        }
        assertThat(cache.stats().snapshot(store).storeWriteSheds()).isEqualTo(1);
    }
}
