package org.edgelab.storage.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What an engine stores beside an object's body: the response status, the end-to-end headers
 * that matter to a cache (validators, caching directives, content type, Vary), the body length,
 * and the times that drive freshness.
 *
 * <p>Times are milliseconds since the epoch. {@code requestTimeMillis} and
 * {@code responseTimeMillis} are RFC 9111's request_time and response_time;
 * {@code expiresAtMillis} is the moment the object stops being fresh as computed by the cache
 * when it was stored ({@link #NEVER} when it has no lifetime), which engines may use to drop
 * expired objects first. {@code length} is {@link #UNKNOWN_LENGTH} while it is not yet known
 * (a chunked origin response still being written); a committed object always knows its length.
 * Immutable and thread-safe.
 */
public record ObjectMetadata(
        int status,
        List<HeaderField> headers,
        long length,
        long requestTimeMillis,
        long responseTimeMillis,
        long expiresAtMillis) {

    /** {@link #length()} of an object whose length is not known yet. */
    public static final long UNKNOWN_LENGTH = -1;
    /** {@link #expiresAtMillis()} of an object that never becomes stale by itself. */
    public static final long NEVER = Long.MAX_VALUE;

    public ObjectMetadata {
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("status must be a 3-digit HTTP status, got " + status);
        }
        headers = List.copyOf(Objects.requireNonNull(headers, "headers"));
        if (length < UNKNOWN_LENGTH) {
            throw new IllegalArgumentException("length must be >= 0 or UNKNOWN_LENGTH, got " + length);
        }
    }

    /** Returns the first value of the named header (case-insensitive), if present. */
    public Optional<String> header(String name) {
        for (HeaderField h : headers) {
            if (h.name().equalsIgnoreCase(name)) {
                return Optional.of(h.value());
            }
        }
        return Optional.empty();
    }

    /** Returns every value of the named header (case-insensitive), in order. */
    public List<String> headers(String name) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(HeaderField::value).toList();
    }

    /** Returns the strong or weak entity tag, if the response carried one. */
    public Optional<String> etag() {
        return header("ETag");
    }

    /** Returns the Last-Modified header value, if the response carried one. */
    public Optional<String> lastModified() {
        return header("Last-Modified");
    }

    /** Returns a copy with the given length. */
    public ObjectMetadata withLength(long newLength) {
        return new ObjectMetadata(status, headers, newLength, requestTimeMillis, responseTimeMillis, expiresAtMillis);
    }

    /** Returns a copy with the given headers and times, as after a successful revalidation. */
    public ObjectMetadata refreshed(List<HeaderField> newHeaders, long newRequestTime, long newResponseTime,
                                    long newExpiresAt) {
        return new ObjectMetadata(status, newHeaders, length, newRequestTime, newResponseTime, newExpiresAt);
    }
}
