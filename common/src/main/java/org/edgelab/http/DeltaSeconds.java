package org.edgelab.http;

import java.util.List;
import java.util.OptionalLong;

/**
 * Parses delta-seconds (RFC 9111 §1.2.2: {@code 1*DIGIT}, a value too large to represent read as
 * 2^31) and the Age field built on it (RFC 9111 §5.1). Stateless and thread-safe.
 */
public final class DeltaSeconds {

    /** The value a delta-seconds too large to represent is read as (RFC 9111 §1.2.2: 2^31). */
    public static final long MAX = 2_147_483_648L;

    private DeltaSeconds() {
    }

    /**
     * Parses one delta-seconds value (surrounding whitespace allowed), clamped to {@link #MAX};
     * empty when null, empty or anything but digits (a sign, a fraction, an exponent).
     */
    public static OptionalLong parse(String value) {
        if (value == null) {
            return OptionalLong.empty();
        }
        String s = value.strip();
        if (s.isEmpty()) {
            return OptionalLong.empty();
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return OptionalLong.empty();
            }
            v = Math.min(MAX, v * 10 + (c - '0'));
        }
        return OptionalLong.of(v);
    }

    /**
     * The Age of a message from its Age field lines, in seconds, as RFC 9111 §5.1 has a cache read
     * it: the lines form one list, of which the first member is used and the others discarded; a
     * first member that is not a non-negative integer makes the whole field ignored (empty), as
     * does an absent field.
     */
    public static OptionalLong age(List<String> fieldLines) {
        if (fieldLines == null || fieldLines.isEmpty() || fieldLines.get(0) == null) {
            return OptionalLong.empty();
        }
        String first = fieldLines.get(0);
        int comma = first.indexOf(',');
        return parse(comma < 0 ? first : first.substring(0, comma));
    }
}
