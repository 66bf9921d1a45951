package org.edgelab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A load spread over three real origins on loopback by request path: each request reaches the server its router names. */
class ShardedLoadTest {
    private static final List<OriginServer> ORIGINS = new ArrayList<>();

    @BeforeAll
    static void start() throws InterruptedException {
        Warm.up();
        for (int i = 0; i < 3; i++) {
            ORIGINS.add(OriginServer.start(OriginConfig.builder().port(0).ioThreads(1).build()));
        }
    }

    @AfterAll
    static void stop() {
        ORIGINS.forEach(OriginServer::close);
    }

    private static List<URI> servers() {
        return ORIGINS.stream().map(OriginServer::baseUri).toList();
    }

    private static long[] originRequests() {
        return ORIGINS.stream().mapToLong(o -> o.stats().requests()).toArray();
    }

    @Test
    void eachServerGetsExactlyTheRequestsRoutedToIt() throws Exception {
        AtomicLongArray routed = new AtomicLongArray(3);
        Shards shards = new Shards(servers(), path -> {
            int to = Math.floorMod(path.hashCode(), 3);
            routed.incrementAndGet(to);
            return to;
        });
        ObjectWorkload w = ObjectWorkload.builder().objects(300).sizes("4KB").namespace("shard").build();
        long[] before = originRequests();
        LoadResult r = LoadRunner.run(LoadConfig.builder().shards(shards).connections(6).threads(2)
                .duration(Duration.ofSeconds(30)).requests(2000).workload(w).build());
        long[] after = originRequests();

        assertThat(r.counters().goodResponses()).isEqualTo(2000); // every body verified against the content function
        assertThat(r.counters().totalErrors()).isZero();
        assertThat(r.finishedBeforeDeadline()).as("the bound ended the run, every idle member heard DONE").isTrue();
        long sum = 0;
        for (int i = 0; i < 3; i++) {
            assertThat(after[i] - before[i]).as("origin %d", i).isEqualTo(routed.get(i)).isPositive();
            sum += after[i] - before[i];
        }
        assertThat(sum).isEqualTo(2000);
        // a connection per server for each of the 6 logical connections, none reconnected
        assertThat(r.counters().connects()).isEqualTo(18);
    }

    @Test
    void anOpenLoopKeepsItsScheduleAcrossServers() throws Exception {
        AtomicLongArray routed = new AtomicLongArray(2);
        Shards shards = new Shards(servers().subList(0, 2), path -> {
            int to = path.endsWith("0") || path.endsWith("2") || path.endsWith("4") ? 0 : 1;
            routed.incrementAndGet(to);
            return to;
        });
        ObjectWorkload w = ObjectWorkload.builder().objects(100).sizes("1KB").namespace("open").build();
        long[] before = originRequests();
        LoadResult r = LoadRunner.run(LoadConfig.builder().shards(shards).connections(4).threads(1)
                .duration(Duration.ofSeconds(2)).rate(RateSchedule.parse("500", Duration.ofSeconds(2))).workload(w).build());
        long[] after = originRequests();

        assertThat(r.counters().totalErrors()).isZero();
        assertThat(r.counters().completed()).isBetween(950L, 1000L);
        assertThat(after[0] - before[0]).isEqualTo(routed.get(0)).isPositive();
        assertThat(after[1] - before[1]).isEqualTo(routed.get(1)).isPositive();
    }

    @Test
    void oneServerIsNotShards() {
        assertThatThrownBy(() -> new Shards(servers().subList(0, 1), p -> 0)).hasMessageContaining("at least two");
    }
}
