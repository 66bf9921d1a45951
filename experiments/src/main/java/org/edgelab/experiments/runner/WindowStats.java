package org.edgelab.experiments.runner;

import java.util.Collection;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The req/s of a measured run's 1 s windows, summarised as their count, mean and standard deviation, for a confidence
 * interval of the cell's req/s: as JMH treats its iterations, each window is one sample, and a cell's repetitions pool
 * their windows. The interval assumes independent windows; successive windows of a run that still drifts are
 * correlated, so it then understates the uncertainty (a wide interval is a warning, a narrow one no proof).
 * Immutable and thread-safe.
 *
 * @param windows how many windows
 * @param mean    their mean req/s (NaN without windows)
 * @param sd      their sample standard deviation (NaN with fewer than two)
 */
public record WindowStats(long windows, double mean, double sd) {

    /** The confidence of {@link #halfWidth()}: 95 %. */
    public static final double CONFIDENCE = 0.95;

    /** No windows. */
    public static final WindowStats NONE = new WindowStats(0, Double.NaN, Double.NaN);

    /** The statistics of {@code rates}, each one window's req/s. */
    public static WindowStats of(Collection<Double> rates) {
        long n = rates.size();
        if (n == 0) {
            return NONE;
        }
        double mean = rates.stream().mapToDouble(Double::doubleValue).sum() / n;
        if (n == 1) {
            return new WindowStats(1, mean, Double.NaN);
        }
        double squares = rates.stream().mapToDouble(r -> (r - mean) * (r - mean)).sum();
        return new WindowStats(n, mean, Math.sqrt(squares / (n - 1)));
    }

    /**
     * The statistics of the union of the windows {@code parts} summarise (a cell's repetitions): their differences in
     * mean count as spread, as they would among the windows themselves. Parts without windows are left out; a part
     * of one window adds its mean.
     */
    public static WindowStats pooled(Collection<WindowStats> parts) {
        long n = 0;
        double sum = 0;
        for (WindowStats p : parts) {
            if (p.windows > 0) {
                n += p.windows;
                sum += p.windows * p.mean;
            }
        }
        if (n == 0) {
            return NONE;
        }
        double mean = sum / n;
        if (n == 1) {
            return new WindowStats(1, mean, Double.NaN);
        }
        double squares = 0;
        for (WindowStats p : parts) {
            if (p.windows > 0) {
                double within = p.windows > 1 ? (p.windows - 1) * p.sd * p.sd : 0;
                squares += within + p.windows * (p.mean - mean) * (p.mean - mean);
            }
        }
        return new WindowStats(n, mean, Math.sqrt(squares / (n - 1)));
    }

    /**
     * The half-width of the {@link #CONFIDENCE} interval of the mean req/s: Student's t quantile for
     * {@code windows - 1} degrees of freedom times {@code sd / sqrt(windows)}; NaN with fewer than two windows.
     */
    public double halfWidth() {
        if (windows < 2 || Double.isNaN(sd)) {
            return Double.NaN;
        }
        double t = new TDistribution(null, windows - 1).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        return t * sd / Math.sqrt(windows);
    }

    /** {@link #halfWidth()} as a share of the mean (0.05 for ±5 %); NaN when either is unknown or the mean is 0. */
    public double relativeHalfWidth() {
        return mean > 0 ? halfWidth() / mean : Double.NaN;
    }
}
