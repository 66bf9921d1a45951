package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The target URI a request names, and which requests are a 400 (RFC 9112 §3.2, §3.2.2; RFC 9110 §4.2.3, §7.7). */
class RequestTargetTest {

    private static RequestTarget.Parsed parse(String uri, String... hosts) {
        return parse(HttpVersion.HTTP_1_1, HttpMethod.GET, uri, hosts);
    }

    private static RequestTarget.Parsed parse(HttpVersion v, HttpMethod m, String uri, String... hosts) {
        // Without validation, as the server's decoder hands over what a client sent.
        HttpRequest req = new DefaultHttpRequest(v, m, uri,
                DefaultHttpHeadersFactory.headersFactory().withValidation(false));
        for (String h : hosts) {
            req.headers().add("Host", h);
        }
        return RequestTarget.parse(req, "127.0.0.1:8081");
    }

    @ParameterizedTest(name = "{0} with Host {1} is {2}")
    @CsvSource(delimiter = '|', value = {
        "/a.txt                  | v.example           | http://v.example/a.txt",
        "/a.txt?q=1              | V.Example:80        | http://v.example/a.txt?q=1",
        "/a                      | v.example.          | http://v.example/a",
        "/a                      | v.example:          | http://v.example/a",
        "/a                      | v.example:8080      | http://v.example:8080/a",
        "/a                      | [::1]:8080          | http://[::1]:8080/a",
        "/a                      | 10.0.0.1            | http://10.0.0.1/a",
        "/a                      | a_b.example         | http://a_b.example/a",
        "/%7ea/../b              | v.example           | http://v.example/%7ea/../b",
        "http://b.example/k      | a.example           | http://b.example/k",
        "HTTP://B.example:80/k   | a.example           | http://b.example/k",
        "http://b.example        | a.example           | http://b.example/",
        "http://b.example?q      | a.example           | http://b.example/?q",
        "https://b.example:443/k | a.example           | https://b.example/k",
    })
    void theTargetUriIsTheKeyAndWhatIsForwarded(String uri, String host, String expected) {
        RequestTarget.Parsed p = parse(uri, host);
        assertThat(p.rejection()).isNull();
        assertThat(p.target().uri()).isEqualTo(expected);
        HttpRequest req = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uri);
        req.headers().add("Host", host);
        p.target().applyTo(req);
        assertThat("http://" + req.headers().get("Host") + req.uri()).isEqualTo(expected.replace("https:", "http:"));
    }

    @ParameterizedTest(name = "Host: {0}")
    @ValueSource(strings = {"v.example/x", "", "v.example\\x", "u@v.example", "v.example?x", "v.example#x",
        "a..example", "v.example:abc", "v.example:99999", ":80", "[::1", "[::1]x", "[v1]", "a example",
        "a.ex\u0001ample", "\u00e9.example", "a%2"})
    void anInvalidHostIsA400(String host) {
        assertThat(parse("/a", host).rejection()).contains("Host");
    }

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {"http://u@b.example/k", "http:///k", "http://b.ex\\ample/k", "ftp://b.example/k", "b.example:80", "*", "k"})
    void aTargetInNeitherFormOrWithABadAuthorityIsA400(String uri) {
        assertThat(parse(uri, "b.example").rejection()).isNotNull();
    }

    @Test
    void http11NeedsExactlyOneHostAndHttp10FallsBackToTheOrigin() {
        assertThat(parse("/a").rejection()).contains("without Host");
        assertThat(parse("http://b.example/a").rejection()).contains("without Host");
        assertThat(parse("/a", "a.example", "b.example").rejection()).contains("more than one");
        assertThat(parse("/a", "a.example", "a.example").rejection()).contains("more than one");
        RequestTarget.Parsed http10 = parse(HttpVersion.HTTP_1_0, HttpMethod.GET, "/a");
        assertThat(http10.target().uri()).isEqualTo("http://127.0.0.1:8081/a");
        assertThat(parse(HttpVersion.HTTP_1_0, HttpMethod.GET, "/a", "v.example/x").rejection()).contains("Host");
    }

    @Test
    void optionsAsteriskIsAccepted() {
        assertThat(parse(HttpVersion.HTTP_1_1, HttpMethod.OPTIONS, "*", "a.example").target().originForm())
                .isEqualTo("*");
    }

    @Test
    void locationAndContentLocationInvalidateOnlyTheTargetsOrigin() {
        RequestTarget t = parse("/dir/doc", "a.example").target();
        assertThat(CacheKeys.sameOrigin(t, "/other")).hasValueSatisfying(k -> assertThat(k.value())
                .isEqualTo("http://a.example/other"));
        assertThat(CacheKeys.sameOrigin(t, "sibling?x=1")).hasValueSatisfying(k -> assertThat(k.value())
                .isEqualTo("http://a.example/dir/sibling?x=1"));
        assertThat(CacheKeys.sameOrigin(t, "http://A.example:80/o")).hasValueSatisfying(k -> assertThat(k.value())
                .isEqualTo("http://a.example/o"));
        assertThat(CacheKeys.sameOrigin(t, "http://b.example/o")).isEmpty();
        assertThat(CacheKeys.sameOrigin(t, "https://a.example/o")).isEmpty();
        assertThat(CacheKeys.sameOrigin(t, "http://a.example:8080/o")).isEmpty();
        assertThat(CacheKeys.sameOrigin(t, "::not a uri")).isEmpty();
    }
}
