package org.edgelab.units;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and formats byte quantities as users write them in flags and descriptors.
 *
 * <p>Accepted: a non-negative integer or decimal, optional spaces, and a unit. Decimal units
 * {@code B, KB, MB, GB, TB} are powers of 1000 (as the reports count sizes: "100 KB",
 * "50,000 KB"); binary units {@code KiB, MiB, GiB, TiB} and the single letters
 * {@code k, m, g, t} (as in {@code -Xmx512m}) are powers of 1024. Units are case-insensitive
 * except that {@code b} alone means bytes. A bare number is bytes. Anything else is rejected with
 * a message that shows the accepted forms. Stateless and thread-safe.
 */
public final class ByteSize {

    private static final Pattern FORM = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*");
    public static final String ACCEPTED =
            "a number with an optional unit: B, KB, MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB or k, m, g, t (powers of 1024)";

    private ByteSize() {
    }

    /** Parses {@code text}; throws IllegalArgumentException naming the text and the accepted forms. */
    public static long parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("missing byte size; expected " + ACCEPTED);
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a byte size; expected " + ACCEPTED);
        }
        double number = Double.parseDouble(m.group(1));
        long multiplier = multiplier(m.group(2), text);
        double bytes = number * multiplier;
        if (bytes > Long.MAX_VALUE) {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
        if (bytes != Math.rint(bytes)) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of bytes");
        }
        return (long) bytes;
    }

    private static long multiplier(String unit, String text) {
        switch (unit.toLowerCase(Locale.ROOT)) {
            case "":
            case "b":
                return 1L;
            case "kb":
                return 1000L;
            case "mb":
                return 1000L * 1000;
            case "gb":
                return 1000L * 1000 * 1000;
            case "tb":
                return 1000L * 1000 * 1000 * 1000;
            case "k":
            case "kib":
                return 1L << 10;
            case "m":
            case "mib":
                return 1L << 20;
            case "g":
            case "gib":
                return 1L << 30;
            case "t":
            case "tib":
                return 1L << 40;
            default:
                throw new IllegalArgumentException("'" + text + "' has an unknown unit '" + unit + "'; expected " + ACCEPTED);
        }
    }

    /** Formats {@code bytes} with a binary unit and up to one decimal, e.g. {@code 1.5 MiB}. */
    public static String format(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double value = bytes;
        int i = -1;
        while ((value >= 1024 || Math.round(value * 10) >= 10240) && i < units.length - 1) {
            value /= 1024;
            i++;
        }
        double rounded = Math.round(value * 10) / 10.0;
        return (rounded == Math.rint(rounded) ? String.valueOf((long) rounded) : String.format(Locale.ROOT, "%.1f", rounded))
                + " " + units[i];
    }
}
