package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import org.edgelab.storage.api.ObjectStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cache poisoning through Host and the request target, against an origin that answers per host
 * (from X-Forwarded-Host, as a virtual-hosting origin behind this cache does): each attack is
 * answered as nginx 1.22 answers it (a 400, or the resource the absolute-form target names), the
 * victim's request gets its own resource, and the server keeps serving. RFC 9112 §3.2 and §3.2.2.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("org.edgelab.cache.server.Engines#names")
class HostPoisoningTest {

    @Parameter
    String engine;

    private static ScriptedOrigin origin;
    private static Engines.Opened opened;
    private static CacheServer cache;

    @BeforeParameterizedClassInvocation
    static void start(String engine) throws Exception {
        origin = new ScriptedOrigin(HostPoisoningTest::answer);
        opened = Engines.open(engine, "8m");
        ObjectStore store = opened.store();
        cache = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).ioThreads(2).build(), store);
    }

    @AfterParameterizedClassInvocation
    static void stop() throws Exception {
        cache.close();
        origin.close();
        opened.close();
    }

    /** Answers with the host and target it was asked for, cacheable for ten minutes (also HostCasesAsNginxTest's origin). */
    static FullHttpResponse answer(FullHttpRequest req) {
        String body = "host=" + req.headers().get("X-Forwarded-Host") + " path=" + req.uri();
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, "max-age=600");
        return r;
    }

    private static RawHttp.Response get(String requestHead) throws Exception {
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send(requestHead + "\r\n\r\n");
            return raw.read(false);
        }
    }

    private static String body(RawHttp.Response r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    private static void assertStillServing(String path) throws Exception {
        RawHttp.Response ok = get("GET " + path + " HTTP/1.1\r\nHost: ok.example");
        assertThat(ok.status()).isEqualTo(200);
        assertThat(body(ok)).isEqualTo("host=ok.example path=" + path);
    }

    @Test
    void cachePoisoningAcrossPathsWithASlashInHostIsA400AndTheVictimGetsItsOwnObject() throws Exception {
        String prefix = "/" + engine + "/paths";
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + prefix + "/a.txt HTTP/1.1\r\nHost: v.example/x\r\n\r\n");
            RawHttp.Response attack = raw.read(false);
            assertThat(attack.status()).as("nginx answers 400 to a / in Host").isEqualTo(400);
            assertThat(raw.closedByServer()).isTrue();
        }
        assertThat(origin.count("GET " + prefix + "/a.txt")).as("the attack never reached the origin").isZero();
        RawHttp.Response victim = get("GET /x" + prefix + "/a.txt HTTP/1.1\r\nHost: v.example");
        assertThat(victim.status()).isEqualTo(200);
        assertThat(victim.header("x-cache")).isEqualTo("MISS");
        assertThat(body(victim)).isEqualTo("host=v.example path=/x" + prefix + "/a.txt");
        assertStillServing(prefix + "/after");
    }

    @Test
    void cachePoisoningAcrossHostsWithAnAbsoluteFormTargetStoresTheTargetsHostsObject() throws Exception {
        String k = "/" + engine + "/hosts/k";
        RawHttp.Response attack = get("GET http://b.example" + k + " HTTP/1.1\r\nHost: a.example");
        assertThat(attack.status()).isEqualTo(200);
        assertThat(body(attack)).as("the target's authority overrides Host, also in what is forwarded")
                .isEqualTo("host=b.example path=" + k);
        RawHttp.Response b = get("GET " + k + " HTTP/1.1\r\nHost: b.example");
        assertThat(b.header("x-cache")).as("stored, or still being written").startsWith("HIT");
        assertThat(body(b)).isEqualTo("host=b.example path=" + k);
        RawHttp.Response a = get("GET " + k + " HTTP/1.1\r\nHost: a.example");
        assertThat(a.header("x-cache")).isEqualTo("MISS");
        assertThat(body(a)).isEqualTo("host=a.example path=" + k);
        assertStillServing(k + "/after");
    }

    @Test
    void anHttp11RequestWithoutHostIsA400() throws Exception {
        String k = "/" + engine + "/nohost";
        assertThat(get("GET " + k + " HTTP/1.1").status()).isEqualTo(400);
        assertThat(get("GET http://b.example" + k + " HTTP/1.1").status())
                .as("also with an absolute-form target, as nginx").isEqualTo(400);
        RawHttp.Response http10 = get("GET " + k + " HTTP/1.0");
        assertThat(http10.status()).as("HTTP/1.0 may omit Host").isEqualTo(200);
        assertThat(origin.count("GET " + k)).isEqualTo(1);
        assertStillServing(k + "/after");
    }

    @Test
    void twoHostFieldsAreA400() throws Exception {
        String k = "/" + engine + "/twohosts";
        assertThat(get("GET " + k + " HTTP/1.1\r\nHost: a.example\r\nHost: b.example").status()).isEqualTo(400);
        assertThat(get("GET " + k + " HTTP/1.1\r\nHost: a.example\r\nHost: a.example").status()).isEqualTo(400);
        assertThat(origin.count("GET " + k)).isZero();
        assertStillServing(k + "/after");
    }

    @Test
    void invalidHostValuesAreA400() throws Exception {
        String k = "/" + engine + "/invalid";
        for (String host : new String[] {"", "v.example\\x", "u@v.example", "v.example?x", "v.example#x",
                "a..example", "v.example:abc", "v.example:99999", ":80", "[::1", "a example", "a.ex\u0001ample"}) {
            RawHttp.Response r = get("GET " + k + " HTTP/1.1\r\nHost: " + host);
            assertThat(r.status()).as("Host: %s", host).isEqualTo(400);
        }
        for (String target : new String[] {"http://u@b.example" + k, "http:///" + k, "ftp://b.example" + k,
                "b.example:80", "*"}) {
            assertThat(get("GET " + target + " HTTP/1.1\r\nHost: b.example").status()).as(target).isEqualTo(400);
        }
        assertThat(origin.count("GET " + k)).isZero();
        assertStillServing(k + "/after");
    }

    @Test
    void equivalentAuthoritiesShareOneObject() throws Exception {
        String k = "/" + engine + "/same";
        assertThat(get("GET " + k + " HTTP/1.1\r\nHost: c.example").header("x-cache")).isEqualTo("MISS");
        for (String head : new String[] {"GET " + k + " HTTP/1.1\r\nHost: C.EXAMPLE:80",
                "GET " + k + " HTTP/1.1\r\nHost: c.example.", "GET " + k + " HTTP/1.1\r\nHost: c.example:",
                "GET HTTP://C.example:80" + k + " HTTP/1.1\r\nHost: other.example"}) {
            RawHttp.Response r = get(head);
            assertThat(r.header("x-cache")).as(head).startsWith("HIT");
            assertThat(body(r)).isEqualTo("host=c.example path=" + k);
        }
        RawHttp.Response port = get("GET " + k + " HTTP/1.1\r\nHost: c.example:8080");
        assertThat(port.header("x-cache")).as("another port is another origin").isEqualTo("MISS");
        assertThat(body(port)).isEqualTo("host=c.example:8080 path=" + k);
    }
}
