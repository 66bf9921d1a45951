package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.verified;
import static org.edgelab.cache.server.CacheFixture.xcache;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.edgelab.origin.content.SyntheticPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Hits, misses and the headers every response carries, over real loopback sockets. */
@ParameterizedClass(name = "{0}")
@MethodSource("org.edgelab.cache.server.Engines#names")
class CacheServerEndToEndTest {

    /** The engine of this run (the fixture is made per engine, before the tests). */
    @Parameter
    String engine;

    private static CacheFixture f;

    @BeforeParameterizedClassInvocation
    static void start(String engine) throws Exception {
        f = new CacheFixture(engine);
    }

    @AfterParameterizedClassInvocation
    static void stop() throws Exception {
        f.close();
    }

    @Test
    void missThenHitServesVerifiedBytesWithXCacheAndAge() throws Exception {
        String path = SyntheticPaths.path("hitmiss", 300_000);
        long before = f.origin.stats().requests();
        HttpResponse<byte[]> first = f.get(path);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(xcache(first)).isEqualTo("MISS");
        assertThat(first.headers().firstValue("Age")).isPresent();
        assertThat(first.body()).hasSize(300_000);
        assertThat(verified("hitmiss", 0, first.body())).isTrue();
        HttpResponse<byte[]> second = f.get(path);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(xcache(second)).isEqualTo("HIT");
        assertThat(second.headers().firstValue("Age")).isPresent();
        assertThat(second.headers().firstValue("Via").orElse("")).contains("edgelab");
        assertThat(second.headers().firstValue("ETag")).isEqualTo(first.headers().firstValue("ETag"));
        assertThat(second.body()).hasSize(300_000);
        assertThat(verified("hitmiss", 0, second.body())).isTrue();
        assertThat(f.origin.stats().requests() - before).isEqualTo(1);
    }
    @Test
    void noStoreAndPrivateResponsesAreNotStored() throws Exception {
        for (String cc : new String[] {"no-store", "private,%20max-age=600"}) {
            String path = SyntheticPaths.path("nostore-" + cc.length(), 10_000) + "?cache-control=" + cc;
            long before = f.origin.stats().requests();
            HttpResponse<byte[]> first = f.get(path);
            HttpResponse<byte[]> second = f.get(path);
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(xcache(first)).isEqualTo("PASS");
            assertThat(xcache(second)).isEqualTo("PASS");
            assertThat(verified("nostore-" + cc.length(), 0, second.body())).isTrue();
            assertThat(f.origin.stats().requests() - before).as(cc).isEqualTo(2);
        }
    }

    @Test
    void headIsAnsweredFromTheCachedGetAndAHeadMissFillsTheCache() throws Exception {
        String path = SyntheticPaths.path("head", 50_000);
        long before = f.origin.stats().requests();
        HttpResponse<byte[]> headMiss = f.send(HttpRequest.newBuilder(f.uri(path)).method("HEAD",
                HttpRequest.BodyPublishers.noBody()));
        assertThat(headMiss.statusCode()).isEqualTo(200);
        assertThat(xcache(headMiss)).isEqualTo("MISS");
        assertThat(headMiss.headers().firstValue("Content-Length")).hasValue("50000");
        assertThat(headMiss.body()).isEmpty();
        HttpResponse<byte[]> get = f.get(path);
        // The HEAD was answered at the origin's headers: the GET may still find the fill writing (HIT-COALESCED).
        assertThat(xcache(get)).startsWith("HIT");
        assertThat(verified("head", 0, get.body())).isTrue();
        HttpResponse<byte[]> headHit = f.send(HttpRequest.newBuilder(f.uri(path)).method("HEAD",
                HttpRequest.BodyPublishers.noBody()));
        assertThat(xcache(headHit)).isEqualTo("HIT");
        assertThat(headHit.headers().firstValue("Content-Length")).hasValue("50000");
        assertThat(f.origin.stats().requests() - before).isEqualTo(1);
    }

    @Test
    void clientConditionalsAreAnsweredWith304FromCache() throws Exception {
        String path = SyntheticPaths.path("cond", 20_000);
        HttpResponse<byte[]> fill = f.get(path);
        String etag = fill.headers().firstValue("ETag").orElseThrow();
        String lastModified = fill.headers().firstValue("Last-Modified").orElseThrow();
        long before = f.origin.stats().requests();
        for (String inm : new String[] {etag, "\"other\", " + etag, "W/" + etag, "*"}) {
            HttpResponse<byte[]> r = f.get(path, "If-None-Match", inm);
            assertThat(r.statusCode()).as(inm).isEqualTo(304);
            assertThat(xcache(r)).isEqualTo("HIT");
            assertThat(r.headers().firstValue("ETag")).hasValue(etag);
            assertThat(r.body()).isEmpty();
        }
        assertThat(f.get(path, "If-None-Match", "\"other\"").statusCode()).isEqualTo(200);
        assertThat(f.get(path, "If-Modified-Since", lastModified).statusCode()).isEqualTo(304);
        assertThat(f.origin.stats().requests() - before).isZero();
    }

