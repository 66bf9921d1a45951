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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RFC 9111 behaviours end to end, each from the RFC's wording, against a scripted origin: reading
 * Age (§5.1), not serving a stored response the origin could not validate when a directive forbids
 * it (§4.2.4, §5.2.2), freshening with a 304 (§3.2, §4.3.4), and invalidation by unsafe methods,
 * also unknown ones (§4.4). Cache policy does not depend on the engine: the memory engine is used.
 */
class Rfc9111Test {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** A cache in front of a scripted origin; closing closes both (the origin may be closed first). */
    private static final class Setup implements AutoCloseable {
        final ScriptedOrigin origin;
        final Engines.Opened opened;
        final CacheServer cache;

        Setup(Function<FullHttpRequest, FullHttpResponse> script) throws Exception {
            origin = new ScriptedOrigin(script);
            opened = Engines.open("memory", "8m");
            cache = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).ioThreads(2).build(),
                    opened.store());
        }

        HttpResponse<String> send(String method, String path, String... headers) throws Exception {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cache.port() + path))
                    .timeout(Duration.ofSeconds(20))
                    .method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString("payload"));
            if (headers.length > 0) {
                b.headers(headers);
            }
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }

        @Override
        public void close() throws Exception {
            try {
                cache.close();
                origin.close();
            } finally {
                opened.close();
            }
        }
    }

    private static FullHttpResponse text(HttpResponseStatus status, String body, String... headers) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
        for (int i = 0; i < headers.length; i += 2) {
            r.headers().add(headers[i], headers[i + 1]);
        }
        return r;
    }

    // ---- §5.1 Age

    /**
     * RFC 9111 §5.1: "If the field value (after discarding additional members, as per above) is
     * invalid (e.g., it contains something other than a non-negative integer), a cache SHOULD
     * ignore the field." A response fresh for 60 s with an invalid, negative, non-numeric or
     * duplicated Age stays fresh and usable: the next request is a HIT with a small Age.
     */
    @ParameterizedTest(name = "Age: {0}")
    @ValueSource(strings = {"-5", "abc", "1.5", "+5", "", "5|900", "0|abc", "999999999999999999999999|1"})
    void anInvalidOrDuplicatedAgeDoesNotMakeAFreshResponseStaleOrUnusable(String ages) throws Exception {
        List<String> lines = List.of(ages.split("\\|", -1));
        try (Setup s = new Setup(req -> {
            FullHttpResponse r = text(HttpResponseStatus.OK, "aged", "Cache-Control", "max-age=60");
            for (String a : lines) {
                r.headers().add(HttpHeaderNames.AGE, a);
            }
            return r;
        })) {
            assertThat(xcache(s.send("GET", "/aged"))).isEqualTo("MISS");
            HttpResponse<String> again = s.send("GET", "/aged");
            boolean ignored = !lines.get(0).matches("[0-9]+");
            if (ignored || new java.math.BigInteger(lines.get(0)).longValue() < 60) {
                assertThat(xcache(again)).as("still fresh").isEqualTo("HIT");
                assertThat(again.body()).isEqualTo("aged");
                assertThat(again.headers().allValues("Age")).as("one Age, the cache's own").hasSize(1);
                assertThat(Long.parseLong(again.headers().firstValue("Age").orElseThrow())).isLessThan(60);
            } else {
                // RFC 9111 §1.2.2: a value too large "MUST consider the value to be 2147483648 (2^31)".
                assertThat(xcache(again)).as("an Age of 2^31 s is stale").isNotEqualTo("HIT");
            }
        }
    }

    /**
     * RFC 9111 §5.1: "a cache encountering a message with a list-based Age field value SHOULD use
     * the first member of the field value, discarding subsequent ones." {@code Age: 100, 5} on a
     * response with max-age=60 is 100 s old: stale, so the next request goes to the origin.
     */
    @Test
    void aListBasedAgeUsesItsFirstMember() throws Exception {
        try (Setup s = new Setup(req -> text(HttpResponseStatus.OK, "listed", "Cache-Control", "max-age=60",
                "Age", "100, 5"))) {
            assertThat(xcache(s.send("GET", "/listed"))).isEqualTo("MISS");
            assertThat(xcache(s.send("GET", "/listed"))).as("100 s old with a lifetime of 60 s").isNotEqualTo("HIT");
            assertThat(s.origin.count("GET /listed")).isEqualTo(2);
        }
    }

    // ---- §4.2.4, §5.2.2: no stale response when the origin cannot be reached

    /**
     * RFC 9111 §4.2.4: "A cache MUST NOT generate a stale response if it is prohibited by an
     * explicit in-protocol directive (e.g., by a no-cache response directive, a must-revalidate
     * response directive, or an applicable s-maxage or proxy-revalidate response directive; see
     * Section 5.2.2)." And §5.2.2.2 (must-revalidate): "if a cache is disconnected, the cache MUST
     * generate an error response rather than reuse the stale response." A response stored stale
     * (Age 10, lifetime 1 s) with stale-if-error=600 and each directive, then the origin gone: the
     * next request is an error, not the stored body; without a directive it is served stale.
     */
    @ParameterizedTest(name = "Cache-Control: {0}")
    @ValueSource(strings = {"max-age=1, must-revalidate", "max-age=1, proxy-revalidate", "s-maxage=1",
            "max-age=1", "no-cache, max-age=600"})
    void aStoredResponseADirectiveForbidsToServeStaleIsNotServedWhenTheOriginConnectionFails(String directives)
            throws Exception {
        boolean allowed = directives.equals("max-age=1");
        try (Setup s = new Setup(req -> text(HttpResponseStatus.OK, "stored body", "Cache-Control",
                directives + ", stale-if-error=600", "Age", directives.contains("no-cache") ? "0" : "10"))) {
            assertThat(xcache(s.send("GET", "/gone"))).isEqualTo("MISS");
            s.origin.close();
            HttpResponse<String> r = s.send("GET", "/gone");
            if (allowed) {
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(xcache(r)).isEqualTo("HIT-STALE");
                assertThat(r.body()).isEqualTo("stored body");
            } else {
                assertThat(r.statusCode()).as("an error, not the stored response (X-Cache %s)", xcache(r))
                        .isIn(502, 504);
                assertThat(r.body()).doesNotContain("stored body");
            }
        }
    }

    // ---- §3.2, §4.3.4: freshening with a 304

    /**
     * RFC 9111 §4.3.4: the cache "MUST update its header fields with the header fields provided in
     * the 304 (Not Modified) response, as per Section 3.2", which says: "the cache MUST add each
     * header field in the provided response to the stored response, replacing field values that
     * are already present, with the following exceptions: Header fields excepted from storage in
     * Section 3.1, Header fields that the cache's stored response depends upon, as described
     * below, Header fields that are automatically processed and removed by the recipient, as
     * described below, and The Content-Length header field." and "some fields are automatically
     * processed and removed by the HTTP implementation, such as the Content-Range header field;
     * implementations MAY simply ignore such header fields when updating stored responses".
     */
    @Test
    void a304ReplacesAndAddsStoredFieldsButNotContentLengthContentRangeOrHopByHopFields() throws Exception {
        try (Setup s = new Setup(req -> {
            if (req.headers().contains(HttpHeaderNames.IF_NONE_MATCH)) {
                return text(HttpResponseStatus.NOT_MODIFIED, "", "ETag", "\"v1\"", "Cache-Control", "max-age=600",
                        "X-Replaced", "new", "X-Added", "yes", "Content-Range", "bytes 0-0/1",
                        "Keep-Alive", "timeout=5", "Proxy-Authenticate", "Basic realm=x");
            }
            return text(HttpResponseStatus.OK, "version one", "ETag", "\"v1\"", "Cache-Control", "max-age=1",
                    "Age", "10", "X-Replaced", "old", "X-Kept", "kept");
        })) {
            assertThat(xcache(s.send("GET", "/fresh"))).isEqualTo("MISS");
            HttpResponse<String> revalidated = s.send("GET", "/fresh");
            HttpResponse<String> after = s.send("GET", "/fresh");
            assertThat(xcache(revalidated)).isEqualTo("HIT-REVALIDATED");
            assertThat(xcache(after)).as("fresh for 600 s after the 304").isEqualTo("HIT");
            for (HttpResponse<String> r : List.of(revalidated, after)) {
                assertThat(r.body()).isEqualTo("version one");
                assertThat(r.headers().firstValue("Content-Length")).hasValue("11");
                assertThat(r.headers().allValues("X-Replaced")).containsExactly("new");
                assertThat(r.headers().allValues("X-Added")).containsExactly("yes");
                assertThat(r.headers().allValues("X-Kept")).containsExactly("kept");
                assertThat(r.headers().allValues("Cache-Control")).containsExactly("max-age=600");
                assertThat(r.headers().firstValue("Content-Range")).isEmpty();
                assertThat(r.headers().firstValue("Proxy-Authenticate")).isEmpty();
                assertThat(r.headers().firstValue("Keep-Alive")).isEmpty();
            }
            assertThat(s.origin.requests).containsExactly("GET /fresh", "GET /fresh");
        }
    }

    /**
     * A 304 that makes the stored response one this cache does not store is not folded into it:
     * RFC 9111 §5.2.2.5 (no-store): "a cache MUST NOT store any part of either the immediate
     * request or the response"; §5.2.2.7 (private): "a shared cache MUST NOT store the response";
     * and a cookie (this cache, like Varnish and nginx, stores no response that sets one; RFC 9111
     * §7.3: "Servers that wish to control caching of these responses are encouraged to emit
     * appropriate Cache-Control response header fields"), so no other client is ever given
     * another's cookie nor the old response without it. The stored response is removed and the
     * client fetches the object unconditionally, getting the origin's full answer.
     */
    @ParameterizedTest(name = "304 with {0}")
    @ValueSource(strings = {"Set-Cookie: session=abc", "Cache-Control: no-store", "Cache-Control: private"})
    void a304ThatMakesTheResponseUnstorableRemovesItAndTheClientGetsTheOriginsAnswer(String field)
            throws Exception {
        String name = field.substring(0, field.indexOf(':'));
        String value = field.substring(field.indexOf(':') + 2);
        java.util.concurrent.atomic.AtomicInteger unconditional = new java.util.concurrent.atomic.AtomicInteger();
        try (Setup s = new Setup(req -> {
            if (req.headers().contains(HttpHeaderNames.IF_NONE_MATCH)) {
                return text(HttpResponseStatus.NOT_MODIFIED, "", "ETag", "\"v1\"", name, value);
            }
            // The first answer is stored (and stale at once); the origin adds the field from then on.
            return unconditional.getAndIncrement() == 0
                    ? text(HttpResponseStatus.OK, "version one", "ETag", "\"v1\"", "Cache-Control", "max-age=1",
                            "Age", "10")
                    : text(HttpResponseStatus.OK, "version one", "ETag", "\"v1\"", "Cache-Control", "max-age=1",
                            name, value);
        })) {
            assertThat(xcache(s.send("GET", "/turns"))).isEqualTo("MISS");
            HttpResponse<String> r = s.send("GET", "/turns");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("version one");
            assertThat(xcache(r)).as("the origin's own answer").doesNotStartWith("HIT");
            assertThat(r.headers().allValues(name)).as("the origin's %s reaches the client", name).contains(value);
            HttpResponse<String> later = s.send("GET", "/turns");
            assertThat(xcache(later)).as("the old stored response is gone").doesNotStartWith("HIT");
            assertThat(s.origin.requests).as("fill, revalidation (304), unconditional fetch, and the later one")
                    .hasSize(4);
        }
    }

    /**
     * RFC 9111 §4.3.4: "If the new response contains one or more strong validators (see Section
     * 8.8.1 of [HTTP]), then each of those strong validators identifies a selected representation
     * for update. [...] If none of the stored responses contain at least one of the same strong
     * validators, then the cache MUST NOT use the new response to update any stored responses."
     * and "If the new response does not include any form of validator [...], and there is only one
     * stored response, and that stored response also lacks a validator, then that stored response
     * is identified for update." A 304 without a validator for a response stored with one, or with
     * a validator other than the stored one, freshens nothing: the client, whose GET was plain,
     * gets the origin's full answer to an unconditional request, never the 304 nor the stored body
     * as revalidated.
     */
    @ParameterizedTest(name = "stored {0}, 304 with {1}")
    @CsvSource(delimiter = '|', value = {
        "ETag: \"v1\"|(no validator)",
        "Last-Modified: Sat, 01 Jan 2022 00:00:00 GMT|(no validator)",
        "ETag: \"v1\"|ETag: \"v2\"",
        "ETag: \"v1\"|ETag: W/\"v2\"",
        "Last-Modified: Sat, 01 Jan 2022 00:00:00 GMT|Last-Modified: Sun, 02 Jan 2022 00:00:00 GMT"})
    void a304ThatDoesNotValidateTheStoredResponseDoesNotFreshenIt(String storedValidator, String notModifiedValidator)
            throws Exception {
        String[] sv = storedValidator.split(": ", 2);
        String[] nv = notModifiedValidator.startsWith("(") ? new String[0] : notModifiedValidator.split(": ", 2);
        java.util.concurrent.atomic.AtomicInteger unconditional = new java.util.concurrent.atomic.AtomicInteger();
        try (Setup s = new Setup(req -> {
            if (req.headers().contains(HttpHeaderNames.IF_NONE_MATCH)
                    || req.headers().contains(HttpHeaderNames.IF_MODIFIED_SINCE)) {
                FullHttpResponse r = text(HttpResponseStatus.NOT_MODIFIED, "", "Cache-Control", "max-age=600");
                if (nv.length == 2) {
                    r.headers().set(nv[0], nv[1]);
                }
                return r;
            }
            // The first answer is stored stale; the unconditional refetch is a newer version, kept fresh.
            return unconditional.getAndIncrement() == 0
                    ? text(HttpResponseStatus.OK, "version one", sv[0], sv[1], "Cache-Control", "max-age=1", "Age", "10")
                    : text(HttpResponseStatus.OK, "version two", "Cache-Control", "max-age=600");
        })) {
            assertThat(xcache(s.send("GET", "/other"))).isEqualTo("MISS");
            HttpResponse<String> r = s.send("GET", "/other");
            assertThat(r.statusCode()).as("a plain GET is never answered 304").isEqualTo(200);
            assertThat(xcache(r)).as("not freshened by the 304").isNotEqualTo("HIT-REVALIDATED");
            assertThat(r.body()).as("the origin's answer to the unconditional request").isEqualTo("version two");
            HttpResponse<String> later = s.send("GET", "/other");
            assertThat(xcache(later)).isEqualTo("HIT");
            assertThat(later.body()).isEqualTo("version two");
            assertThat(s.origin.requests).as("fill, revalidation (304), unconditional fetch").hasSize(3);
        }
    }

    /**
     * RFC 9111 §4.3.4, the other side: "If the new response does not include any form of validator
     * [...], and there is only one stored response, and that stored response also lacks a
     * validator, then that stored response is identified for update." A response stored without a
     * validator, revalidated (unconditionally: it has none to send) and answered 304 without one,
     * is freshened by it.
     */
    @Test
    void a304WithoutValidatorsFreshensAResponseStoredWithoutValidators() throws Exception {
        java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();
        try (Setup s = new Setup(req -> requests.getAndIncrement() == 0
                ? text(HttpResponseStatus.OK, "version one", "Cache-Control", "max-age=1", "Age", "10")
                : text(HttpResponseStatus.NOT_MODIFIED, "", "Cache-Control", "max-age=600"))) {
            assertThat(xcache(s.send("GET", "/plain"))).isEqualTo("MISS");
            HttpResponse<String> r = s.send("GET", "/plain");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(xcache(r)).isEqualTo("HIT-REVALIDATED");
            assertThat(r.body()).isEqualTo("version one");
            assertThat(xcache(s.send("GET", "/plain"))).as("fresh for 600 s after the 304").isEqualTo("HIT");
            assertThat(s.origin.requests).hasSize(2);
        }
    }

    // ---- §4.4 invalidation

    /**
     * RFC 9111 §4.4: "A cache MUST invalidate the target URI when it receives a non-error status
     * code in response to an unsafe request method (including methods whose safety is unknown)."
     * A method this cache does not know (FROB) invalidates; an error answer to it does not; a safe
     * method (OPTIONS) does not.
     */
    @Test
    void anUnknownMethodInvalidatesTheTargetUnlessItsAnswerIsAnError() throws Exception {
        try (Setup s = new Setup(req -> {
            if (HttpMethod.GET.equals(req.method())) {
                return text(HttpResponseStatus.OK, "body of " + req.uri(), "Cache-Control", "max-age=600");
            }
            return text(req.uri().startsWith("/err") ? HttpResponseStatus.INTERNAL_SERVER_ERROR : HttpResponseStatus.OK,
                    "done " + req.method());
        })) {
            for (String path : List.of("/doc", "/err")) {
                assertThat(xcache(s.send("GET", path))).isEqualTo("MISS");
                assertThat(xcache(s.send("GET", path))).isEqualTo("HIT");
            }
            assertThat(xcache(s.send("OPTIONS", "/doc"))).isEqualTo("PASS");
            assertThat(xcache(s.send("GET", "/doc"))).as("OPTIONS is safe").isEqualTo("HIT");
            HttpResponse<String> frob = s.send("FROB", "/doc");
            assertThat(frob.statusCode()).isEqualTo(200);
            assertThat(frob.body()).isEqualTo("done FROB");
            assertThat(xcache(s.send("GET", "/doc"))).as("a 200 to FROB invalidates").isEqualTo("MISS");
            assertThat(s.send("FROB", "/err").statusCode()).isEqualTo(500);
            assertThat(xcache(s.send("GET", "/err"))).as("a 500 to FROB does not").isEqualTo("HIT");
        }
    }
}
