package org.edgelab.analysis.report;

import java.util.Locale;

import org.edgelab.units.ByteSize;

/**
 * Figures as a person reads them in the report: object sizes in the unit they were chosen in ({@code 100 KB},
 * {@code 8 MiB}), rates with thousands separators, latencies and ratios with three significant digits.
 *
 * <p>Thread-safety: stateless.
 */
public final class HumanUnits {
    private static final String[] DECIMAL = {"B", "KB", "MB", "GB", "TB"};

    private HumanUnits() {
    }

    /**
     * A size in bytes: in powers of 1000 when it is a whole number of them ({@code 100000} is {@code 100 KB}), else in
     * powers of 1024 ({@code 8388608} is {@code 8 MiB}); {@code 0} is {@code 0 B}.
     */
    public static String size(long bytes) {
        if (bytes <= 0) {
            return bytes + " B";
        }
        long value = bytes;
        int unit = 0;
        while (value % 1000 == 0 && unit < DECIMAL.length - 1) {
            value /= 1000;
            unit++;
        }
        return unit > 0 ? value + " " + DECIMAL[unit] : ByteSize.format(bytes);
    }

    /** {@link #size(long)} of a text column value; the text itself when it is not a whole number. */
    public static String size(String bytes) {
        try {
            return size(Long.parseLong(bytes.trim()));
        } catch (NumberFormatException e) {
            return bytes;
        }
    }

    /** A count or rate: thousands separated, no decimals from 100 up ({@code 12,390}), three significant digits below. */
    public static String rate(double value) {
        if (!Double.isFinite(value)) {
            return "";
        }
        if (Math.abs(value) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return significant(value);
    }

    /** Three significant digits without exponent for everyday magnitudes ({@code 0.565}, {@code 4.49}, {@code 1,234}). */
    public static String significant(double value) {
        if (!Double.isFinite(value)) {
            return "";
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (magnitude == 0) {
            return "0";
        }
        if (magnitude < 0.001) {
            return String.format(Locale.ROOT, "%.2e", value);
        }
        int decimals = Math.max(0, 2 - (int) Math.floor(Math.log10(magnitude)));
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** A ratio as {@code 100 %} style text with at most one decimal ({@code 92.3 %}). */
    public static String percent(double ratio) {
        if (!Double.isFinite(ratio)) {
            return "";
        }
        double percent = ratio * 100;
        return (percent == Math.rint(percent) ? String.format(Locale.ROOT, "%.0f", percent)
                : String.format(Locale.ROOT, "%.1f", percent)) + " %";
    }

    /** A ratio to a baseline as {@code ×1.44}. */
    public static String times(double ratio) {
        return Double.isFinite(ratio) ? String.format(Locale.ROOT, "×%.2f", ratio) : "";
    }
}