    @Test
    void rangesAreServedFromCache() throws Exception {
        int size = 100_000;
        String path = SyntheticPaths.path("ranges", size);
        HttpResponse<byte[]> fill = f.get(path);
        String etag = fill.headers().firstValue("ETag").orElseThrow();
        long before = f.origin.stats().requests();

        HttpResponse<byte[]> single = f.get(path, "Range", "bytes=1000-1999");
        assertThat(single.statusCode()).isEqualTo(206);
        assertThat(xcache(single)).isEqualTo("HIT");
        assertThat(single.headers().firstValue("Content-Range")).hasValue("bytes 1000-1999/" + size);
        assertThat(single.body()).hasSize(1000);
        assertThat(verified("ranges", 1000, single.body())).isTrue();

        HttpResponse<byte[]> suffix = f.get(path, "Range", "bytes=-500");
        assertThat(suffix.statusCode()).isEqualTo(206);
        assertThat(suffix.headers().firstValue("Content-Range")).hasValue("bytes 99500-99999/" + size);
        assertThat(verified("ranges", 99_500, suffix.body())).isTrue();

        HttpResponse<byte[]> multi = f.get(path, "Range", "bytes=0-9,5000-5099");
        assertThat(multi.statusCode()).isEqualTo(206);
        String type = multi.headers().firstValue("Content-Type").orElseThrow();
        assertThat(type).startsWith("multipart/byteranges; boundary=");
        assertThat(multi.headers().firstValue("Content-Length")).hasValue(String.valueOf(multi.body().length));
        byte[][] parts = multipartBodies(multi.body(), type.substring(type.indexOf("boundary=") + 9));
        assertThat(parts).hasNumberOfRows(2);
        assertThat(parts[0]).hasSize(10);
        assertThat(verified("ranges", 0, parts[0])).isTrue();
        assertThat(parts[1]).hasSize(100);
        assertThat(verified("ranges", 5000, parts[1])).isTrue();

        HttpResponse<byte[]> unsatisfiable = f.get(path, "Range", "bytes=200000-");
        assertThat(unsatisfiable.statusCode()).isEqualTo(416);
        assertThat(unsatisfiable.headers().firstValue("Content-Range")).hasValue("bytes */" + size);

        HttpResponse<byte[]> ifRangeOk = f.get(path, "Range", "bytes=10-19", "If-Range", etag);
        assertThat(ifRangeOk.statusCode()).isEqualTo(206);
        assertThat(verified("ranges", 10, ifRangeOk.body())).isTrue();
        HttpResponse<byte[]> ifRangeStale = f.get(path, "Range", "bytes=10-19", "If-Range", "\"not-it\"");
        assertThat(ifRangeStale.statusCode()).isEqualTo(200);
        assertThat(ifRangeStale.body()).hasSize(size);
        assertThat(f.origin.stats().requests() - before).isZero();
    }

    @Test
    void aRangeRequestOnAMissGetsItsRangeAndTheWholeObjectIsStored() throws Exception {
        int size = 2_000_000;
        String path = SyntheticPaths.path("rangemiss", size);
        long before = f.origin.stats().requests();
        HttpResponse<byte[]> r = f.get(path, "Range", "bytes=1500000-1500999");
        assertThat(r.statusCode()).isEqualTo(206);
        assertThat(xcache(r)).isEqualTo("MISS");
        assertThat(r.headers().firstValue("Content-Range")).hasValue("bytes 1500000-1500999/" + size);
        assertThat(verified("rangemiss", 1_500_000, r.body())).isTrue();
        HttpResponse<byte[]> full = awaitHit(path);
        assertThat(full.body()).hasSize(size);
        assertThat(verified("rangemiss", 0, full.body())).isTrue();
        assertThat(f.origin.stats().requests() - before).isEqualTo(1);
    }

    /** The fill may still be finishing when the range response ends: a follower joins it, then hits. */
    private static HttpResponse<byte[]> awaitHit(String path) throws Exception {
        HttpResponse<byte[]> r = f.get(path);
        for (int i = 0; i < 50 && !xcache(r).startsWith("HIT"); i++) {
            Thread.sleep(20);
            r = f.get(path);
        }
        assertThat(xcache(r)).startsWith("HIT");
        return r;
    }

