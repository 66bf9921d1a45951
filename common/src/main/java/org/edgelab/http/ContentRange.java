package org.edgelab.http;

import java.util.Optional;

/**
 * The range a 206 response says it carries, from its {@code Content-Range: bytes FIRST-LAST/LENGTH}
 * (RFC 9110 §14.4; the unit is case-insensitive, the complete length may be {@code *}). Immutable and
 * thread-safe.
 *
 * @param first          offset of the first byte sent
 * @param last           offset of the last byte sent (inclusive, at least {@code first})
 * @param completeLength the representation's length, or -1 when the server sent {@code *}
 */
public record ContentRange(long first, long last, long completeLength) {

    /** Checks {@code 0 <= first <= last}. */
    public ContentRange {
        if (first < 0 || last < first) {
            throw new IllegalArgumentException("a content range needs 0 <= first <= last, got " + first + "-" + last);
        }
    }

    /**
     * Parses a Content-Range field value of a 206; empty when it is missing, malformed, has last before
     * first, or is the {@code bytes *}{@code /LENGTH} of a 416.
     */
    public static Optional<ContentRange> parse(String value) {
        if (value == null || !value.regionMatches(true, 0, "bytes ", 0, 6)) {
            return Optional.empty();
        }
        int dash = value.indexOf('-', 6);
        int slash = value.indexOf('/', dash + 1);
        if (dash < 0 || slash < 0) {
            return Optional.empty();
        }
        try {
            long first = Long.parseLong(value, 6, dash, 10);
            long last = Long.parseLong(value, dash + 1, slash, 10);
            String total = value.substring(slash + 1).trim();
            long length = total.equals("*") ? -1 : Long.parseLong(total);
            return first < 0 || last < first ? Optional.empty() : Optional.of(new ContentRange(first, last, length));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The number of bytes in the range. */
    public long length() {
        return last - first + 1;
    }
}
