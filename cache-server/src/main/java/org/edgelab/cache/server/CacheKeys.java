package org.edgelab.cache.server;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import org.edgelab.storage.api.CacheKey;

/** Builds the primary cache key of a request: lower-cased host, then path and query as sent. Stateless. */
final class CacheKeys {

    private CacheKeys() {
    }

    /** Returns the key, or empty when the target is too long to be a key (then the request is passed). */
    static Optional<CacheKey> primary(HttpRequest req, String defaultHost) {
        String host = req.headers().get(HttpHeaderNames.HOST);
        String target = req.uri();
        if (target.startsWith("http://") || target.startsWith("https://")) {
            try {
                URI u = URI.create(target);
                host = u.getRawAuthority();
                target = (u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath())
                        + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
            } catch (IllegalArgumentException badUri) {
                return Optional.empty();
            }
        }
        return key(host == null || host.isEmpty() ? defaultHost : host, target);
    }

    /** Returns the key of another target on a host (for Location and Content-Location invalidation). */
    static Optional<CacheKey> key(String host, String pathAndQuery) {
        String value = host.toLowerCase(Locale.ROOT) + pathAndQuery;
        if (value.length() > CacheKey.MAX_BYTES) {
            return Optional.empty();
        }
        try {
            return Optional.of(CacheKey.of(value));
        } catch (IllegalArgumentException tooLong) {
            return Optional.empty();
        }
    }
}
