package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.xcache;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.edgelab.storage.api.ObjectStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Vary variants, invalidation by unsafe methods and Authorization, against a scripted origin. */
@ParameterizedClass(name = "{0}")
@MethodSource("org.edgelab.cache.server.Engines#names")
class HttpSemanticsTest {

    /** The engine of this run (the fixture is made per engine, before the tests). */
    @Parameter
    String engine;

    private static ScriptedOrigin origin;
    private static Engines.Opened opened;
    private static ObjectStore store;
    private static CacheServer cache;
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeParameterizedClassInvocation
    static void start(String engine) throws Exception {
        origin = new ScriptedOrigin(HttpSemanticsTest::answer);
        opened = Engines.open(engine, "8m");
        store = opened.store();
        cache = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).ioThreads(2).build(), store);
    }

    @AfterParameterizedClassInvocation
    static void stop() throws Exception {
        cache.close();
        origin.close();
        opened.close();
    }

    private static FullHttpResponse answer(FullHttpRequest req) {
        String uri = req.uri();
        if (!HttpMethod.GET.equals(req.method())) {
            FullHttpResponse r = text(HttpResponseStatus.OK, "done " + req.method() + " "
                    + req.content().toString(StandardCharsets.UTF_8));
            r.headers().set(HttpHeaderNames.CONTENT_LOCATION, "/other");
            return r;
        }
        if (uri.startsWith("/vary")) {
            String lang = req.headers().get(HttpHeaderNames.ACCEPT_LANGUAGE, "none");
            FullHttpResponse r = text(HttpResponseStatus.OK, "lang=" + lang);
            r.headers().set(HttpHeaderNames.VARY, "Accept-Language");
            r.headers().set(HttpHeaderNames.CACHE_CONTROL, "max-age=600");
            return r;
        }
        if (uri.startsWith("/auth")) {
            FullHttpResponse r = text(HttpResponseStatus.OK, "secret for " + req.headers().get("Authorization"));
            r.headers().set(HttpHeaderNames.CACHE_CONTROL, uri.contains("public") ? "public, max-age=600" : "max-age=600");
            return r;
        }
        FullHttpResponse r = text(HttpResponseStatus.OK, "body of " + uri + " #" + origin.count("GET " + uri));
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, "max-age=600");
        r.headers().set(HttpHeaderNames.ETAG, "\"e1\"");
        return r;
    }

    private static FullHttpResponse text(HttpResponseStatus status, String body) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
        return r;
    }

    private static HttpResponse<String> send(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + cache.port() + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString("payload"));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void varyStoresOneVariantPerSelectingHeaderValue() throws Exception {
        HttpResponse<String> en = send("GET", "/vary", "Accept-Language", "en");
        assertThat(xcache(en)).isEqualTo("MISS");
        assertThat(en.body()).isEqualTo("lang=en");
        HttpResponse<String> fr = send("GET", "/vary", "Accept-Language", "fr");
        assertThat(xcache(fr)).isEqualTo("MISS");
        assertThat(fr.body()).isEqualTo("lang=fr");
        HttpResponse<String> enAgain = send("GET", "/vary", "Accept-Language", "EN");
        assertThat(xcache(enAgain)).isEqualTo("HIT");
        assertThat(enAgain.body()).isEqualTo("lang=en");
        HttpResponse<String> frAgain = send("GET", "/vary", "Accept-Language", "fr");
        assertThat(xcache(frAgain)).isEqualTo("HIT");
        assertThat(frAgain.body()).isEqualTo("lang=fr");
        HttpResponse<String> none = send("GET", "/vary");
        assertThat(xcache(none)).isEqualTo("MISS");
        assertThat(none.body()).isEqualTo("lang=none");
        assertThat(origin.count("GET /vary")).isEqualTo(3);
    }

    @Test
    void unsafeMethodsArePassedThroughAndInvalidateTheTargetAndContentLocation() throws Exception {
        assertThat(xcache(send("GET", "/doc"))).isEqualTo("MISS");
        assertThat(xcache(send("GET", "/other"))).isEqualTo("MISS");
        assertThat(xcache(send("GET", "/doc"))).isEqualTo("HIT");
        HttpResponse<String> post = send("POST", "/doc");
        assertThat(post.statusCode()).isEqualTo(200);
        assertThat(xcache(post)).isEqualTo("PASS");
        assertThat(post.body()).isEqualTo("done POST payload");
        HttpResponse<String> after = send("GET", "/doc");
        assertThat(xcache(after)).isEqualTo("MISS");
        assertThat(after.body()).isEqualTo("body of /doc #2");
        assertThat(xcache(send("GET", "/other"))).isEqualTo("MISS");
        assertThat(xcache(send("DELETE", "/doc"))).isEqualTo("PASS");
        assertThat(xcache(send("GET", "/doc"))).isEqualTo("MISS");
    }

    @Test
    void responsesToAuthorizedRequestsAreStoredOnlyWhenMarkedPublic() throws Exception {
        assertThat(xcache(send("GET", "/auth/private", "Authorization", "Bearer a"))).isEqualTo("PASS");
        HttpResponse<String> second = send("GET", "/auth/private", "Authorization", "Bearer b");
        assertThat(xcache(second)).isEqualTo("PASS");
        assertThat(second.body()).isEqualTo("secret for Bearer b");
        assertThat(xcache(send("GET", "/auth/public", "Authorization", "Bearer a"))).isEqualTo("MISS");
        assertThat(xcache(send("GET", "/auth/public"))).isEqualTo("HIT");
    }
    @Test
    void originConnectionsAreKeptAliveAndReused() throws Exception {
        int connectionsBefore = origin.connections.get();
        for (int i = 0; i < 5; i++) {
            assertThat(xcache(send("GET", "/reuse/" + i))).isEqualTo("MISS");
        }
        assertThat(origin.count("GET /reuse/4")).isEqualTo(1);
        assertThat(origin.connections.get() - connectionsBefore).isLessThanOrEqualTo(1);
    }
}
