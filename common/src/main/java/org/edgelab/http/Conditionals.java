package org.edgelab.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Preconditions of a request against the selected representation's {@link Validators} (RFC 9110 §13),
 * the same for an origin server and for a cache answering from a stored response.
 *
 * <p>{@link #evaluate} follows the order of RFC 9110 §13.2.2: If-Match (strong comparison, else
 * 412), If-Unmodified-Since when there is no If-Match (412 when Last-Modified is later; ignored
 * without a Last-Modified or a valid date), If-None-Match (weak comparison, {@code *} matches any
 * representation; a match gives 304 for GET/HEAD and 412 otherwise), and only when If-None-Match is
 * absent, If-Modified-Since (GET/HEAD only; ignored when invalid or repeated; compared with
 * {@link Validators#modified()}). Entity-tag lists are read as {@link EntityTag} reads them. A server
 * applies them only where its response would otherwise be 2xx (§13.2.1); that is the caller's check,
 * as are Range and If-Range, through {@link #ifRangeMatches}. Stateless and thread-safe.
 */
public final class Conditionals {

    /** What to answer after evaluating a request's preconditions. */
    public enum Outcome {
        /** Serve the representation (or its ranges) normally. */
        SERVE,
        /** Answer 304 Not Modified (with the validators and caching fields, no body). */
        NOT_MODIFIED,
        /** Answer 412 Precondition Failed (an If-Match or If-Unmodified-Since failed). */
        PRECONDITION_FAILED
    }

    /**
     * The validators of a selected representation that preconditions compare with (RFC 9110 §8.8).
     * Immutable and thread-safe.
     *
     * @param etag         its ETag field value as sent (e.g. {@code "1f3a"} or {@code W/"1f3a"}), or null
     * @param lastModified its Last-Modified in epoch milliseconds, or empty
     * @param date         the Date of the response carrying it, or empty: for If-Range a Last-Modified is
     *                     a strong validator only when at least one second before it (§8.8.2.2)
     * @param modified     what If-Modified-Since compares with: an origin server's Last-Modified; a cache
     *                     falls back to Date, then to the time it received the response (RFC 9111 §4.3.2);
     *                     empty ignores If-Modified-Since
     */
    public record Validators(String etag, OptionalLong lastModified, OptionalLong date, OptionalLong modified) {

        /** Checks that no component is null (the entity tag may be). */
        public Validators {
            if (lastModified == null || date == null || modified == null) {
                throw new IllegalArgumentException("use OptionalLong.empty(), not null, for an absent date");
            }
        }

        /** The validators an origin server sends: its entity tag, its Last-Modified, and the Date of the response. */
        public static Validators of(String etag, long lastModifiedMillis, long dateMillis) {
            return new Validators(etag, OptionalLong.of(lastModifiedMillis), OptionalLong.of(dateMillis),
                    OptionalLong.of(lastModifiedMillis));
        }
    }

    private Conditionals() {
    }

    /** Evaluates the preconditions of a GET request against the selected representation. */
    public static Outcome evaluate(HttpHeaders request, Validators selected) {
        return evaluate(HttpMethod.GET, request, selected);
    }

    /** Evaluates the preconditions of a request with this method against the selected representation. */
    public static Outcome evaluate(HttpMethod method, HttpHeaders request, Validators selected) {
        EntityTag etag = EntityTag.parse(selected.etag());
        String ifMatch = joined(request, HttpHeaderNames.IF_MATCH);
        if (ifMatch != null) {
            List<EntityTag> tags = new ArrayList<>();
            boolean any = EntityTag.parseList(ifMatch, tags);
            boolean matched = any || (etag != null && tags.stream().anyMatch(t -> t.strongMatch(etag)));
            if (!matched) {
                return Outcome.PRECONDITION_FAILED;
            }
        } else {
            OptionalLong since = singleDate(request, HttpHeaderNames.IF_UNMODIFIED_SINCE);
            OptionalLong lastModified = selected.lastModified();
            if (since.isPresent() && lastModified.isPresent() && lastModified.getAsLong() > since.getAsLong()) {
                return Outcome.PRECONDITION_FAILED;
            }
        }
        boolean getOrHead = HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
        String ifNoneMatch = joined(request, HttpHeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch != null) {
            List<EntityTag> tags = new ArrayList<>();
            boolean any = EntityTag.parseList(ifNoneMatch, tags);
            boolean matched = any || (etag != null && tags.stream().anyMatch(t -> t.weakMatch(etag)));
            if (!matched) {
                return Outcome.SERVE;
            }
            return getOrHead ? Outcome.NOT_MODIFIED : Outcome.PRECONDITION_FAILED;
        }
        if (getOrHead) {
            OptionalLong since = singleDate(request, HttpHeaderNames.IF_MODIFIED_SINCE);
            OptionalLong modified = selected.modified();
            if (since.isPresent() && modified.isPresent() && modified.getAsLong() <= since.getAsLong()) {
                return Outcome.NOT_MODIFIED;
            }
        }
        return Outcome.SERVE;
    }

    /**
     * True when an If-Range value lets a Range apply to the selected representation (RFC 9110 §13.1.5):
     * an entity tag must strongly match its ETag (weak tags never match); a date must equal its
     * Last-Modified, and that must be a strong validator (at least one second before Date). A null
     * If-Range (field absent) matches; an invalid one does not.
     */
    public static boolean ifRangeMatches(String ifRange, Validators selected) {
        if (ifRange == null) {
            return true;
        }
        String value = ifRange.trim();
        if (value.startsWith("\"") || value.startsWith("W/") || value.startsWith("w/")) {
            EntityTag tag = EntityTag.parse(value);
            EntityTag etag = EntityTag.parse(selected.etag());
            return tag != null && etag != null && tag.strongMatch(etag);
        }
        OptionalLong date = HttpDates.parseMillis(value);
        OptionalLong lastModified = selected.lastModified();
        OptionalLong responseDate = selected.date();
        return date.isPresent() && lastModified.isPresent() && responseDate.isPresent()
                && date.getAsLong() == lastModified.getAsLong()
                && responseDate.getAsLong() - lastModified.getAsLong() >= 1000;
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