    @Test
    void keepAliveConnectionsServeSeveralRequestsInOrder() throws Exception {
        String a = SyntheticPaths.path("ka-a", 5000);
        String b = SyntheticPaths.path("ka-b", 7000);
        long accepted = f.cache.stats().snapshot(f.store).acceptedConnections();
        try (RawHttp raw = new RawHttp(f.cache.port())) {
            // Pipelined: both requests in one write, answered in order.
            raw.send("GET " + a + " HTTP/1.1\r\nHost: t\r\n\r\nGET " + b + " HTTP/1.1\r\nHost: t\r\n\r\n");
            RawHttp.Response ra = raw.read(false);
            RawHttp.Response rb = raw.read(false);
            assertThat(ra.status()).isEqualTo(200);
            assertThat(verified("ka-a", 0, ra.body())).isTrue();
            assertThat(ra.body()).hasSize(5000);
            assertThat(verified("ka-b", 0, rb.body())).isTrue();
            assertThat(rb.body()).hasSize(7000);
            raw.send("GET " + a + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
            RawHttp.Response again = raw.read(false);
            assertThat(again.header("x-cache")).isEqualTo("HIT");
            assertThat(again.header("connection")).isEqualTo("close");
            assertThat(raw.closedByServer()).isTrue();
        }
        assertThat(f.cache.stats().snapshot(f.store).acceptedConnections() - accepted).isEqualTo(1);
    }

    @Test
    void adminListenerServesStatsJsonAndPrometheusMetrics() throws Exception {
        String path = SyntheticPaths.path("admin", 1000);
        f.get(path);
        f.get(path);
        HttpClient c = f.client;
        URI base = URI.create("http://127.0.0.1:" + f.cache.adminPort());
        HttpResponse<String> stats = c.send(HttpRequest.newBuilder(base.resolve("/stats")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(stats.statusCode()).isEqualTo(200);
        assertThat(stats.headers().firstValue("Content-Type")).hasValue("application/json");
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(stats.body());
        assertThat(json.get("requests").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(json.get("hits").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(json.get("misses").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(json.get("bytes_from_cache").asLong()).isGreaterThanOrEqualTo(1000);
        assertThat(json.get("store_usage").get("object_count").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(json.get("by_status_class").get("2xx").asLong()).isGreaterThanOrEqualTo(2);
        // each lane's figures: where the engine's lookups block they went through the read lane, its writes the write lane
        com.fasterxml.jackson.databind.JsonNode gauges = json.get("gauges");
        java.util.Set<org.edgelab.storage.api.StoreCall> blocking = f.store.blockingCalls();
        long readCalls = gauges.get("store_read_lane_calls_total").asLong();
        long writeCalls = gauges.get("store_write_lane_calls_total").asLong();
        if (blocking.contains(org.edgelab.storage.api.StoreCall.LOOKUP)) {
            assertThat(readCalls).as("read lane calls").isPositive();
        } else {
            assertThat(readCalls).as("read lane calls of an engine whose lookups never block").isZero();
        }
        if (blocking.stream().anyMatch(call -> org.edgelab.cache.store.StoreLane.of(call)
                == org.edgelab.cache.store.StoreLane.WRITE)) {
            assertThat(writeCalls).as("write lane calls").isPositive();
        } else {
            assertThat(writeCalls).as("write lane calls of an engine whose writes never block").isZero();
        }
        assertThat(gauges.has("store_executor_waiting")).as("both lanes together, under the old name").isTrue();
        // HotSpot times its compilers, and this JVM has compiled the code that served the requests
        assertThat(json.get("gauges").get(CacheServer.JIT_GAUGE).asLong()).as("JIT compile ms so far").isPositive();

        HttpResponse<String> metrics = c.send(HttpRequest.newBuilder(base.resolve("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("# TYPE edgelab_cache_requests_total counter")
                .containsPattern("edgelab_cache_requests_total\\{result=\"hit\"} [1-9]")
                .containsPattern("edgelab_cache_requests_total\\{result=\"miss\"} [1-9]")
                .contains("edgelab_cache_open_connections ")
                .containsPattern("edgelab_cache_loop_turns_total [1-9]")
                .contains("edgelab_cache_store_executor_waiting ")
                .contains("edgelab_cache_store_read_lane_waiting ")
                .contains("edgelab_cache_store_write_lane_waiting ");
        HttpResponse<String> health = c.send(HttpRequest.newBuilder(base.resolve("/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.body()).isEqualTo("ok\n");
        assertThat(c.send(HttpRequest.newBuilder(base.resolve("/nope")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }

    /** Splits a multipart/byteranges body into its parts' data. */
    static byte[][] multipartBodies(byte[] body, String boundary) {
        String text = new String(body, StandardCharsets.ISO_8859_1);
        String delimiter = "--" + boundary;
        String[] pieces = text.split(java.util.regex.Pattern.quote(delimiter));
        return Arrays.stream(pieces)
                .filter(p -> p.contains("\r\n\r\n"))
                .map(p -> {
                    String data = p.substring(p.indexOf("\r\n\r\n") + 4);
                    if (data.endsWith("\r\n")) {
                        data = data.substring(0, data.length() - 2);
                    }
                    return data.getBytes(StandardCharsets.ISO_8859_1);
                })
                .toArray(byte[][]::new);
    }
}
