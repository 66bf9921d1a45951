package org.edgelab.cache.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import org.edgelab.storage.api.HeaderField;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HopByHopTest {

    private static HttpHeaders headers(String... nameValues) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        return h;
    }

    private static HttpHeaders everyHopByHop() {
        return headers("Connection", "keep-alive, X-Custom-Hop", "Keep-Alive", "timeout=5",
                "Proxy-Connection", "keep-alive", "Proxy-Authenticate", "Basic", "Proxy-Authorization", "Basic x",
                "TE", "trailers", "Trailer", "X-Checksum", "Transfer-Encoding", "chunked", "Upgrade", "h2c",
                "X-Custom-Hop", "1", "Content-Type", "text/plain", "ETag", "\"e\"", "Cache-Control", "max-age=5");
    }

    @Test
    void stripRemovesHopByHopAndConnectionNamedFields() {
        HttpHeaders h = everyHopByHop();
        HopByHop.strip(h);
        assertThat(h.names()).containsExactlyInAnyOrder("Content-Type", "ETag", "Cache-Control");
    }

    @Test
    void stripHandlesSeveralConnectionLinesAndCase() {
        HttpHeaders h = headers("connection", "close", "CONNECTION", "x-a , X-B", "X-A", "1", "x-b", "2", "X-C", "3");
        HopByHop.strip(h);
        assertThat(h.names()).containsExactly("X-C");
    }

    @Test
    void isHopByHopIgnoresCase() {
        assertThat(HopByHop.isHopByHop("Transfer-Encoding")).isTrue();
        assertThat(HopByHop.isHopByHop("te")).isTrue();
        assertThat(HopByHop.isHopByHop("Content-Type")).isFalse();
    }

    @Test
    void storedHeadersKeepEndToEndFieldsInOrder() {
        HttpHeaders h = everyHopByHop();
        h.add("Set-Cookie", "a=1").add("Set-Cookie2", "b=2").add("Content-Length", "10").add("Age", "3")
                .add("Vary", "Accept-Encoding").add("Proxy-Authentication-Info", "x").add("Content-Range", "bytes 0-1/2");
        assertThat(HopByHop.storedHeaders(h)).containsExactly(
                new HeaderField("Content-Type", "text/plain"),
                new HeaderField("ETag", "\"e\""),
                new HeaderField("Cache-Control", "max-age=5"),
                new HeaderField("Age", "3"),
                new HeaderField("Vary", "Accept-Encoding"));
        assertThat(h.contains("Set-Cookie")).as("storedHeaders does not modify its argument").isTrue();
    }

    @Test
    void storedHeadersDropFieldsNamedByQualifiedNoCacheOrPrivate() {
        HttpHeaders h = headers("Cache-Control", "max-age=5, no-cache=\"X-Token\", private=\"X-User\"",
                "X-Token", "t", "X-User", "u", "X-Kept", "k");
        assertThat(HopByHop.storedHeaders(h)).extracting(HeaderField::name)
                .containsExactly("Cache-Control", "X-Kept");
    }

    @Test
    void repeatedFieldsAreAllStored() {
        HttpHeaders h = headers("Link", "<a>", "Link", "<b>");
        assertThat(HopByHop.storedHeaders(h)).containsExactly(new HeaderField("Link", "<a>"), new HeaderField("Link", "<b>"));
    }
}
