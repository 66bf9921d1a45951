package org.edgelab.peers.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.Targets;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.peers.PeerRequirement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression test for nginx's 44 ms last byte at 100 KB (issue 23): with {@code tcp_nopush on} nginx on
 * Linux never sets TCP_NODELAY on a keep-alive connection, so after it uncorks a response Nagle holds the
 * partial last segment until the client's delayed ACK (at least 40 ms). A warmed object is fetched many
 * times, one request at a time on one keep-alive connection, and the median time to last byte must stay
 * far below the delayed-ACK minimum. The median of {@value #REQUESTS} requests is not moved by a few
 * requests that a busy machine delays; with the stall nearly every request takes 40-48 ms.
 */
class NginxHitLatencyTest {

    private static final long SIZE = 100_000;
    private static final int REQUESTS = 200;
    /** A quarter of Linux's minimum delayed ACK (40 ms); a hit on loopback takes well under 1 ms here. */
    private static final long MEDIAN_LIMIT_MILLIS = 10;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @BeforeEach
    void requireNginx() {
        PeerRequirement.assumeAvailable(Targets.get("nginx").unavailableReason(build("proxy_cache", Map.of())));
    }

    @Test
    void aWarmHundredKilobyteHitFromTheCacheIsNotHeldForTheClientsDelayedAck() throws Exception {
        // the body starts after the cache file's header, at an unaligned offset: the case that stalled
        assertMedianTimeToLastByte(build("proxy_cache", Map.of("size", "64MB")), null, SIZE);
    }

    @Test
    void aRangeAtAnUnalignedOffsetOfAPlainFileIsNotHeldForTheClientsDelayedAck() throws Exception {
        // a whole file from offset 0 fills every segment and never stalled; a range at an odd offset did
        assertMedianTimeToLastByte(build("files", Map.of()), "bytes=1000-80999", 80_000);
    }

    private void assertMedianTimeToLastByte(ServerBuild build, String range, long bodyLength) throws Exception {
        Target target = Targets.get(build.target());
        target.validate(build);
        TargetContext context = new TargetContext(dir.resolve("store"), dir.resolve("work"), 1, 0, Duration.ofSeconds(30));
        try (RunningTarget running = target.start(build, context)) {
            URI uri = URI.create(running.clientUri() + SyntheticPaths.path("latency-object", SIZE));
            assertThat(get(uri, range, bodyLength)).isEqualTo("MISS");
            Histogram ttlb = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);
            for (int i = 0; i < REQUESTS; i++) {
                long start = System.nanoTime();
                assertThat(get(uri, range, bodyLength)).startsWith("HIT");
                ttlb.recordValue(System.nanoTime() - start);
            }
            double medianMillis = ttlb.getValueAtPercentile(50) / 1e6;
            assertThat(medianMillis)
                    .as("median time to last byte of %d warm %d-byte hits from %s (p90 %.2f ms, max %.2f ms)", REQUESTS, bodyLength,
                            build.name(), ttlb.getValueAtPercentile(90) / 1e6, ttlb.getMaxValue() / 1e6)
                    .isLessThan(MEDIAN_LIMIT_MILLIS);
        }
    }

    /** GETs {@code uri} on the client's keep-alive connection, checks status and length, and returns X-Cache. */
    private String get(URI uri, String range, long bodyLength) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20));
        if (range != null) {
            request.header("Range", range);
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(range == null ? 200 : 206);
        assertThat(response.body()).hasSize((int) bodyLength);
        return response.headers().firstValue("X-Cache").orElse("(none)");
    }

    private static ServerBuild build(String engine, Map<String, String> settings) {
        Map<String, String> withOneWorker = new java.util.HashMap<>(settings);
        // one worker: every request of the test meets the same process (and the same cache state)
        withOneWorker.put("worker_processes", "1");
        return new ServerBuild("nginx-" + engine, "nginx", engine, withOneWorker, Map.of());
    }
}
