package org.edgelab.loadgen;

import java.time.Duration;
import java.util.Locale;

/**
 * A link to emulate per connection in user space: a bandwidth cap on what the client reads and an added
 * one-way latency on each direction. {@link #NONE} emulates nothing.
 *
 * @param bitsPerSecond download bandwidth cap per connection in bits/s, 0 for none
 * @param oneWayLatency delay added to every request on its way out and every response byte on its way in
 */
public record LinkEmulation(long bitsPerSecond, Duration oneWayLatency) {
    /** No emulation. */
    public static final LinkEmulation NONE = new LinkEmulation(0, Duration.ZERO);

    /** Validates: bandwidth >= 0, latency present and >= 0. */
    public LinkEmulation {
        if (bitsPerSecond < 0) {
            throw new IllegalArgumentException("link bandwidth must be >= 0 bits/s, got " + bitsPerSecond);
        }
        if (oneWayLatency == null || oneWayLatency.isNegative()) {
            throw new IllegalArgumentException("link latency must be >= 0, got " + oneWayLatency);
        }
    }

    /** True when neither a cap nor a latency is set. */
    public boolean isNone() {
        return bitsPerSecond == 0 && oneWayLatency.isZero();
    }

    /**
     * Parses a bandwidth such as "1gbit", "10Gbit", "100mbit", "500kbit" or a bare number of bits/s.
     */
    public static long parseBitsPerSecond(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        if (t.endsWith("gbit")) {
            mult = 1_000_000_000L;
            t = t.substring(0, t.length() - 4);
        } else if (t.endsWith("mbit")) {
            mult = 1_000_000L;
            t = t.substring(0, t.length() - 4);
        } else if (t.endsWith("kbit")) {
            mult = 1_000L;
            t = t.substring(0, t.length() - 4);
        } else if (t.endsWith("bit")) {
            t = t.substring(0, t.length() - 3);
        }
        try {
            return Math.round(Double.parseDouble(t.trim()) * mult);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a bandwidth; expected e.g. 1gbit, 10gbit, 100mbit");
        }
    }

    /** How the emulation is done, for result files. */
    public String describe() {
        if (isNone()) {
            return "none";
        }
        return String.format(Locale.ROOT, "user-space emulation: %s per connection, +%d ms one-way latency",
                bitsPerSecond == 0 ? "unlimited" : String.format(Locale.ROOT, "%.3f Gbit/s", bitsPerSecond / 1e9),
                oneWayLatency.toMillis());
    }
}
