package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.edgelab.cache.admin.UpstreamStats;
import org.edgelab.hashing.HashRing;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.SyntheticPaths;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cache in front of several real origins on loopback, as an edge in front of its parents: each path goes to the
 * upstream its consistent-hash ring names, a stopped upstream's paths (and only those) move to their next upstream
 * with no error for the clients, and they come back once it answers again.
 */
class UpstreamRingEndToEndTest {

    private static final int PATHS = 150;

    private final List<AutoCloseable> open = new ArrayList<>();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T opened(T t) {
        open.add(t);
        return t;
    }

    /** An origin whose every answer names it in the body, cacheable for ten minutes. */
    private static Function<FullHttpRequest, FullHttpResponse> naming(String name) {
        return req -> {
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer(name, StandardCharsets.UTF_8));
            r.headers().set(HttpHeaderNames.CACHE_CONTROL, "max-age=600");
            return r;
        };
    }

    private CacheServer cache(List<URI> upstreams) throws Exception {
        Engines.Opened store = opened(Engines.open("memory", "64m"));
        return opened(CacheServer.start(CacheServerConfig.builder().upstreams(upstreams).adminPort(0).ioThreads(2)
                .originConnectTimeout(Duration.ofSeconds(2)).upstreamProbeInterval(Duration.ofMillis(100)).build(),
                store.store()));
    }

    private HttpResponse<String> get(CacheServer cache, String pathAndQuery) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cache.port() + pathAndQuery))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Fetches every path once as a fresh miss (a new query each round) and returns which origin answered each. */
    private Map<String, String> round(CacheServer cache, int round) throws Exception {
        Map<String, String> by = new LinkedHashMap<>();
        for (int i = 0; i < PATHS; i++) {
            String path = "/k/" + i;
            HttpResponse<String> r = get(cache, path + "?round=" + round);
            assertThat(r.statusCode()).as("round %d, %s", round, path).isEqualTo(200);
            assertThat(r.headers().firstValue("X-Cache")).as("round %d, %s", round, path).hasValue("MISS");
            by.put(path, r.body());
        }
        return by;
    }

    private static Map<String, UpstreamStats> upstreams(CacheServer cache) throws Exception {
        Map<String, UpstreamStats> by = new HashMap<>();
        JsonNode stats = new ObjectMapper().readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + cache.adminPort() + "/stats")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        for (JsonNode u : stats.get("upstreams")) {
            by.put(u.get("upstream").asText(), new UpstreamStats(u.get("upstream").asText(), u.get("state").asText(),
                    u.get("requests").asLong(), u.get("failures").asLong(), u.get("marked_down").asLong(),
                    u.get("taken_back").asLong(), u.get("probes").asLong()));
        }
        return by;
    }

    private static String authority(URI u) {
        return u.getHost() + ":" + u.getPort();
    }

    @Test
    void pathsSpreadStayPutMoveOffAStoppedParentWithoutErrorsAndComeBackWhenItReturns() throws Exception {
        List<String> names = List.of("a", "b", "c");
        List<ScriptedOrigin> parents = new ArrayList<>();
        List<URI> uris = new ArrayList<>();
        for (String name : names) {
            ScriptedOrigin o = new ScriptedOrigin(naming(name));
            parents.add(o);
            open.add(o);
            uris.add(o.baseUri());
        }
        CacheServer cache = cache(uris);
        HashRing ring = new HashRing(uris.stream().map(UpstreamRingEndToEndTest::authority).toList(),
                HashRing.DEFAULT_VIRTUAL_NODES);

        Map<String, String> first = round(cache, 1);
        for (String name : names) {
            long n = first.values().stream().filter(name::equals).count();
            assertThat(n).as("paths on %s of %d", name, PATHS).isGreaterThan(PATHS / 5);
        }
        first.forEach((path, name) -> assertThat(name).as(path).isEqualTo(names.get(ring.owner(path))));
        assertThat(round(cache, 2)).as("the same path goes to the same parent").isEqualTo(first);

        parents.get(1).close(); // b stops: its port refuses connections
        Map<String, String> whileDown = round(cache, 3);
        int moved = 0;
        for (Map.Entry<String, String> e : first.entrySet()) {
            String path = e.getKey();
            if (e.getValue().equals("b")) {
                moved++;
                assertThat(whileDown.get(path)).as("%s, whose parent b is down, goes to its next on the ring", path)
                        .isEqualTo(names.get(ring.preference(path)[1]));
            } else {
                assertThat(whileDown.get(path)).as("%s stays on its parent", path).isEqualTo(e.getValue());
            }
        }
        assertThat(moved).isGreaterThan(PATHS / 5);
        UpstreamStats b = upstreams(cache).get(authority(uris.get(1)));
        assertThat(b.state()).isEqualTo("down");
        assertThat(b.markedDown()).isEqualTo(1);
        assertThat(b.failures()).as("b was tried once, then skipped").isEqualTo(1);

        ScriptedOrigin again = new ScriptedOrigin(uris.get(1).getPort(), naming("b"));
        open.add(again);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!upstreams(cache).get(authority(uris.get(1))).state().equals("up")) {
            assertThat(System.nanoTime()).as("b taken back after it listens again").isLessThan(deadline);
            Thread.sleep(50);
        }
        assertThat(round(cache, 4)).as("b's paths come back to it").isEqualTo(first);
        Map<String, UpstreamStats> stats = upstreams(cache);
        assertThat(stats.get(authority(uris.get(1))).takenBack()).isEqualTo(1);
        assertThat(stats.get(authority(uris.get(1))).probes()).isPositive();
        for (int i = 0; i < 3; i++) {
            assertThat(stats.get(authority(uris.get(i))).requests()).as(names.get(i))
                    .isEqualTo(parents.get(i).requests.size() + (i == 1 ? again.requests.size() + b.failures() : 0));
        }
        for (int i : new int[] {0, 2}) {
            assertThat(stats.get(authority(uris.get(i))).failures()).isZero();
            assertThat(stats.get(authority(uris.get(i))).state()).isEqualTo("up");
        }
    }

    /** A response that has begun towards the client is never fetched again elsewhere: the client sees it cut. */
    @Test
    void aParentThatFailsMidBodyIsNotRetriedElsewhereNorMarkedDown() throws Exception {
        OriginServer one = opened(OriginServer.start(OriginConfig.builder().port(0).build()));
        OriginServer two = opened(OriginServer.start(OriginConfig.builder().port(0).build()));
        CacheServer cache = cache(List.of(one.baseUri(), two.baseUri()));
        HashRing ring = new HashRing(List.of(authority(one.baseUri()), authority(two.baseUri())),
                HashRing.DEFAULT_VIRTUAL_NODES);
        String path = null;
        for (int i = 0; path == null; i++) {
            String p = SyntheticPaths.path("cut-" + i, 1_000_000);
            if (ring.owner(p) == 0) {
                path = p;
            }
        }
        long twoBefore = two.stats().requests();
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + path + "?reset-after=300000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response r = raw.read(false);
            assertThat(r.status()).isIn(200, 502);
            if (r.status() == 200) {
                assertThat(r.complete()).as("the client sees the cut").isFalse();
            }
        }
        assertThat(two.stats().requests()).as("requests to the other parent").isEqualTo(twoBefore);
        UpstreamStats first = upstreams(cache).get(authority(one.baseUri()));
        assertThat(first.failures()).isEqualTo(1);
        assertThat(first.state()).as("it answered: a cut body does not mark it down").isEqualTo("up");
    }

    /** With every upstream of a path down, the path's own is tried all the same, and the client gets a 502. */
    @Test
    void withEveryParentDownTheClientGetsA502AndEachIsMarkedDown() throws Exception {
        ScriptedOrigin a = new ScriptedOrigin(naming("a"));
        ScriptedOrigin b = new ScriptedOrigin(naming("b"));
        List<URI> uris = List.of(a.baseUri(), b.baseUri());
        a.close();
        b.close();
        CacheServer cache = cache(uris);
        assertThat(get(cache, "/x").statusCode()).isEqualTo(502);
        assertThat(get(cache, "/y").statusCode()).isEqualTo(502);
        Map<String, UpstreamStats> stats = upstreams(cache);
        for (URI u : uris) {
            assertThat(stats.get(authority(u)).state()).isEqualTo("down");
            assertThat(stats.get(authority(u)).markedDown()).isEqualTo(1);
        }
    }

    /** One origin behaves as before there were several: always tried, never marked down nor probed. */
    @Test
    void aSingleOriginIsNeverMarkedDownNorProbed() throws Exception {
        ScriptedOrigin a = new ScriptedOrigin(naming("a"));
        URI uri = a.baseUri();
        a.close();
        CacheServer cache = cache(List.of(uri));
        assertThat(get(cache, "/x").statusCode()).isEqualTo(502);
        Thread.sleep(300); // three probe intervals
        UpstreamStats s = upstreams(cache).get(authority(uri));
        assertThat(s).isEqualTo(new UpstreamStats(authority(uri), "up", 1, 1, 0, 0, 0));
        ScriptedOrigin back = opened(new ScriptedOrigin(uri.getPort(), naming("a")));
        assertThat(get(cache, "/x").body()).isEqualTo("a");
        assertThat(back.requests).containsExactly("GET /x");
    }
}
