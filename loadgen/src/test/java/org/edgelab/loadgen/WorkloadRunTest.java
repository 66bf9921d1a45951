package org.edgelab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.loadgen.workload.TraceWorkload;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Workloads run end to end against a real origin: objects with ranges, trace replay, link emulation, 1000 connections. */
class WorkloadRunTest {
    private static OriginServer origin;

    @BeforeAll
    static void startOrigin() throws InterruptedException {
        Warm.up();
        origin = OriginServer.start(OriginConfig.builder().port(0).ioThreads(1).build());
    }

    @AfterAll
    static void stopOrigin() {
        origin.close();
    }

    @Test
    void objectWorkloadWithRangesVerifiesEverything() throws Exception {
        ObjectWorkload w = ObjectWorkload.builder().objects(50).popularity("zipf:0.9").sizes("64KB:3,1MiB:1")
                .rangeSize(10_000).build();
        LoadResult r = LoadRunner.run(LoadConfig.builder().url(origin.baseUri().toString()).connections(4).threads(2)
                .duration(Duration.ofSeconds(60)).requests(300).workload(w).build());
        assertThat(r.counters().completed()).isEqualTo(300);
        assertThat(r.counters().status(2)).isEqualTo(300);
        assertThat(r.counters().goodResponses()).isEqualTo(300);
        assertThat(r.counters().goodBytes()).isEqualTo(300L * 10_000);
    }

    @Test
    void traceIsReplayedAtItsTimestamps(@TempDir Path dir) throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("timestamp,key,size,range");
        for (int i = 0; i < 40; i++) {
            String key = i % 5 == 0 ? "videos/clip " + (i % 3) + ".mp4" : "obj-" + (i % 7);
            String range = i % 4 == 0 ? "100-" + (100 + i * 10) : "";
            lines.add(String.format(java.util.Locale.ROOT, "%.3f,%s,%d,%s", 1000 + i * 0.02, key, 20_000 + i, range));
        }
        Path trace = dir.resolve("trace.csv");
        Files.write(trace, lines);
        long before = origin.stats().requests();
        long start = System.nanoTime();
        LoadResult r = LoadRunner.run(LoadConfig.builder().url(origin.baseUri().toString()).connections(4).threads(1)
                .duration(Duration.ofSeconds(60)).workload(TraceWorkload.load(trace, "", 1.0, true)).build());
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(r.counters().completed()).isEqualTo(40);
        assertThat(r.counters().goodResponses()).isEqualTo(40);
        assertThat(origin.stats().requests() - before).isEqualTo(40);
        assertThat(r.finishedBeforeDeadline()).isTrue();
        assertThat(seconds).isGreaterThan(0.75); // the last request is due 0.78 s after the first
        assertThat(r.counters().status(2)).isEqualTo(40);
    }

    @Test
    void malformedTraceLinesAreNamed(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("bad.csv");
        Files.write(trace, List.of("0.0,a,100", "0.1,b"));
        assertThatThrownBy(() -> TraceWorkload.load(trace, "", 1, true))
                .hasMessageContaining("bad.csv:2").hasMessageContaining("timestamp,key,size[,range]");
        Files.write(trace, List.of("0.0,a,100,50-10"));
        assertThatThrownBy(() -> TraceWorkload.load(trace, "", 1, true)).hasMessageContaining("range '50-10'");
    }

    @Test
    void linkEmulationCapsBandwidthAndAddsLatency() throws Exception {
        // 16 Mbit/s = 2 MB/s: a 1 MB object takes >= 500 ms (the pacer has no burst); 40 ms each way adds >= 80 ms
        // to TTFB. Those are lower bounds on any machine. That the same fetch without the link is faster is not
        // guaranteed, only likely: a busy machine can make a free 1 MB fetch slower than the 180 ms of an 80-Mbit/s
        // link, so the link is slow enough that the free fetch has 580 ms to come in under it
        LinkEmulation link = new LinkEmulation(16_000_000L, Duration.ofMillis(40));
        LoadResult r = LoadRunner.run(LoadConfig.builder().url(origin.baseUri() + "/objects/1MB/link")
                .connections(1).threads(1).duration(Duration.ofSeconds(60)).requests(4).link(link).build());
        assertThat(r.counters().goodResponses()).isEqualTo(4);
        assertThat(r.ttfb().getMinValue()).isGreaterThanOrEqualTo(Duration.ofMillis(80).toNanos());
        assertThat(r.ttlb().getMinValue()).isGreaterThanOrEqualTo(Duration.ofMillis(580).toNanos());
        assertThat(r.config().link().describe()).contains("user-space emulation");

        LoadResult free = LoadRunner.run(LoadConfig.builder().url(origin.baseUri() + "/objects/1MB/link")
                .connections(1).threads(1).duration(Duration.ofSeconds(60)).requests(4).build());
        assertThat(free.counters().goodResponses()).isEqualTo(4);
        assertThat(free.ttlb().getMinValue()).isLessThan(r.ttlb().getMinValue());
    }

    @Test
    void thousandConcurrentRangeRequestsCompleteWithoutErrors() throws Exception {
        ObjectWorkload w = ObjectWorkload.builder().objects(20).sizes("1MiB").rangeSize(8192).build();
        LoadResult r = LoadRunner.run(LoadConfig.builder().url(origin.baseUri().toString()).connections(1000).threads(2)
                .duration(Duration.ofSeconds(60)).timeout(Duration.ofSeconds(20)).requests(1000).workload(w).build());
        assertThat(r.counters().connects()).isEqualTo(1000);
        assertThat(r.counters().totalErrors()).isZero();
        assertThat(r.counters().goodResponses()).isEqualTo(1000);
    }
}
