package org.edgelab.cache.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import org.edgelab.http.Conditionals;
import org.edgelab.http.Conditionals.Outcome;
import org.edgelab.http.Conditionals.Validators;
import org.edgelab.http.EntityTag;
import org.edgelab.http.HttpDates;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Conditional requests against a stored response (RFC 9111 §4.3): answering a client's preconditions
 * from cache (RFC 9110 §13, through {@link Conditionals}), validating with the origin, and folding
 * the origin's 304 into the stored headers. Stateless and thread-safe.
 */
public final class StoredConditionals {

    /** Fields a 304 never updates in the stored response, beyond those {@link HopByHop#storedHeaders} drops. */
    private static final Set<String> NOT_UPDATED = Set.of("content-encoding");

    private StoredConditionals() {
    }

    /**
     * The stored response's validators: its ETag, Last-Modified and Date; If-Modified-Since compares with
     * Last-Modified, else Date, else the time the response was received (RFC 9111 §4.3.2).
     */
    public static Validators validators(ObjectMetadata stored) {
        OptionalLong lastModified = HttpDates.parseMillis(stored.lastModified().orElse(null));
        OptionalLong date = HttpDates.parseMillis(stored.header("Date").orElse(null));
        long modified = lastModified.orElse(date.orElse(stored.responseTimeMillis()));
        return new Validators(stored.etag().orElse(null), lastModified, date, OptionalLong.of(modified));
    }

    /** Evaluates the preconditions of a GET request against the stored response. */
    public static Outcome evaluate(HttpHeaders request, ObjectMetadata stored) {
        return evaluate(HttpMethod.GET, request, stored);
    }

    /**
     * Evaluates the preconditions of a request with this method against the stored response;
     * a stored status other than 2xx ignores them all (RFC 9110 §13.2.1) and gives SERVE.
     */
    public static Outcome evaluate(HttpMethod method, HttpHeaders request, ObjectMetadata stored) {
        if (stored.status() / 100 != 2) {
            return Outcome.SERVE;
        }
        return Conditionals.evaluate(method, request, validators(stored));
    }

    /** True when an If-Range value lets a Range apply to the stored response ({@link Conditionals#ifRangeMatches}). */
    public static boolean ifRangeMatches(String ifRange, ObjectMetadata stored) {
        return Conditionals.ifRangeMatches(ifRange, validators(stored));
    }

    /**
     * Returns the fields to add to the origin request that revalidates the stored response
     * (RFC 9111 §4.3.1): If-None-Match with its ETag and If-Modified-Since with its Last-Modified,
     * each when present; empty when it has no validator.
     */
    public static HttpHeaders revalidationHeaders(ObjectMetadata stored) {
        HttpHeaders headers = new DefaultHttpHeaders();
        stored.etag().ifPresent(etag -> headers.set(HttpHeaderNames.IF_NONE_MATCH, etag));
        stored.lastModified().ifPresent(lm -> headers.set(HttpHeaderNames.IF_MODIFIED_SINCE, lm));
        return headers;
    }

    /**
     * True when the origin's 304 validates this stored response, so it may freshen it (RFC 9111
     * §4.3.4): its ETag, if any, matches the stored one (strongly when the 304's is strong, else
     * weakly); else its Last-Modified, if any, equals the stored one; a 304 without validators
     * matches only a stored response that has none either (neither ETag nor Last-Modified).
     */
    public static boolean notModifiedMatches(ObjectMetadata stored, HttpHeaders notModified) {
        String etag = notModified.get(HttpHeaderNames.ETAG);
        if (etag != null) {
            EntityTag fresh = EntityTag.parse(etag);
            EntityTag old = stored.etag().map(EntityTag::parse).orElse(null);
            if (fresh == null || old == null) {
                return false;
            }
            return fresh.weak() ? fresh.weakMatch(old) : fresh.strongMatch(old);
        }
        String lastModified = notModified.get(HttpHeaderNames.LAST_MODIFIED);
        if (lastModified != null) {
            OptionalLong fresh = HttpDates.parseMillis(lastModified);
            OptionalLong old = HttpDates.parseMillis(stored.lastModified().orElse(null));
            return fresh.isPresent() && old.isPresent() && fresh.getAsLong() == old.getAsLong();
        }
        return stored.etag().isEmpty() && stored.lastModified().isEmpty();
    }

    /**
     * The header fields of the response a 304 freshens, as a storage decision ({@link Storability})
     * must see them: the merged stored fields ({@link #mergeNotModified}) plus the 304's Set-Cookie
     * lines, which are never stored, but a response that sets a cookie is not kept.
     */
    public static HttpHeaders freshenedHeaders(List<HeaderField> merged, HttpHeaders notModified) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (HeaderField f : merged) {
            h.add(f.name(), f.value());
        }
        for (String cookie : notModified.getAll(HttpHeaderNames.SET_COOKIE)) {
            h.add(HttpHeaderNames.SET_COOKIE, cookie);
        }
        return h;
    }

    /**
     * Returns the stored headers updated from a 304 (RFC 9111 §3.2, §4.3.4): each field the 304 carries
     * replaces all stored lines of that name (in place of the first), new fields are appended, except
     * hop-by-hop fields, Content-Length, Content-Range, Content-Encoding and Set-Cookie. Because the
     * stored times are refreshed together with the headers, a stored Age or Date the 304 does not
     * repeat is dropped: they described the old response, and would otherwise age the refreshed one.
     */
    public static List<HeaderField> mergeNotModified(List<HeaderField> stored, HttpHeaders notModified) {
        Map<String, List<HeaderField>> updates = new LinkedHashMap<>();
        for (HeaderField field : HopByHop.storedHeaders(notModified)) {
            String name = field.name().toLowerCase(Locale.ROOT);
            if (!NOT_UPDATED.contains(name)) {
                updates.computeIfAbsent(name, k -> new ArrayList<>()).add(field);
            }
        }
        Set<String> dropped = new HashSet<>();
        if (!notModified.contains(HttpHeaderNames.AGE)) {
            dropped.add("age");
        }
        if (!notModified.contains(HttpHeaderNames.DATE)) {
            dropped.add("date");
        }
        List<HeaderField> merged = new ArrayList<>(stored.size() + updates.size());
        Set<String> written = new HashSet<>();
        for (HeaderField field : stored) {
            String name = field.name().toLowerCase(Locale.ROOT);
            List<HeaderField> replacement = updates.get(name);
            if (replacement != null) {
                if (written.add(name)) {
                    merged.addAll(replacement);
                }
            } else if (!dropped.contains(name)) {
                merged.add(field);
            }
        }
        updates.forEach((name, fields) -> {
            if (!written.contains(name)) {
                merged.addAll(fields);
            }
        });
        return merged;
    }
}
