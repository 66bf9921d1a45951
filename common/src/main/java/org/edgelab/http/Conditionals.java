package org.edgelab.cache.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Conditional requests against a stored response (RFC 9110 §13, RFC 9111 §4.3): answering a
 * client's preconditions from cache, validating with the origin, and folding the origin's 304
 * into the stored headers.
 *
 * <p>{@link #evaluate} follows the order of RFC 9110 §13.2.2: If-Match (strong comparison, else
 * 412), If-Unmodified-Since when there is no If-Match (412 when the stored Last-Modified is later;
 * ignored without a Last-Modified or a valid date), If-None-Match (weak comparison, {@code *}
 * matches the stored response; a match gives 304 for GET/HEAD and 412 otherwise), and only when
 * If-None-Match is absent, If-Modified-Since (GET/HEAD only; ignored when invalid or repeated;
 * compared with Last-Modified, else Date, else the response time, RFC 9111 §4.3.2). Range and
 * If-Range are the caller's, through {@link #ifRangeMatches}. Stateless and thread-safe.
 */
public final class Conditionals {

    /** What to answer after evaluating a request's preconditions against a stored response. */
    public enum Outcome {
        /** Serve the stored response (or its ranges) normally. */
        SERVE,
        /** Answer 304 Not Modified (with the stored validators and caching fields, no body). */
        NOT_MODIFIED,
        /** Answer 412 Precondition Failed (an If-Match or If-Unmodified-Since failed). */
        PRECONDITION_FAILED
    }

    /** Fields a 304 never updates in the stored response, beyond those {@link HopByHop#storedHeaders} drops. */
    private static final Set<String> NOT_UPDATED = Set.of("content-encoding");

    private Conditionals() {
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
        Optional<EntityTag> storedTag = stored.etag().map(EntityTag::parse);
        String ifMatch = joined(request, HttpHeaderNames.IF_MATCH);
        if (ifMatch != null) {
            List<EntityTag> tags = new ArrayList<>();
            boolean any = EntityTag.parseList(ifMatch, tags);
            boolean matched = any || (storedTag.isPresent()
                    && tags.stream().anyMatch(t -> t.strongMatch(storedTag.get())));
            if (!matched) {
                return Outcome.PRECONDITION_FAILED;
            }
        } else {
            OptionalLong since = singleDate(request, HttpHeaderNames.IF_UNMODIFIED_SINCE);
            OptionalLong lastModified = HttpDates.parseMillis(stored.lastModified().orElse(null));
            if (since.isPresent() && lastModified.isPresent() && lastModified.getAsLong() > since.getAsLong()) {
                return Outcome.PRECONDITION_FAILED;
            }
        }
        boolean getOrHead = HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
        String ifNoneMatch = joined(request, HttpHeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch != null) {
            List<EntityTag> tags = new ArrayList<>();
            boolean any = EntityTag.parseList(ifNoneMatch, tags);
            boolean matched = any || (storedTag.isPresent()
                    && tags.stream().anyMatch(t -> t.weakMatch(storedTag.get())));
            if (!matched) {
                return Outcome.SERVE;
            }
            return getOrHead ? Outcome.NOT_MODIFIED : Outcome.PRECONDITION_FAILED;
        }
        if (getOrHead) {
            OptionalLong since = singleDate(request, HttpHeaderNames.IF_MODIFIED_SINCE);
            if (since.isPresent() && modificationTime(stored) <= since.getAsLong()) {
                return Outcome.NOT_MODIFIED;
            }
        }
        return Outcome.SERVE;
    }

    /**
     * True when an If-Range value lets a Range apply to the stored response (RFC 9110 §13.1.5): an
     * entity tag must strongly match the stored ETag (weak tags never match); a date must equal the
     * stored Last-Modified, and that must be a strong validator (at least one second before Date).
     * A null If-Range (field absent) matches; an invalid one does not.
     */
    public static boolean ifRangeMatches(String ifRange, ObjectMetadata stored) {
        if (ifRange == null) {
            return true;
        }
        String value = ifRange.trim();
        if (value.startsWith("\"") || value.startsWith("W/") || value.startsWith("w/")) {
            EntityTag tag = EntityTag.parse(value);
            EntityTag storedTag = stored.etag().map(EntityTag::parse).orElse(null);
            return tag != null && storedTag != null && tag.strongMatch(storedTag);
        }
        OptionalLong date = HttpDates.parseMillis(value);
        OptionalLong lastModified = HttpDates.parseMillis(stored.lastModified().orElse(null));
        OptionalLong responseDate = HttpDates.parseMillis(stored.header("Date").orElse(null));
        return date.isPresent() && lastModified.isPresent() && responseDate.isPresent()
                && date.getAsLong() == lastModified.getAsLong()
                && responseDate.getAsLong() - lastModified.getAsLong() >= 1000;
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
     * True when the origin's 304 is about this stored response (RFC 9111 §4.3.4): its ETag, if any,
     * matches the stored one (strongly when the 304's is strong, else weakly); else its Last-Modified,
     * if any, equals the stored one; a 304 without validators answers our own conditional request
     * and matches.
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
        return true;
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

    private static long modificationTime(ObjectMetadata stored) {
        OptionalLong lastModified = HttpDates.parseMillis(stored.lastModified().orElse(null));
        if (lastModified.isPresent()) {
            return lastModified.getAsLong();
        }
        return HttpDates.parseMillis(stored.header("Date").orElse(null)).orElse(stored.responseTimeMillis());
    }

    /** All lines of a list-valued field joined with ", ", or null when absent. */
    private static String joined(HttpHeaders request, CharSequence name) {
        List<String> values = request.getAll(name);
        return values.isEmpty() ? null : String.join(", ", values);
    }

    /** A date field's value when it appears exactly once and is a valid HTTP-date. */
    private static OptionalLong singleDate(HttpHeaders request, CharSequence name) {
        List<String> values = request.getAll(name);
        return values.size() == 1 ? HttpDates.parseMillis(values.get(0)) : OptionalLong.empty();
    }
}
