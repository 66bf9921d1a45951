package org.edgelab.experiments.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real wrk against a real EdgeLab cache and origin on loopback (the embedded target), beside loadgen in
 * the same run. Skipped without wrk, failed instead when EDGELAB_REQUIRE_PEERS=1.
 */
class WrkClientTest {

    @TempDir
    Path dir;

    private RunResult run(String yaml) throws IOException {
        Path file = dir.resolve("wrk.yaml");
        Files.writeString(file, yaml);
        Descriptor d = DescriptorLoader.load(file.toString(), false);
        return ExperimentRunner.run(d, RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null));
    }

    private static ResultRow only(RunResult result, String client) {
        List<ResultRow> rows = result.rows().stream().filter(r -> r.get("client").equals(client)).toList();
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    @Test
    void aWrkCellFillsLoadgensColumnsWhereTheyMeanTheSameAndLeavesTheRestEmpty() throws IOException {
        WrkRequirement.assumeWrk();
        RunResult result = run("""
                name: wrk-beside-loadgen
                includes: [hardware/local]
                servers: [{engine: memory, settings: {capacity: 16MB}}]
                load:
                  client: [loadgen, wrk]
                  connections: 4
                  threads: 2
                  duration: 1s
                  timeout: 5s
                  workload: {object_sizes: [100KB], working_set: 100KB}
                matrix: [server, client]
                """);

        assertThat(result.complete()).isTrue();
        assertThat(result.rows()).extracting(r -> r.get("cell"))
                .containsExactly("server=memory,client=loadgen", "server=memory,client=wrk");
        ResultRow wrk = only(result, "wrk");
        ResultRow loadgen = only(result, "loadgen");
        assertThat(wrk.measured("requests")).isGreaterThan(100);
        assertThat(wrk.measured("req_per_s")).isCloseTo(wrk.measured("requests") / wrk.measured("duration_s"), withinPercentage(0.1));
        // every response is the one 100 KB object plus its headers
        assertThat(wrk.measured("bytes")).isBetween(wrk.measured("requests") * 100_000, wrk.measured("requests") * 101_000);
        assertThat(wrk.measured("throughput_bps")).isCloseTo(wrk.measured("bytes") * 8 / wrk.measured("duration_s"), withinPercentage(0.1));
        assertThat(wrk.measured("ttlb_p50_ms")).isPositive();
        assertThat(wrk.measured("ttlb_p99_ms")).isGreaterThanOrEqualTo(wrk.measured("ttlb_p90_ms"))
                .isGreaterThanOrEqualTo(wrk.measured("ttlb_p50_ms"));
        for (String column : List.of("ttfb_p50_ms", "ttfb_hit_p99_ms", "goodput_bps", "hit_ratio_requests",
                "hit_ratio_set_requests", "errors_truncated", "errors_integrity", "errors_status_4xx", "hlog_ttfb")) {
            assertThat(wrk.get(column)).as(column).isEmpty();
            assertThat(loadgen.get(column)).as("loadgen's " + column).isNotEmpty();
        }
        for (String column : List.of("errors_connect", "errors_timeout", "errors_read", "errors_write", "errors_status")) {
            assertThat(wrk.get(column)).as(column).isEqualTo("0");
        }
        assertThat(loadgen.get("errors_status")).isEmpty();
        // wrk is a process of its own: its CPU is wrk's, and on the embedded target the server's is the whole JVM's
        assertThat(wrk.measured("cpu_s_loadgen")).isPositive();
        assertThat(wrk.measured("cpu_s_server")).isEqualTo(wrk.measured("cpu_s_jvm_total")).isPositive();
        // the server counted what wrk sent (and a few requests of the cache warm-up, none here: one object, warmed by loadgen)
        assertThat(wrk.measured("server_requests")).isGreaterThanOrEqualTo(wrk.measured("requests"));
        assertThat(wrk.measured("server_hits") / wrk.measured("server_requests")).isGreaterThan(0.99);
        // the histogram log holds every response, and its percentiles are the row's
        Histogram h = new Histogram(3);
        try (HistogramLogReader reader = new HistogramLogReader(result.directory().resolve(wrk.get("hlog")).toFile())) {
            while (reader.hasNext()) {
                h.add((Histogram) reader.nextIntervalHistogram());
            }
        }
        assertThat(h.getTotalCount()).isEqualTo((long) wrk.measured("requests"));
        assertThat(h.getValueAtPercentile(99) / 1e6).isCloseTo(wrk.measured("ttlb_p99_ms"), within(wrk.measured("ttlb_p99_ms") * 1e-3));
        Path work = result.directory().resolve("targets").resolve("server-memory_client-wrk");
        assertThat(work.resolve("wrk-r1.log")).content().contains("Requests/sec:");
        assertThat(work.resolve("wrk-r1.plan")).doesNotExist();
        assertThat(result.notes()).anySatisfy(n -> assertThat(n).contains("loadgen"));
    }

    @Test
    void wrkSendsTheWorkloadsPlanRangesAndFirstTimeObjectsAndCountsXCache() throws IOException {
        WrkRequirement.assumeWrk();
        RunResult result = run("""
                name: wrk-plan
                includes: [hardware/local]
                servers: [{engine: memory, settings: {capacity: 16MB}}]
                load:
                  client: {kind: wrk, settings: {x_cache: true}}
                  connections: 4
                  threads: 2
                  duration: 1s
                  timeout: 5s
                  workload: {object_sizes: [20KB], working_set: 200KB, target_hit_ratio: 0.6, range_sizes: [4KB]}
                """);

        ResultRow row = result.rows().get(0);
        assertThat(row.get("client")).isEqualTo("wrk");
        assertThat(row.measured("requests")).isGreaterThan(100);
        // ranges: 4 KB bodies, not 20 KB objects
        assertThat(row.measured("bytes") / row.measured("requests")).isBetween(4_000.0, 5_000.0);
        // 40 % of the requests name a never-seen object: misses, by X-Cache and by the server
        assertThat(row.measured("hit_ratio_requests")).isCloseTo(0.6, within(0.05));
        assertThat(row.measured("server_hits") / row.measured("server_requests")).isCloseTo(row.measured("hit_ratio_requests"), within(0.05));
        assertThat(row.get("errors_status_4xx")).isEqualTo("0");
        assertThat(row.get("errors_status_5xx")).isEqualTo("0");
        assertThat(row.get("errors_status")).isEmpty();
    }

    @Test
    void firstTimeObjectsStayFirstTimeWhenAThreadStartsItsPlanAgain() throws Exception {
        WrkRequirement.assumeWrk();
        // A plan of 40 requests, 20 per thread, sent over and over for 1 s: without renaming, each pass after the
        // first would find its "never-seen" objects in the cache and the hit ratio would climb towards 1.
        WrkTool tool = new WrkTool("wrk", false, "apt-get install wrk", 40);
        try (EmbeddedCache cache = EmbeddedCache.start()) {
            ClientResult r = tool.run(cache.run(dir, 0.5, Map.of("x_cache", "true")));
            assertThat(r.requests()).as("enough requests for every thread to start its block again").isGreaterThan(160);
            assertThat(r.hitRatio()).isCloseTo(0.5, within(0.05));
            assertThat(cache.misses() / (double) cache.requests()).isCloseTo(0.5, within(0.06));
        }
    }

    @Test
    void wrk2HoldsTheFixedRateAndReportsItsCorrectedLatency() throws IOException {
        WrkRequirement.assumeWrk2();
        RunResult result = run("""
                name: wrk2-rate
                includes: [hardware/local]
                servers: [{engine: memory, settings: {capacity: 16MB}}]
                load:
                  client: wrk2
                  rate: 200
                  connections: 4
                  threads: 2
                  duration: 4s
                  timeout: 5s
                  workload: {object_sizes: [10KB], working_set: 100KB}
                """);

        ResultRow row = result.rows().get(0);
        assertThat(row.get("client")).isEqualTo("wrk2");
        assertThat(row.measured("req_per_s")).isCloseTo(200, withinPercentage(15));
        assertThat(row.measured("ttlb_p50_ms")).isPositive();
        assertThat(row.measured("ttlb_p999_ms")).isGreaterThanOrEqualTo(row.measured("ttlb_p99_ms"));
        assertThat(row.get("ttfb_p50_ms")).isEmpty();
        assertThat(row.measured("cpu_s_loadgen")).isPositive();
        assertThat(row.get("hlog")).isNotEmpty();
    }
}
