package org.edgelab.loadgen.report;

import java.util.Locale;

/** wrk-style number formatting (latency, bytes, metric counts); stateless and thread-safe. */
public final class Units {
    private Units() {
    }

    /** Nanoseconds as "635.91us", "12.92ms" or "1.20s". */
    public static String latency(double nanos) {
        if (Double.isNaN(nanos)) {
            return "-";
        }
        double us = nanos / 1000;
        if (us < 1000) {
            return String.format(Locale.ROOT, "%.2fus", us);
        }
        if (us < 1_000_000) {
            return String.format(Locale.ROOT, "%.2fms", us / 1000);
        }
        return String.format(Locale.ROOT, "%.2fs", us / 1_000_000);
    }

    /** Bytes with 1024-based units as wrk prints them: "254.60MB". */
    public static String bytes(double bytes) {
        String[] units = {"B", "KB", "MB", "GB", "TB"};
        int i = 0;
        while (bytes >= 1024 && i < units.length - 1) {
            bytes /= 1024;
            i++;
        }
        return String.format(Locale.ROOT, "%.2f%s", bytes, units[i]);
    }

    /** A count with a metric suffix as wrk prints it: "56.20k". */
    public static String metric(double n) {
        if (n >= 1_000_000) {
            return String.format(Locale.ROOT, "%.2fM", n / 1_000_000);
        }
        if (n >= 1000) {
            return String.format(Locale.ROOT, "%.2fk", n / 1000);
        }
        return String.format(Locale.ROOT, "%.2f", n);
    }

    /** A ratio as a percentage with two decimals, "-" for NaN. */
    public static String percent(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * ratio);
    }
}
