package org.edgelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.edgelab.experiments.runner.ResultsCsv;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * loadgen's {@code result.csv} and the runner's {@code results.csv} speak one vocabulary (docs/FIGURES.md): a figure
 * both files hold has one name, rates are bits/s ({@code _bps}), latencies milliseconds, percentiles {@code p999}.
 */
class FigureNamesTest {

    /** Figures both files hold: the runner copies them from loadgen's result, so they must be named alike. */
    private static final List<String> SHARED = List.of("requests", "duration_s", "req_per_s", "bytes", "throughput_bps",
            "goodput_bps", "ttfb_p50_ms", "ttfb_p90_ms", "ttfb_p99_ms", "ttfb_p999_ms", "ttlb_p50_ms", "ttlb_p90_ms",
            "ttlb_p99_ms", "ttlb_p999_ms", "ttfb_hit_p50_ms", "ttfb_hit_p99_ms", "ttfb_miss_p50_ms", "ttfb_miss_p99_ms", "ttlb_hit_p50_ms", "ttlb_hit_p99_ms",
            "ttlb_miss_p50_ms", "ttlb_miss_p99_ms", "loadgen_loop_delay_p50_ms", "loadgen_loop_delay_p99_ms",
            "errors_connect", "errors_timeout", "errors_status_4xx", "errors_status_5xx", "errors_truncated",
            "errors_closed", "errors_integrity", "target_hit_ratio", "hit_ratio_requests", "hit_ratio_bytes",
            "hit_ratio_set_requests", "cpu_s_loadgen", "cpu_s_jvm_total");

    @Test
    void loadgenAndTheRunnerNameEverySharedFigureAlike(@TempDir Path dir) throws Exception {
        List<String> loadgen;
        try (OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).ioThreads(1).build())) {
            LoadResult result = LoadRunner.run(LoadConfig.builder().url(origin.baseUri() + "/objects/10KB/names")
                    .connections(2).threads(1).duration(Duration.ofSeconds(20)).timeout(Duration.ofSeconds(5))
                    .requests(50).build());
            Path csv = dir.resolve("result.csv");
            result.writeCsv(csv);
            loadgen = List.of(Files.readAllLines(csv).get(0).split(","));
        }

        assertThat(ResultsCsv.COLUMNS).containsAll(SHARED);
        assertThat(loadgen).containsAll(SHARED);
        List<String> all = new ArrayList<>(ResultsCsv.COLUMNS);
        all.addAll(loadgen);
        assertThat(all).as("no nanoseconds, bytes/s, p99_9 or requests_per_s")
                .noneMatch(name -> name.endsWith("_ns") || name.contains("bytes_per_s") || name.matches(".*_p\\d+_\\d+.*")
                        || name.startsWith("requests_per_s") || name.equals("elapsed_s"));
        assertThat(all).as("the unit last: _mean_ms, not _ms_mean")
                .noneMatch(name -> name.matches(".*_(ms|s|bps|bytes)_(mean|max|min|p\\d+)$"));
        // every memory and I/O column is explained in docs/FIGURES.md
        String figures = Files.readString(Path.of("..", "docs", "FIGURES.md"));
        List<String> resources = ResultsCsv.COLUMNS.subList(ResultsCsv.COLUMNS.indexOf("memory_bound"),
                ResultsCsv.COLUMNS.indexOf("diskstats_write_bytes") + 1);
        assertThat(resources).hasSizeGreaterThan(10).allSatisfy(c -> assertThat(figures).contains("`" + c + "`"));
        // one name, one meaning: the runner's cpu_s_per_gb is the server's; loadgen's own is named for itself
        assertThat(loadgen).doesNotContain("cpu_s_per_gb").contains("cpu_s_loadgen_per_gb");
    }
}
