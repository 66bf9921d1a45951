package org.edgelab.cache.server;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import org.edgelab.storage.api.CacheKey;

/**
 * Builds the primary cache key of a request: its target URI as {@link RequestTarget} validated and
 * normalised it ({@code http://a.example/x/a.txt}). The authority can hold no "/" and the
 * origin-form target always starts with one, so the first "/" after "://" separates them and no
 * Host value can make one resource's key another's (RFC 9111 §2: the key is the target URI).
 * Stateless.
 */
final class CacheKeys {

    private CacheKeys() {
    }

    /** Returns the key, or empty when the target is too long to be a key (then the request is passed). */
    static Optional<CacheKey> primary(RequestTarget target) {
        return of(target.uri());
    }

    /**
     * Returns the key of a URI reference (a Location or Content-Location value) resolved against
     * the target, when it has the target's origin (scheme, host and port, RFC 9111 §4.4); else empty.
     */
    static Optional<CacheKey> sameOrigin(RequestTarget target, String reference) {
        URI resolved;
        try {
            URI ref = new URI(reference.trim());
            resolved = ref.isAbsolute() ? ref : new URI(target.uri()).resolve(ref);
        } catch (URISyntaxException | IllegalArgumentException notAUri) {
            return Optional.empty();
        }
        String scheme = resolved.getScheme() == null ? "" : resolved.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals(target.scheme()) || resolved.getRawAuthority() == null
                || !target.authority().equals(RequestTarget.normaliseAuthority(resolved.getRawAuthority(), scheme))) {
            return Optional.empty();
        }
        String path = resolved.getRawPath() == null || resolved.getRawPath().isEmpty() ? "/" : resolved.getRawPath();
        String query = resolved.getRawQuery() == null ? "" : "?" + resolved.getRawQuery();
        return of(target.scheme() + "://" + target.authority() + path + query);
    }

    private static Optional<CacheKey> of(String value) {
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
