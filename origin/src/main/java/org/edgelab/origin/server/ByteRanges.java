package org.edgelab.origin.server;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses an HTTP {@code Range} header (RFC 9110 section 14) against a representation length.
 * Stateless and thread-safe.
 */
public final class ByteRanges {

    /** Beyond this many ranges in one header the header is ignored and the whole object served. */
    public static final int MAX_RANGES = 64;

    private ByteRanges() {
    }

    /** An inclusive byte range {@code first..last} of a representation. */
    public record ByteRange(long first, long last) {
        /** Validates that the range is non-empty and not negative. */
        public ByteRange {
            if (first < 0 || last < first) {
                throw new IllegalArgumentException("bad byte range " + first + "-" + last);
            }
        }

        /** Number of bytes in the range. */
        public long length() {
            return last - first + 1;
        }

        /** The Content-Range value for this range of a {@code size}-byte representation. */
        public String contentRange(long size) {
            return "bytes " + first + "-" + last + "/" + size;
        }
    }

    /** The outcome of parsing: ignore the header, answer 416, or serve these satisfiable ranges (in request order). */
    public record Outcome(Kind kind, List<ByteRange> ranges) {
        /** What to do with the request. */
        public enum Kind { IGNORE, UNSATISFIABLE, SATISFIABLE }

        static final Outcome IGNORE = new Outcome(Kind.IGNORE, List.of());
        static final Outcome UNSATISFIABLE = new Outcome(Kind.UNSATISFIABLE, List.of());
    }

    /**
     * Parses {@code header} for a representation of {@code size} bytes: IGNORE if it is absent, not
     * in bytes, malformed or has more than {@link #MAX_RANGES} ranges; UNSATISFIABLE if no range
     * overlaps the representation; otherwise the satisfiable ranges, clipped to the representation.
     */
    public static Outcome parse(String header, long size) {
        if (header == null) {
            return Outcome.IGNORE;
        }
        String h = header.trim();
        int eq = h.indexOf('=');
        if (eq < 0 || !h.substring(0, eq).trim().equalsIgnoreCase("bytes")) {
            return Outcome.IGNORE;
        }
        String[] specs = h.substring(eq + 1).split(",", -1);
        if (specs.length > MAX_RANGES) {
            return Outcome.IGNORE;
        }
        List<ByteRange> satisfiable = new ArrayList<>(specs.length);
        boolean any = false;
        for (String raw : specs) {
            String spec = raw.trim();
            if (spec.isEmpty()) {
                continue; // RFC 9110 allows empty list elements
            }
            any = true;
            int dash = spec.indexOf('-');
            if (dash < 0) {
                return Outcome.IGNORE;
            }
            String a = spec.substring(0, dash).trim();
            String b = spec.substring(dash + 1).trim();
            if (a.isEmpty()) {
                // suffix-range: the last N bytes
                long suffix = digits(b);
                if (suffix < 0) {
                    return Outcome.IGNORE;
                }
                if (suffix > 0 && size > 0) {
                    satisfiable.add(new ByteRange(Math.max(0, size - suffix), size - 1));
                }
                continue;
            }
            long first = digits(a);
            if (first < 0) {
                return Outcome.IGNORE;
            }
            long last;
            if (b.isEmpty()) {
                last = Long.MAX_VALUE;
            } else {
                last = digits(b);
                if (last < 0 || last < first) {
                    return Outcome.IGNORE;
                }
            }
            if (first < size) {
                satisfiable.add(new ByteRange(first, Math.min(last, size - 1)));
            }
        }
        if (!any) {
            return Outcome.IGNORE;
        }
        return satisfiable.isEmpty() ? Outcome.UNSATISFIABLE : new Outcome(Outcome.Kind.SATISFIABLE, List.copyOf(satisfiable));
    }

    /** The non-negative decimal value of {@code s}, or -1 if it is not 1..18 ASCII digits. */
    private static long digits(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
