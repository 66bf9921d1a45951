package org.edgelab.http;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Parses a Range header against a representation of known length (RFC 9110 §14.1-§14.2).
 *
 * <p>The result is one of: {@link None} (serve the whole representation with 200: no Range, a unit
 * other than {@code bytes}, a syntax error, a range with last before first, more range-specs than
 * the cap, or an empty representation); {@link Satisfiable} (206 with the ranges to send); or
 * {@link Unsatisfiable} (416 with {@code Content-Range: bytes *}{@code /length}). Each satisfiable range
 * is clipped to the length. If no two ranges overlap or touch, they keep the requested order;
 * otherwise all are sorted and overlapping or adjacent ones coalesced (RFC 9110 §14.2 allows it),
 * which defuses the overlapping-range amplification of §17.15. Stateless and thread-safe.
 */
public final class ByteRanges {

    private ByteRanges() {
    }

    /** The outcome of parsing a Range header. */
    public sealed interface RangeRequest permits None, Satisfiable, Unsatisfiable {
    }

    /** No usable Range: serve the whole representation with 200. */
    public record None() implements RangeRequest {
    }

    /**
     * Serve these ranges with 206: one as a single part with Content-Range, several as
     * multipart/byteranges ({@link MultipartByteranges}).
     *
     * @param ranges at least one range, each within the representation
     */
    public record Satisfiable(List<ByteRange> ranges) implements RangeRequest {
        public Satisfiable {
            ranges = List.copyOf(ranges);
            if (ranges.isEmpty()) {
                throw new IllegalArgumentException("a satisfiable range request has at least one range");
            }
        }

        /** True when there is more than one range (multipart/byteranges). */
        public boolean multipart() {
            return ranges.size() > 1;
        }
    }

    /**
     * Answer 416 with {@link #contentRange()}.
     *
     * @param length the representation's length
     */
    public record Unsatisfiable(long length) implements RangeRequest {
        /** The Content-Range value of the 416, {@code bytes *}{@code /length}. */
        public String contentRange() {
            return "bytes */" + length;
        }
    }

    /**
     * One inclusive byte range within a representation.
     *
     * @param first offset of the first byte
     * @param last  offset of the last byte (inclusive)
     */
    public record ByteRange(long first, long last) {
        public ByteRange {
            if (first < 0 || last < first) {
                throw new IllegalArgumentException("a byte range needs 0 <= first <= last, got " + first + "-" + last);
            }
        }

        /** The number of bytes in the range. */
        public long length() {
            return last - first + 1;
        }

        /** The Content-Range value for this range of a representation of {@code total} bytes, e.g. {@code bytes 0-499/1234}. */
        public String contentRange(long total) {
            return "bytes " + first + "-" + last + "/" + total;
        }
    }

    /** Empty list elements tolerated in a range-set before it counts as a syntax error (RFC 9110 §5.6.1). */
    private static final int MAX_EMPTY_ELEMENTS = 16;

    /**
     * Parses a Range header for a representation of {@code length} bytes, ignoring it (None) when it
     * has more than {@code maxRanges} range-specs.
     */
    public static RangeRequest parse(String rangeHeader, long length, int maxRanges) {
        if (length < 0) {
            throw new IllegalArgumentException("the representation's length must be known, got " + length);
        }
        if (rangeHeader == null) {
            return new None();
        }
        String value = rangeHeader.trim();
        int eq = value.indexOf('=');
        if (eq < 0 || !value.substring(0, eq).trim().toLowerCase(Locale.ROOT).equals("bytes")) {
            return new None();
        }
        List<ByteRange> satisfiable = new ArrayList<>();
        int specs = 0;
        int empties = 0;
        boolean suffixOnEmpty = false;
        for (String element : value.substring(eq + 1).split(",", -1)) {
            String spec = element.trim();
            if (spec.isEmpty()) {
                if (++empties > MAX_EMPTY_ELEMENTS) {
                    return new None();
                }
                continue;
            }
            if (++specs > maxRanges) {
                return new None();
            }
            int dash = spec.indexOf('-');
            if (dash < 0) {
                return new None();
            }
            String firstText = spec.substring(0, dash).trim();
            String lastText = spec.substring(dash + 1).trim();
            if (firstText.isEmpty()) {
                long suffix = digits(lastText);
                if (suffix < 0) {
                    return new None();
                }
                if (suffix > 0 && length > 0) {
                    satisfiable.add(new ByteRange(Math.max(0, length - suffix), length - 1));
                } else if (suffix > 0) {
                    suffixOnEmpty = true;
                }
            } else {
                long first = digits(firstText);
                long last = lastText.isEmpty() ? Long.MAX_VALUE : digits(lastText);
                if (first < 0 || last < 0 || last < first) {
                    return new None();
                }
                if (first < length) {
                    satisfiable.add(new ByteRange(first, Math.min(last, length - 1)));
                }
            }
        }
        if (specs == 0) {
            return new None();
        }
        if (satisfiable.isEmpty()) {
            return suffixOnEmpty ? new None() : new Unsatisfiable(length);
        }
        return new Satisfiable(coalesceIfOverlapping(satisfiable));
    }

    /** Keeps the requested order unless two ranges overlap or touch; then sorts and merges them. */
    private static List<ByteRange> coalesceIfOverlapping(List<ByteRange> ranges) {
        if (ranges.size() < 2) {
            return ranges;
        }
        List<ByteRange> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(ByteRange::first).thenComparingLong(ByteRange::last));
        boolean touching = false;
        for (int i = 1; i < sorted.size() && !touching; i++) {
            touching = sorted.get(i).first() <= sorted.get(i - 1).last() + 1;
        }
        if (!touching) {
            return ranges;
        }
        List<ByteRange> merged = new ArrayList<>();
        ByteRange current = sorted.get(0);
        for (int i = 1; i < sorted.size(); i++) {
            ByteRange next = sorted.get(i);
            if (next.first() <= current.last() + 1) {
                current = new ByteRange(current.first(), Math.max(current.last(), next.last()));
            } else {
                merged.add(current);
                current = next;
            }
        }
        merged.add(current);
        return merged;
    }

    /** Parses 1*DIGIT, saturating at Long.MAX_VALUE; -1 when empty or not all digits. */
    private static long digits(String s) {
        if (s.isEmpty()) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value > (Long.MAX_VALUE - 9) / 10 ? Long.MAX_VALUE : value * 10 + (c - '0');
        }
        return value;
    }
}
