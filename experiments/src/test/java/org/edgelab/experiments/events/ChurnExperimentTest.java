package org.edgelab.experiments.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.edgelab.experiments.runner.DescriptorFixture;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.ResultsCsv;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.experiments.runner.SeriesCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChurnExperimentTest {

    @TempDir
    Path dir;

    @Test
    void aSmallStoreChurnedThreeTimesOverIsMeasuredFreshAndChurned() throws Exception {
        RunResult result = DescriptorFixture.run(dir, "churn.yaml", """
                name: churn-test
                kind: churn
                repetitions: 1
                settings: {churn_factor: 3}
                servers:
                  - name: raw-log
                    engine: raw-log
                    settings: {disks: "${store}", capacity: 4MB, segment-size: 512KiB}
                load:
                  connections: 4
                  threads: 1
                  duration: 1s
                  timeout: 5s
                  workload: {object_sizes: [32KB], working_set: 1MB, popularity: uniform, target_hit_ratio: 0.9}
                """, null);

        assertThat(result.complete()).isTrue();
        List<ResultRow> rows = result.rows();
        assertThat(rows.stream().map(r -> r.get("phase"))).containsExactly("fresh", "churn", "churned");
        ResultRow fresh = rows.get(0);
        ResultRow churn = rows.get(1);
        ResultRow churned = rows.get(2);
        // 3 x 4 MB of never-seen 32 KB objects, every one a miss the store had to take, evicting what it held
        assertThat(churn.measured("requests")).isEqualTo(Math.ceil(3 * 4_000_000 / 32_000.0));
        assertThat(churn.measured("hit_ratio_requests")).isZero();
        assertThat(churn.measured("churned_bytes")).isGreaterThanOrEqualTo(3 * 4_000_000);
        assertThat(churn.measured("store_capacity_bytes")).isEqualTo(4_000_000);
        // the set was warmed again after the churn: the churned store serves it as the fresh one did
        for (ResultRow r : List.of(fresh, churned)) {
            assertThat(r.measured("hit_ratio_requests")).isBetween(0.8, 0.97);
            assertThat(r.measured("errors_integrity") + r.measured("errors_truncated") + r.measured("errors_status_5xx")).isZero();
        }
        assertThat(churned.measured("req_per_s_vs_fresh")).isEqualTo(
                Double.parseDouble(org.edgelab.experiments.runner.ExperimentRunner.num(churned.measured("req_per_s") / fresh.measured("req_per_s"))));
        assertThat(churned.measured("ttfb_p99_vs_fresh")).isPositive();
        List<ResultRow> series = ResultsCsv.read(result.directory().resolve(SeriesCsv.FILE));
        assertThat(series.stream().map(r -> r.get("phase")).distinct()).containsExactly("fresh", "churn", "churned");
        assertThat(result.directory().resolve("stores")).doesNotExist();
        // the manifest says how the server's memory was bounded, as the memory note in its methods says it does
        JsonNode manifest = new ObjectMapper().readTree(result.directory().resolve("manifest.json").toFile());
        assertThat(manifest.get("cells").get(0).get("memory").get("bound").asText()).isNotBlank();
    }
}
