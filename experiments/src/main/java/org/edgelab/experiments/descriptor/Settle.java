package org.edgelab.experiments.descriptor;

import java.time.Duration;
import java.util.Locale;
import org.edgelab.units.Durations;

/**
 * How the measured load runs unrecorded before each repetition is measured ({@code load.settle}): not at all, for a
 * fixed time, or until req/s is steady ({@code auto}): the spread of req/s over the last {@code windows} consecutive
 * 1 s windows, (max - min) / mean, is at most {@code tolerance} (or they differ by one request at most), or
 * {@code length} has passed. Immutable and thread-safe.
 *
 * @param auto      whether it runs until steady; false: for {@code length}
 * @param length    the fixed length, or for {@code auto} the longest it may run (zero: no settle)
 * @param tolerance {@code auto}: the largest spread of req/s that counts as steady (0.05 for 5 %)
 * @param windows   {@code auto}: how many consecutive windows the spread is taken over (at least 2)
 */
public record Settle(boolean auto, Duration length, double tolerance, int windows) {

    /** The length of one window of a steady-state settle: loadgen's report interval. */
    public static final Duration WINDOW = Duration.ofSeconds(1);
    /** The longest a steady-state settle runs when its descriptor says only {@code auto}. */
    public static final Duration DEFAULT_MAX = Duration.ofSeconds(30);
    /** The spread of req/s a steady-state settle accepts by default: 5 %. */
    public static final double DEFAULT_TOLERANCE = 0.05;
    /** The consecutive windows a steady-state settle compares by default. */
    public static final int DEFAULT_WINDOWS = 3;

    /** No settle: each repetition is measured from its first request. */
    public static final Settle NONE = new Settle(false, Duration.ZERO, 0, 0);

    public Settle {
        if (length == null || length.isNegative()) {
            throw new IllegalArgumentException("a settle's length must be at least 0, got " + length);
        }
        if (auto && (windows < 2 || !(tolerance > 0 && tolerance < 1) || length.compareTo(WINDOW.multipliedBy(windows)) < 0)) {
            throw new IllegalArgumentException("a steady-state settle needs at least 2 windows, a tolerance between 0 and 1"
                    + " and a maximum of at least its windows, got " + windows + " windows, tolerance " + tolerance + ", max " + length);
        }
    }

    /** A settle of {@code length} (zero: none). */
    public static Settle fixed(Duration length) {
        return length.isZero() ? NONE : new Settle(false, length, 0, 0);
    }

    /** A steady-state settle with these bounds. */
    public static Settle steady(Duration max, double tolerance, int windows) {
        return new Settle(true, max, tolerance, windows);
    }

    /** Whether the measured load runs unrecorded at all. */
    public boolean isNone() {
        return !auto && length.isZero();
    }

    /** One line for the manifest and notes: what this settle does. */
    public String describe() {
        if (isNone()) {
            return "none";
        }
        if (!auto) {
            return Durations.format(length) + " of the same load unrecorded";
        }
        return "the same load unrecorded until its req/s is steady (a spread, max - min over mean, of at most "
                + String.format(Locale.ROOT, "%.3g", tolerance * 100).replaceAll("\\.?0+$", "") + " % over " + windows
                + " consecutive " + Durations.format(WINDOW) + " windows, or one request per window), at most "
                + Durations.format(length);
    }
}
