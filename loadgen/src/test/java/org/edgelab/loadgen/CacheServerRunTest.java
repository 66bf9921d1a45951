package org.edgelab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;

import org.edgelab.cache.server.CacheServer;
import org.edgelab.cache.server.CacheServerConfig;
import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.memory.MemoryEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Runs through the cache-server (memory engine) in front of the origin: hit-ratio targeting and X-Cache counting. */
class CacheServerRunTest {
    private OriginServer origin;
    private ObjectStore store;
    private CacheServer cache;

    @BeforeEach
    void start() throws InterruptedException {
        Warm.up();
        origin = OriginServer.start(OriginConfig.builder().port(0).ioThreads(1).build());
        store = new MemoryEngine().open(PluginSettings.of("capacity", "256m"));
        cache = CacheServer.start(CacheServerConfig.builder().port(0).ioThreads(1).origin(origin.baseUri()).build(), store);
    }

    @AfterEach
    void stop() throws Exception {
        cache.close();
        store.close();
        origin.close();
    }

    private String cacheUrl() {
        return "http://127.0.0.1:" + cache.port();
    }

    @Test
    void achievedHitRatioIsWithinOnePointOfTheTargetAndMatchesTheServer() throws Exception {
        ObjectWorkload w = ObjectWorkload.builder().objects(100).popularity("zipf:0.8").sizes("8KB")
                .targetHitRatio(0.92).namespace("hr").build();
        long hitsBefore = cache.stats().snapshot(store).hits();
        LoadResult r = LoadRunner.run(LoadConfig.builder().url(cacheUrl()).connections(8).threads(2)
                .duration(Duration.ofSeconds(30)).requests(1500).workload(w).build());

        assertThat(r.warmUpCounters()).isPresent();
        assertThat(r.warmUpCounters().get().goodResponses()).isEqualTo(100);
        assertThat(r.counters().completed()).isEqualTo(1500);
        assertThat(r.counters().goodResponses()).isEqualTo(1500);
        assertThat(r.counters().cacheResponses()).isEqualTo(1500);
        assertThat(r.hitRatio()).isCloseTo(0.92, within(0.01));
        assertThat(r.byteHitRatio()).isCloseTo(0.92, within(0.01)); // equal sizes: bytes follow requests
        // the client's X-Cache count and the server's own hit counter agree
        long serverHits = cache.stats().snapshot(store).hits() - hitsBefore; // the warm-up requests were all misses
        assertThat(serverHits).isEqualTo(r.counters().hits());
        // the store holds the whole warmed set: every miss was a first-time object, every set request hit
        assertThat(r.counters().setResponses()).isEqualTo(r.counters().hits());
        assertThat(r.counters().setHits()).isEqualTo(r.counters().setResponses());
        assertThat(r.setHitRatio()).isEqualTo(1.0);
        // first bytes by X-Cache: one per response head, hits and misses apart
        assertThat(r.ttfbHit().getTotalCount()).isEqualTo(r.counters().hits());
        assertThat(r.ttfbMiss().getTotalCount()).isEqualTo(r.counters().cacheResponses() - r.counters().hits());
        assertThat(r.ttlbHit().getTotalCount() + r.ttlbMiss().getTotalCount()).isEqualTo(r.counters().completed());
    }

    @Test
    void aWarmUpWindowDoesNotFetchTheMeasuredRunsFirstTimeObjects() throws Exception {
        // The warm-up window sends the same load unrecorded, numbering its requests from 0 like the measured
        // run. With the measured workload's own first-time ids it fetched the measured run's designed misses
        // beforehand, and this store (256 MB for 1 MB of objects) kept them: every one became a hit.
        ObjectWorkload w = ObjectWorkload.builder().objects(50).sizes("8KB").targetHitRatio(0.9).namespace("wu").build();
        LoadResult r = LoadRunner.run(LoadConfig.builder().url(cacheUrl()).connections(4).threads(1)
                .warmUp(Duration.ofSeconds(2)).duration(Duration.ofSeconds(30)).requests(300).workload(w).build());
        assertThat(r.counters().goodResponses()).isEqualTo(300);
        assertThat(r.counters().hits()).isEqualTo(r.counters().setHits()); // no first-time object hit
        assertThat(r.hitRatio()).isCloseTo(0.9, within(0.01));
    }

    @Test
    void aStoreTooSmallForTheSetLosesSetHitsThatTheOverallRatioHides() throws Exception {
        // 40 objects of 64 KB (2.5 MB) through a 1 MB store: most of the set is evicted between its requests
        try (ObjectStore small = new MemoryEngine().open(PluginSettings.of("capacity", "1m"));
             CacheServer tiny = CacheServer.start(CacheServerConfig.builder().port(0).ioThreads(1)
                     .origin(origin.baseUri()).build(), small)) {
            ObjectWorkload w = ObjectWorkload.builder().objects(40).sizes("64KB").targetHitRatio(0.9)
                    .namespace("small").build();
            LoadResult r = LoadRunner.run(LoadConfig.builder().url("http://127.0.0.1:" + tiny.port()).connections(2)
                    .threads(1).duration(Duration.ofSeconds(30)).requests(400).workload(w).build());
            assertThat(r.counters().goodResponses()).isEqualTo(400);
            // about 10 % of 400 went to first-time objects (the share is 1 - 0.9 in floating point: 39 or 40)
            assertThat(r.counters().setResponses()).isBetween(358L, 362L);
            assertThat(r.counters().hits()).isEqualTo(r.counters().setHits()); // first-time objects never hit
            assertThat(r.setHitRatio()).isLessThan(0.7);
            // the overall ratio mixes the designed misses with the evictions; the set ratio shows the evictions alone
            assertThat(r.hitRatio()).isLessThan(r.setHitRatio());
        }
    }

    @Test
    void rangeRequestsThroughTheCacheAreVerified() throws Exception {
        ObjectWorkload w = ObjectWorkload.builder().objects(10).sizes("256KB").rangeSize(5000).namespace("rg").build();
        LoadResult r = LoadRunner.run(LoadConfig.builder().url(cacheUrl()).connections(4).threads(1)
                .duration(Duration.ofSeconds(30)).requests(200).workload(w).build());
        assertThat(r.counters().totalErrors()).isZero();
        assertThat(r.counters().goodResponses()).isEqualTo(200);
        assertThat(r.counters().goodBytes()).isEqualTo(200L * 5000);
        assertThat(r.hitRatio()).isGreaterThan(0.5); // ten objects: after the first touches, hits
    }
}
