package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code docs/topology-netns.yaml} through the runner (root), shortened: the row holds the merged load, the workers'
 * own figures and every tier's counters, which agree with one another, and the namespaces are gone afterwards.
 */
class NetnsRunTest {
    @TempDir
    Path dir;

    @Test
    void theDocsTopologyRunsAndItsRowHasEveryTier() throws IOException {
        KernelLinkRunTest.assumeKernelLinks();
        // shortened: 125 objects to warm instead of 2000 (the hit ratio is the workload's first-time share, whatever the
        // set's size), the workers' start barrier 0.5 s ahead of each of the 3 runs instead of 2 s, 1 s settle, 3 s measured
        String yaml = shorten(Files.readString(Path.of("..", "docs", "topology-netns.yaml")),
                "duration: 10s", "duration: 3s",
                "settle: 10s", "settle: 1s",
                "working_set: 16MB", "working_set: 1000KB",
                "target_settings: {heap: 512m, io_threads: 1}", "target_settings: {heap: 512m, io_threads: 1, start_lead: 500ms}");
        Path file = dir.resolve("topology-netns.yaml");
        Files.writeString(file, yaml);
        Descriptor d = DescriptorLoader.load(file.toString(), false);
        RunResult result = ExperimentRunner.run(d, RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null));
        assertThat(result.complete()).isTrue();
        List<ResultRow> rows = ResultsCsv.read(result.directory().resolve("results.csv"));
        assertThat(rows).hasSize(1);
        ResultRow row = rows.get(0);
        assertThat(row.get("target")).isEqualTo("netns");
        assertThat(row.get("workers")).isEqualTo("3");
        long requests = (long) row.measured("requests");
        assertThat(Arrays.stream(row.get("worker_requests").split(";")).mapToLong(Long::parseLong).sum()).isEqualTo(requests);
        assertThat(requests).isPositive();
        assertThat(row.measured("errors_connect") + row.measured("errors_integrity") + row.measured("errors_status_5xx")).isZero();
        assertThat(row.measured("start_skew_ms")).isLessThan(50);
        assertThat(row.measured("req_per_s")).isPositive();
        // the edge tier answered every request (and those cut off in flight by the stop)
        assertThat(row.measured("tier_edge_requests")).isGreaterThanOrEqualTo(requests);
        assertThat(row.measured("server_requests")).isEqualTo(row.measured("tier_edge_requests"));
        assertThat(row.measured("tier_edge_hit_ratio")).isBetween(0.8, 1.0);
        // what the edges missed went to the parent (and a miss the stop cut off in flight may have reached the parent
        // uncounted by the edge); what the parent missed, and only that, to the origin
        double cutOff = row.measured("tier_edge_requests") - requests;
        assertThat(row.measured("tier_parent_requests")).isBetween(row.measured("tier_edge_misses"), row.measured("tier_edge_misses") + cutOff);
        assertThat(row.measured("tier_origin_requests")).isEqualTo(row.measured("tier_parent_misses")).isPositive();
        assertThat(row.measured("tier_parent_bytes_from_upstream")).isEqualTo(row.measured("tier_origin_bytes_to_clients"));
        // the row's .hlog: each second's intervals of the 3 workers added, every completed request in one of them
        Histogram logged = new Histogram(3);
        int intervals = 0;
        try (HistogramLogReader reader = new HistogramLogReader(result.directory().resolve(row.get("hlog")).toFile())) {
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null) {
                logged.add((Histogram) interval);
                intervals++;
            }
        }
        assertThat(intervals).isBetween(2, 5);
        assertThat(logged.getTotalCount()).isEqualTo(requests);
        assertThat(logged.getValueAtPercentile(99) / 1e6).isCloseTo(row.measured("ttlb_p99_ms"), org.assertj.core.api.Assertions.within(0.01));
        JsonNode manifest = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile());
        assertThat(manifest.path("methods").path("tiers").asText()).contains("tier_<name>_requests").contains("_hit_ratio");
        JsonNode cell = manifest.path("cells").get(0);
        assertThat(cell.path("load_client").path("name").asText()).isEqualTo("loadgen-workers");
        assertThat(cell.path("load_client").path("method").asText()).contains("while every worker ran").contains("histograms added");
        assertThat(KernelLinkRunTest.ownNamespaces()).isEmpty();
    }

    /** {@code yaml} with each of {@code pairs}' first strings replaced by the second, each of which must be there. */
    private static String shorten(String yaml, String... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            assertThat(yaml).as("docs/topology-netns.yaml").contains(pairs[i]);
            yaml = yaml.replace(pairs[i], pairs[i + 1]);
        }
        return yaml;
    }
}
