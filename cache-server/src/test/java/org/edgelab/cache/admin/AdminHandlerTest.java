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
            assertThat(n.get("bytesFromCache").asLong()).isEqualTo(1234);
            assertThat(n.get("openConnections").asLong()).isEqualTo(1);
            assertThat(n.get("byStatusClass").get("5xx").asLong()).isEqualTo(1);
            assertThat(n.get("engine").asText()).isEqualTo("memory");
            assertThat(n.get("storeUsage").get("capacityBytes").asLong()).isEqualTo(1 << 20);
            JsonNode handoff = n.get("phaseMillis").get("miss_handoff");
            assertThat(handoff.get("count").asLong()).isEqualTo(2);
            assertThat(handoff.get("maxMs").asDouble()).isBetween(3.99, 4.01);
            assertThat(n.get("phaseMillis").get("hit_first_write").get("count").asLong()).isZero();

            FullHttpResponse metrics = get(ch, HttpMethod.GET, "/metrics");
            String text = metrics.content().toString(StandardCharsets.UTF_8);
            metrics.release();
            assertThat(metrics.headers().get("Content-Type")).startsWith("text/plain; version=0.0.4");
            assertThat(text).contains("edgelab_cache_requests_total{result=\"hit\"} 1\n")
                    .contains("edgelab_cache_requests_total{result=\"hit_coalesced\"} 1\n")
                    .contains("edgelab_cache_requests_total{result=\"miss\"} 1\n")
                    .contains("edgelab_cache_hits_total 2\n")
                    .contains("edgelab_cache_responses_total{class=\"2xx\"} 2\n")
                    .contains("edgelab_cache_bytes_from_cache_total 1234\n")
                    .contains("edgelab_store_capacity_bytes 1048576\n")
                    .contains("edgelab_cache_phase_seconds_count{phase=\"miss_handoff\"} 2\n")
                    .contains("edgelab_cache_phase_seconds{phase=\"miss_handoff\",quantile=\"0.99\"} 0.004")
                    .contains("edgelab_cache_phase_seconds_count{phase=\"hit_first_write\"} 0\n");
            // Every sample line is "name{labels} value" or "name value".
            for (String line : text.split("\n")) {
                if (!line.startsWith("#")) {
                    assertThat(line).matches("[a-z_]+(\\{[a-z]+=\"[a-z0-9_.]+\"(,[a-z]+=\"[a-z0-9_.]+\")*})? -?\\d+(\\.\\d+(E-?\\d+)?)?");
                }
            }

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
}
