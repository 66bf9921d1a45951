package org.edgelab.loadgen;

import java.time.Duration;
import java.util.Locale;

import org.edgelab.units.Durations;

/**
 * An open-loop arrival rate: constant, or ramping linearly from one rate to another over a period and
 * constant after it. Arrivals are evenly spaced: request k is due when the integral of the rate reaches k.
 *
 * <p>Immutable and thread-safe.
 */
public final class RateSchedule implements Schedule {
    private final double from;
    private final double to;
    private final double rampSeconds;

    private RateSchedule(double from, double to, double rampSeconds) {
        if (!(from > 0) || !(to > 0) || Double.isInfinite(from) || Double.isInfinite(to)) {
            throw new IllegalArgumentException("a request rate must be a positive number of requests per second, got "
                    + from + (from == to ? "" : " to " + to));
        }
        this.from = from;
        this.to = to;
        this.rampSeconds = rampSeconds;
    }

    /** A constant rate in requests per second. */
    public static RateSchedule constant(double perSecond) {
        return new RateSchedule(perSecond, perSecond, 0);
    }

    /** A rate ramping linearly from {@code fromPerSecond} to {@code toPerSecond} over {@code over}, then constant. */
    public static RateSchedule ramp(double fromPerSecond, double toPerSecond, Duration over) {
        if (over.isNegative() || over.isZero()) {
            throw new IllegalArgumentException("a rate ramp needs a positive duration, got " + over);
        }
        return new RateSchedule(fromPerSecond, toPerSecond, over.toNanos() / 1e9);
    }

    /**
     * Parses {@code "1000"} (constant) or {@code "100..1000"} (ramp over {@code defaultRamp}, normally the
     * run's duration) or {@code "100..1000/30s"} (ramp over 30 s; units ms, s, m).
     */
    public static RateSchedule parse(String text, Duration defaultRamp) {
        String t = text.trim();
        try {
            int dots = t.indexOf("..");
            if (dots < 0) {
                return constant(Double.parseDouble(t));
            }
            double a = Double.parseDouble(t.substring(0, dots));
            String rest = t.substring(dots + 2);
            Duration over = defaultRamp;
            int slash = rest.indexOf('/');
            if (slash >= 0) {
                over = parseDuration(rest.substring(slash + 1));
                rest = rest.substring(0, slash);
            }
            return ramp(a, Double.parseDouble(rest), over);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a rate; expected N (requests/s), N..M "
                    + "(ramp over the run) or N..M/30s (ramp over 30 s)");
        }
    }

    /** Parses a duration with its unit ("500ms", "10s", "2m"); see {@link Durations}. */
    public static Duration parseDuration(String text) {
        return Durations.parse(text);
    }

    /** The rate at the start, requests per second. */
    public double startRate() {
        return from;
    }

    /** The rate after the ramp, requests per second. */
    public double endRate() {
        return to;
    }

    @Override
    public long offsetNanos(long ticket) {
        double k = ticket;
        double seconds;
        if (rampSeconds == 0 || from == to) {
            seconds = k / to;
        } else {
            double slope = (to - from) / rampSeconds;
            double rampArrivals = from * rampSeconds + slope * rampSeconds * rampSeconds / 2;
            if (k <= rampArrivals) {
                seconds = (-from + Math.sqrt(from * from + 2 * slope * k)) / slope;
            } else {
                seconds = rampSeconds + (k - rampArrivals) / to;
            }
        }
        return (long) (seconds * 1e9);
    }

    @Override
    public String describe() {
        return from == to ? String.format(Locale.ROOT, "constant %.1f req/s", from)
                : String.format(Locale.ROOT, "ramp %.1f to %.1f req/s over %.1fs", from, to, rampSeconds);
    }
}
