package org.edgelab.cache.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.junit.jupiter.api.Test;

/** The admin endpoints render the counters, tested without sockets. */
class AdminHandlerTest {

    private static FullHttpResponse get(EmbeddedChannel ch, HttpMethod method, String uri) {
        ch.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri));
        return ch.readOutbound();
    }

    @Test
    void statsMetricsAndHealthReflectTheCounters() throws Exception {
        try (ObjectStore store = StorageEngines.open("memory", PluginSettings.of("capacity", "1m"))) {
            CacheStats stats = new CacheStats();
            stats.request();
            stats.response(CacheStats.Result.HIT, 200);
            stats.request();
            stats.response(CacheStats.Result.HIT_COALESCED, 206);
            stats.request();
            stats.response(CacheStats.Result.MISS, 502);
            stats.bytesFromCache(1234);
            stats.connectionOpened();
            stats.phases().record(PhaseTimes.Phase.MISS_HANDOFF, 2_000_000);
            stats.phases().record(PhaseTimes.Phase.MISS_HANDOFF, 4_000_000);
            EmbeddedChannel ch = new EmbeddedChannel(new AdminHandler(stats, store));

            FullHttpResponse json = get(ch, HttpMethod.GET, "/stats");
            assertThat(json.status().code()).isEqualTo(200);
            JsonNode n = new ObjectMapper().readTree(json.content().toString(StandardCharsets.UTF_8));
            json.release();
            assertThat(n.get("requests").asLong()).isEqualTo(3);
            assertThat(n.get("hits").asLong()).isEqualTo(2);
            assertThat(n.get("coalesced").asLong()).isEqualTo(1);
            assertThat(n.get("misses").asLong()).isEqualTo(1);
            assertThat(n.get("bytes_from_cache").asLong()).isEqualTo(1234);
            assertThat(n.get("open_connections").asLong()).isEqualTo(1);
            assertThat(n.get("by_status_class").get("5xx").asLong()).isEqualTo(1);
            assertThat(n.get("engine").asText()).isEqualTo("memory");
            assertThat(n.get("store_usage").get("capacity_bytes").asLong()).isEqualTo(1 << 20);
            JsonNode handoff = n.get("phase_ms").get("miss_handoff");
            assertThat(handoff.get("count").asLong()).isEqualTo(2);
            assertThat(handoff.get("max_ms").asDouble()).isBetween(3.99, 4.01);
            assertThat(n.get("phase_ms").get("hit_first_write").get("count").asLong()).isZero();

            FullHttpResponse metrics = get(ch, HttpMethod.GET, "/metrics");
            String text = metrics.content().toString(StandardCharsets.UTF_8);
            metrics.release();
            assertThat(metrics.headers().get("Content-Type")).startsWith("text/plain; version=0.0.4");
            assertThat(text).contains("edgelab_cache_requests_total{result=\"hit\"} 1\n")
                    .contains("edgelab_cache_requests_total{result=\"hit_coalesced\"} 1\n")
                    .contains("edgelab_cache_requests_total{result=\"miss\"} 1\n")
                    .contains("edgelab_cache_responses_total{class=\"2xx\"} 2\n")
                    .contains("edgelab_cache_bytes_from_cache_total 1234\n")
                    .contains("edgelab_store_capacity_bytes 1048576\n")
                    .contains("edgelab_cache_phase_seconds_count{phase=\"miss_handoff\"} 2\n")
                    .contains("edgelab_cache_phase_seconds_bucket{phase=\"miss_handoff\",le=\"0.001\"} 0\n")
                    .contains("edgelab_cache_phase_seconds_bucket{phase=\"miss_handoff\",le=\"0.0025\"} 1\n")
                    .contains("edgelab_cache_phase_seconds_bucket{phase=\"miss_handoff\",le=\"0.005\"} 2\n")
                    .contains("edgelab_cache_phase_seconds_bucket{phase=\"miss_handoff\",le=\"+Inf\"} 2\n")
                    .contains("edgelab_cache_phase_seconds_sum{phase=\"miss_handoff\"} 0.006\n")
                    .contains("edgelab_cache_phase_seconds_count{phase=\"hit_first_write\"} 0\n");
            // Every sample line is "name{labels} value" or "name value".
            for (String line : text.split("\n")) {
                if (!line.startsWith("#")) {
                    assertThat(line).matches("[a-z_]+(\\{[a-z_0-9]+=\"[A-Za-z0-9_.+]+\"(,[a-z_0-9]+=\"[A-Za-z0-9_.+]+\")*})? -?\\d+(\\.\\d+)?");
                }
            }

            assertThat(text).doesNotContain("quantile=").doesNotContain("edgelab_cache_hits_total")
                    .contains("# TYPE edgelab_cache_phase_seconds histogram\n")
                    .contains("edgelab_store_info{engine=\"memory\"");

            FullHttpResponse health = get(ch, HttpMethod.GET, "/health");
            assertThat(health.content().toString(StandardCharsets.UTF_8)).isEqualTo("ok\n");
            health.release();
            FullHttpResponse missing = get(ch, HttpMethod.GET, "/nope");
            assertThat(missing.status().code()).isEqualTo(404);
            missing.release();
            FullHttpResponse post = get(ch, HttpMethod.POST, "/stats");
            assertThat(post.status().code()).isEqualTo(405);
            post.release();
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void everyNameInStatsIsSnakeCase() throws Exception {
        try (ObjectStore store = StorageEngines.open("memory", PluginSettings.of("capacity", "1m"))) {
            CacheStats stats = new CacheStats();
            stats.phases().record(PhaseTimes.Phase.HIT_FIRST_WRITE, 1_000);
            EmbeddedChannel ch = new EmbeddedChannel(new AdminHandler(stats, store));
            FullHttpResponse json = get(ch, HttpMethod.GET, "/stats");
            JsonNode n = new ObjectMapper().readTree(json.content().toString(StandardCharsets.UTF_8));
            json.release();
            java.util.List<String> names = new java.util.ArrayList<>();
            collectNames(n, names);
            assertThat(names).isNotEmpty().allMatch(name -> name.matches("[a-z0-9_]+"), "snake_case");
            assertThat(n.get("by_result").get("hit_revalidated").asLong()).isZero();
            assertThat(n.get("phase_ms").get("hit_first_write").has("cumulative_counts")).isFalse();
            ch.finishAndReleaseAll();
        }
        assertThat(CacheStats.snakeCase("lmdbPagesInUseBytes")).isEqualTo("lmdb_pages_in_use_bytes");
        assertThat(CacheStats.snakeCase("disk.0.state")).isEqualTo("disk_0_state");
    }

    @Test
    void phaseBucketsAreCumulativeAndEndAtTheCount() {
        PhaseTimes phases = new PhaseTimes();
        for (long nanos : new long[] {40_000, 1_000_000, 1_000_000, 20_000_000, 30_000_000_000L}) {
            phases.record(PhaseTimes.Phase.MISS_FIRST_WRITE, nanos);
        }
        PhaseTimes.Summary miss = phases.summaries().get("miss_first_write");
        long[] cumulative = miss.cumulativeCounts();
        double[] bounds = PhaseTimes.BUCKET_BOUNDS_SECONDS;
        for (int i = 1; i < cumulative.length; i++) {
            assertThat(cumulative[i]).isGreaterThanOrEqualTo(cumulative[i - 1]);
        }
        assertThat(cumulative[java.util.Arrays.binarySearch(bounds, 0.00005)]).isEqualTo(1);
        assertThat(cumulative[java.util.Arrays.binarySearch(bounds, 0.001)]).isEqualTo(3);
        assertThat(cumulative[java.util.Arrays.binarySearch(bounds, 0.025)]).isEqualTo(4);
        assertThat(cumulative[bounds.length - 1]).isEqualTo(4); // 30 s lies beyond the last bound, in +Inf only
        assertThat(miss.count()).isEqualTo(5);
        assertThat(miss.sumSeconds()).isEqualTo(30.02204);
        assertThat(PrometheusText.number(0.00005)).isEqualTo("0.00005");
        assertThat(PrometheusText.number(10)).isEqualTo("10");
    }

    private static void collectNames(JsonNode node, java.util.List<String> names) {
        node.fields().forEachRemaining(e -> {
            names.add(e.getKey());
            collectNames(e.getValue(), names);
        });
    }
}
