package org.edgelab.units;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and formats durations as users write them in flags and descriptors: a non-negative
 * number and a unit {@code ns, us, ms, s, m, h} ({@code 200ms}, {@code 1.5s}, {@code 10m}), or an
 * ISO-8601 duration ({@code PT30S}). A bare number is rejected, the unit is never guessed, except {@code 0}, which
 * needs none (as {@link ByteSize} and {@link DataRate} take it).
 * Stateless and thread-safe.
 */
public final class Durations {

    private static final Pattern FORM = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Z]+)\\s*");
    public static final String ACCEPTED = "a number with a unit: ns, us, ms, s, m or h (e.g. 200ms, 1.5s, 10m)";

    private Durations() {
    }

    /** Parses {@code text}; throws IllegalArgumentException naming the text and the accepted forms. */
    public static Duration parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("missing duration; expected " + ACCEPTED);
        }
        if (text.trim().equals("0")) {
            return Duration.ZERO;
        }
        if (text.trim().toUpperCase(Locale.ROOT).startsWith("PT")) {
            try {
                return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("'" + text + "' is not a duration; expected " + ACCEPTED, e);
            }
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration; expected " + ACCEPTED);
        }
        double value = Double.parseDouble(m.group(1));
        double nanosPerUnit;
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "ns": nanosPerUnit = 1; break;
            case "us": nanosPerUnit = 1e3; break;
            case "ms": nanosPerUnit = 1e6; break;
            case "s": nanosPerUnit = 1e9; break;
            case "m": case "min": nanosPerUnit = 60e9; break;
            case "h": nanosPerUnit = 3600e9; break;
            default:
                throw new IllegalArgumentException("'" + text + "' has an unknown unit '" + m.group(2) + "'; expected " + ACCEPTED);
        }
        double nanos = value * nanosPerUnit;
        if (nanos > Long.MAX_VALUE) {
            throw new IllegalArgumentException("'" + text + "' is too long");
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    /** Formats {@code d} compactly with the largest unit that keeps it readable, e.g. {@code 1.5s}, {@code 200ms}. */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos >= 3_600_000_000_000L && nanos % 3_600_000_000_000L == 0) {
            return nanos / 3_600_000_000_000L + "h";
        }
        if (nanos >= 60_000_000_000L && nanos % 60_000_000_000L == 0) {
            return nanos / 60_000_000_000L + "m";
        }
        if (nanos >= 1_000_000_000L) {
            return trim(nanos / 1e9) + "s";
        }
        if (nanos >= 1_000_000L) {
            return trim(nanos / 1e6) + "ms";
        }
        if (nanos >= 1_000L) {
            return trim(nanos / 1e3) + "us";
        }
        return nanos + "ns";
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
    }
}
