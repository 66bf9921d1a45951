package org.edgelab.experiments.descriptor;

import java.time.Duration;
import org.edgelab.units.Durations;
import org.edgelab.units.SignificantFigures;

/**
 * How the measured load runs unrecorded before each repetition is measured ({@code load.settle}): not at all, for a
 * fixed time, or until req/s is steady ({@code auto}): the spread of req/s over the last {@code windows} consecutive
 * 1 s windows, (max - min) / mean, is at most {@code tolerance} (or they differ by one request at most) and, for a
 * server that reports its JIT compile time (EdgeLab's cache JVM), its compilers spent at most {@code jitMsPerSecond}
 * over those windows, or {@code length} has passed; with a {@code min}, not before it has run that long. A JVM whose req/s looks steady may still be compiling its hot path
 * for tens of seconds (docs/BENCHMARKS.md, 2026-12-06), so by default an {@code auto} settle waits for both, and
 * then once more from new connections (the runner's second run), as a JVM compiles again after that transition.
 * Immutable and thread-safe.
 *
 * @param auto      whether it runs until steady; false: for {@code length}
 * @param length    the fixed length, or for {@code auto} the longest it may run (zero: no settle)
 * @param tolerance {@code auto}: the largest spread of req/s that counts as steady (0.05 for 5 %)
 * @param windows   {@code auto}: how many consecutive windows the spread is taken over (at least 2)
 * @param jitMsPerSecond {@code auto}: the most JIT compile time per second, over the same windows, that counts as a
 *                  warm JVM; 0: the JIT is not watched
 * @param min       {@code auto}: the least it runs, steady or not (zero: no least), for servers whose req/s moves after
 *                  a plateau that looks steady (Varnish's first half-minute, a mapped file's first writeback:
 *                  docs/BENCHMARKS.md, 2026-12-07); zero for a fixed settle
 */
public record Settle(boolean auto, Duration length, double tolerance, int windows, double jitMsPerSecond, Duration min) {

    /** The length of one window of a steady-state settle: loadgen's report interval. */
    public static final Duration WINDOW = Duration.ofSeconds(1);
    /** The longest a steady-state settle runs when its descriptor says only {@code auto}. */
    public static final Duration DEFAULT_MAX = Duration.ofSeconds(30);
    /** The spread of req/s a steady-state settle accepts by default: 5 %. */
    public static final double DEFAULT_TOLERANCE = 0.05;
    /** The consecutive windows a steady-state settle compares by default. */
    public static final int DEFAULT_WINDOWS = 3;
    /**
     * The JIT compile time per second a steady-state settle accepts by default: 50 ms/s, 5 % of one core. A fresh cache
     * JVM under load compiles 400-1,000 ms/s in its first 15 s and falls below 50 ms/s after 30 s (100 KB objects) to
     * 55 s (10 MB) on the 2-core reference machine; a warm one compiles a few ms/s.
     */
    public static final double DEFAULT_JIT_MS_PER_SECOND = 50;

    /** No settle: each repetition is measured from its first request. */
    public static final Settle NONE = new Settle(false, Duration.ZERO, 0, 0, 0, Duration.ZERO);

    public Settle {
        if (length == null || length.isNegative()) {
            throw new IllegalArgumentException("a settle's length must be at least 0, got " + length);
        }
        if (auto && (windows < 2 || !(tolerance > 0 && tolerance < 1) || length.compareTo(WINDOW.multipliedBy(windows)) < 0)) {
            throw new IllegalArgumentException("a steady-state settle needs at least 2 windows, a tolerance between 0 and 1"
                    + " and a maximum of at least its windows, got " + windows + " windows, tolerance " + tolerance + ", max " + length);
        }
        if (min == null || min.isNegative() || (!auto && !min.isZero()) || min.compareTo(length) > 0) {
            throw new IllegalArgumentException("a settle's least length is at least 0, at most its maximum, and only a"
                    + " steady-state settle has one; got " + min + " with a maximum of " + length);
        }
        if (!(jitMsPerSecond >= 0) || Double.isInfinite(jitMsPerSecond) || (!auto && jitMsPerSecond != 0)) {
            throw new IllegalArgumentException("a settle's JIT bound is a finite number of ms per second, at least 0, and"
                    + " only a steady-state settle has one; got " + jitMsPerSecond);
        }
    }

    /** A settle of {@code length} (zero: none). */
    public static Settle fixed(Duration length) {
        return length.isZero() ? NONE : new Settle(false, length, 0, 0, 0, Duration.ZERO);
    }

    /** A steady-state settle with these bounds, waiting for the JIT as {@link #DEFAULT_JIT_MS_PER_SECOND} says. */
    public static Settle steady(Duration max, double tolerance, int windows) {
        return steady(max, tolerance, windows, DEFAULT_JIT_MS_PER_SECOND);
    }

    /** A steady-state settle with these bounds; {@code jitMsPerSecond} 0: the JIT is not watched. */
    public static Settle steady(Duration max, double tolerance, int windows, double jitMsPerSecond) {
        return steady(max, tolerance, windows, jitMsPerSecond, Duration.ZERO);
    }

    /** A steady-state settle with these bounds that runs at least {@code min}; {@code jitMsPerSecond} 0: the JIT is not watched. */
    public static Settle steady(Duration max, double tolerance, int windows, double jitMsPerSecond, Duration min) {
        return new Settle(true, max, tolerance, windows, jitMsPerSecond, min);
    }

    /** Whether this settle waits for a server's JIT to go quiet (where the server reports its JIT). */
    public boolean watchesJit() {
        return auto && jitMsPerSecond > 0;
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
        return "the same load unrecorded" + (min.isZero() ? "" : " for at least " + Durations.format(min) + " and then")
                + " until its req/s is steady (a spread, max - min over mean, of at most "
                + number(tolerance * 100) + " % over " + windows
                + " consecutive " + Durations.format(WINDOW) + " windows, or one request per window"
                + (watchesJit() ? "; for a server that reports its JIT compile time, also at most " + number(jitMsPerSecond)
                + " ms of compiling per second over those windows, and once steady a second time from new connections, as"
                + " the measured run starts" : "") + "), at most " + Durations.format(length);
    }

    private static String number(double value) {
        return SignificantFigures.format(value, 3);
    }
}
