package org.edgelab.cache.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import org.edgelab.storage.api.HeaderField;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Removes connection-specific header fields before a message is forwarded (RFC 9110 §7.6.1) and
 * picks the response fields a cache stores (RFC 9111 §3.1).
 *
 * <p>Stored: every end-to-end field except Set-Cookie and Set-Cookie2 (never stored, so never
 * replayed to another client; {@link Storability} refuses cookie-setting responses unless the
 * origin marked the cookie private), Content-Length and Content-Range (the stored body's length
 * lives in {@code ObjectMetadata.length()}: write Content-Length from it), Proxy-Authentication-Info,
 * and the fields named by a qualified {@code no-cache} or {@code private} directive (RFC 9111
 * §5.2.2.4 and §5.2.2.7 let a cache store the rest without them). Stateless and thread-safe.
 */
public final class HopByHop {

    /** Hop-by-hop fields, lower-case: always removed when forwarding, never stored. */
    public static final Set<String> FIELDS = Set.of(
            "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization",
            "te", "trailer", "transfer-encoding", "upgrade");

    /** End-to-end fields a cache does not store, lower-case (see the class comment). */
    public static final Set<String> NOT_STORED = Set.of(
            "set-cookie", "set-cookie2", "content-length", "content-range", "proxy-authentication-info");

    private HopByHop() {
    }

    /** True when the field (any case) is one of the fixed hop-by-hop fields. */
    public static boolean isHopByHop(String name) {
        return FIELDS.contains(name.toLowerCase(Locale.ROOT));
    }

    /** Removes, in place, the hop-by-hop fields and every field the Connection header names. */
    public static void strip(HttpHeaders headers) {
        for (String name : connectionSpecific(headers)) {
            headers.remove(name);
        }
    }

    /** Returns the end-to-end response fields to store, in order, names as received. */
    public static List<HeaderField> storedHeaders(HttpHeaders response) {
        Set<String> excluded = connectionSpecific(response);
        excluded.addAll(NOT_STORED);
        CacheControl cc = CacheControl.of(response);
        excluded.addAll(cc.noCacheFields());
        excluded.addAll(cc.privateFields());
        List<HeaderField> stored = new ArrayList<>(response.size());
        for (Map.Entry<String, String> e : response) {
            if (!excluded.contains(e.getKey().toLowerCase(Locale.ROOT))) {
                stored.add(new HeaderField(e.getKey(), e.getValue()));
            }
        }
        return stored;
    }

    /** The lower-case names of the fixed hop-by-hop fields plus those the Connection field lists. */
    static Set<String> connectionSpecific(HttpHeaders headers) {
        Set<String> names = new HashSet<>(FIELDS);
        for (String value : headers.getAll(HttpHeaderNames.CONNECTION)) {
            for (String token : value.split(",")) {
                String name = token.trim().toLowerCase(Locale.ROOT);
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return names;
    }
}
