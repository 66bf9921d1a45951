package org.edgelab.cache.origin;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Set;
import org.edgelab.cache.http.HopByHop;
import io.netty.util.AsciiString;

/** Builds the requests the cache sends to the origin from the clients' requests. Stateless and thread-safe. */
public final class OriginRequests {

    /** The Via value this cache adds (RFC 9110 §7.6.3). */
    public static final String VIA = "1.1 edgelab";

    /** Fields a cache fill must not forward: the fill fetches the whole, unconditional object. */
    private static final Set<AsciiString> NOT_FOR_FILL = Set.of(HttpHeaderNames.RANGE, HttpHeaderNames.IF_RANGE,
            HttpHeaderNames.IF_NONE_MATCH, HttpHeaderNames.IF_MODIFIED_SINCE, HttpHeaderNames.IF_MATCH,
            HttpHeaderNames.IF_UNMODIFIED_SINCE);

    private OriginRequests() {
    }

    /**
     * Returns the GET that fills the cache for a client's GET or HEAD: same target and end-to-end
     * fields, without Range and preconditions, plus {@code extra} (revalidation validators).
     */
    public static HttpRequest fill(HttpRequest client, String originAuthority, HttpHeaders extra) {
        HttpRequest req = forward(client, originAuthority, false);
        req.setMethod(HttpMethod.GET);
        for (AsciiString name : NOT_FOR_FILL) {
            req.headers().remove(name);
        }
        if (extra != null) {
            req.headers().add(extra);
        }
        return req;
    }

    /**
     * Returns a copy of the client's request for the origin: hop-by-hop fields stripped, Host set
     * to {@code originAuthority} (kept as the client's when it is null), the client's Host in
     * X-Forwarded-Host, Via added, keep-alive; {@code hasBody} keeps the framing field of a body.
     */
    public static HttpRequest forward(HttpRequest client, String originAuthority, boolean hasBody) {
        HttpRequest req = new DefaultHttpRequest(HttpVersion.HTTP_1_1, client.method(), client.uri());
        HttpHeaders h = req.headers();
        h.set(client.headers());
        HopByHop.strip(h);
        h.remove(HttpHeaderNames.CONTENT_LENGTH);
        h.remove(HttpHeaderNames.EXPECT);
        String clientHost = client.headers().get(HttpHeaderNames.HOST);
        if (clientHost != null) {
            h.set("X-Forwarded-Host", clientHost);
        }
        if (originAuthority != null) {
            h.set(HttpHeaderNames.HOST, originAuthority);
        }
        h.add(HttpHeaderNames.VIA, VIA);
        return req;
    }
}
