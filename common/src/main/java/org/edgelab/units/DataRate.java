package org.edgelab.units;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A data rate as users write it in flags, descriptors and URLs, in bits or in bytes per second: the one
 * parser every rate option and field uses, so {@code 1Gbit/s} and {@code 125MB/s} mean the same everywhere.
 *
 * <p>Accepted: a non-negative number, optional spaces, and a rate unit.
 * <ul>
 *   <li>Bits: {@code bit/s}, {@code kbit/s}, {@code Mbit/s}, {@code Gbit/s}, {@code Tbit/s} (powers of 1000,
 *   prefix case-insensitive; {@code Kibit/s}, {@code Mibit/s}, {@code Gibit/s} are powers of 1024); the
 *   {@code /s} may be left out ({@code 1gbit}, as {@code tc} writes it) or written {@code ps} in lower case
 *   ({@code 100mbps}).</li>
 *   <li>Bytes: a {@link ByteSize} unit with a capital {@code B} and {@code /s}: {@code B/s}, {@code KB/s},
 *   {@code MB/s}, {@code GB/s} (powers of 1000), {@code KiB/s}, {@code MiB/s}, {@code GiB/s} (powers of 1024).
 *   A {@link ByteSize} without {@code /s} ({@code 70MB}, {@code 10MiB}) is read as per second too, the form
 *   older descriptors and flags use.</li>
 *   <li>{@code 0} alone: no rate (unlimited, where an option allows it).</li>
 * </ul>
 * A lower-case {@code b} before {@code /s} ({@code kb/s}) is refused as ambiguous, as is a bare number other
 * than 0. Immutable and thread-safe.
 *
 * @param bitsPerSecond the rate in bits per second, >= 0
 */
public record DataRate(long bitsPerSecond) {
    /** No rate. */
    public static final DataRate ZERO = new DataRate(0);

    /** The accepted forms, for messages. */
    public static final String ACCEPTED = "a number with a rate unit: bits as bit/s, kbit/s, Mbit/s, Gbit/s (also 1gbit, 100mbps),"
            + " bytes as B/s, KB/s, MB/s, GB/s (powers of 1000) or KiB/s, MiB/s, GiB/s (powers of 1024), e.g. 1Gbit/s or 70MB/s";

    private static final Pattern FORM = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*(/\\s*s)?\\s*");

    /** Validates: the rate is not negative. */
    public DataRate {
        if (bitsPerSecond < 0) {
            throw new IllegalArgumentException("a data rate must be >= 0 bit/s, got " + bitsPerSecond);
        }
    }

    /** A rate of {@code bytes} bytes per second. */
    public static DataRate ofBytesPerSecond(long bytes) {
        if (bytes > Long.MAX_VALUE / 8) {
            throw new IllegalArgumentException(bytes + " bytes per second is too large");
        }
        return new DataRate(bytes * 8);
    }

    /** Parses {@code text}; throws IllegalArgumentException naming the text and the accepted forms. */
    public static DataRate parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("missing data rate; expected " + ACCEPTED);
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a data rate; expected " + ACCEPTED);
        }
        String number = m.group(1);
        String unit = m.group(2);
        boolean perSecond = m.group(3) != null;
        double value = Double.parseDouble(number);
        if (unit.isEmpty()) {
            if (value == 0 && !perSecond) {
                return ZERO;
            }
            throw new IllegalArgumentException("'" + text + "' has no unit; a rate needs one: " + ACCEPTED);
        }
        double bits;
        String lower = unit.toLowerCase(Locale.ROOT);
        if (lower.endsWith("bit")) {
            bits = value * prefix(unit.substring(0, unit.length() - 3), text);
        } else if (unit.endsWith("bps") && !perSecond) {
            bits = value * prefix(unit.substring(0, unit.length() - 3), text);
        } else if (!perSecond) {
            bits = 8.0 * olderForm(number, unit, text);
        } else if (unit.endsWith("B")) {
            bits = 8 * value * prefix(unit.substring(0, unit.length() - 1), text);
        } else if (lower.endsWith("b")) {
            String p = unit.substring(0, unit.length() - 1);
            throw new IllegalArgumentException("'" + text + "' is ambiguous: write " + number + p + "bit/s for bits or "
                    + number + p + "B/s for bytes");
        } else {
            throw new IllegalArgumentException("'" + text + "' has an unknown rate unit '" + unit + "/s'; expected " + ACCEPTED);
        }
        if (bits > Long.MAX_VALUE) {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
        if (bits != Math.rint(bits)) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of bits per second");
        }
        return new DataRate((long) bits);
    }

    /** A byte size meaning bytes per second (the form older descriptors and flags use). */
    private static long olderForm(String number, String unit, String text) {
        try {
            return ByteSize.parse(number + unit);
        } catch (IllegalArgumentException e) {
            if (e.getMessage().contains("unknown unit")) {
                throw new IllegalArgumentException("'" + text + "' has an unknown unit '" + unit + "'; expected " + ACCEPTED, e);
            }
            throw new IllegalArgumentException("'" + text + "' is not a data rate: " + e.getMessage(), e);
        }
    }

    /** The multiplier of a decimal (k, M, G, T) or binary (Ki, Mi, Gi, Ti) prefix, case-insensitive. */
    private static long prefix(String prefix, String text) {
        switch (prefix.toLowerCase(Locale.ROOT)) {
            case "": return 1L;
            case "k": return 1000L;
            case "m": return 1000_000L;
            case "g": return 1000_000_000L;
            case "t": return 1000_000_000_000L;
            case "ki": return 1L << 10;
            case "mi": return 1L << 20;
            case "gi": return 1L << 30;
            case "ti": return 1L << 40;
            default:
                throw new IllegalArgumentException("'" + text + "' has an unknown prefix '" + prefix + "'; expected " + ACCEPTED);
        }
    }

    /** True for the zero rate. */
    public boolean isZero() {
        return bitsPerSecond == 0;
    }

    /** The rate in bytes per second (a fraction when the bits are not a multiple of 8). */
    public double bytesPerSecond() {
        return bitsPerSecond / 8.0;
    }

    /** Whole bytes per second, rounded down. */
    public long wholeBytesPerSecond() {
        return bitsPerSecond / 8;
    }

    /** Formats in bits with a decimal prefix and up to three significant decimals, e.g. {@code 1 Gbit/s}, {@code 4.53 Gbit/s}. */
    public String formatBits() {
        return format(bitsPerSecond, "bit/s");
    }

    /** Formats in bytes with a decimal prefix, e.g. {@code 70 MB/s}. */
    public String formatBytes() {
        return format(bytesPerSecond(), "B/s");
    }

    private static String format(double value, String unit) {
        String[] prefixes = {"", "k", "M", "G", "T", "P"};
        int i = 0;
        while (value >= 1000 && i < prefixes.length - 1) {
            value /= 1000;
            i++;
        }
        String number = String.format(Locale.ROOT, "%.3f", value).replaceAll("\\.?0+$", "");
        return number + " " + prefixes[i] + unit;
    }

    /** The bits form, {@link #formatBits()}. */
    @Override
    public String toString() {
        return formatBits();
    }
}
