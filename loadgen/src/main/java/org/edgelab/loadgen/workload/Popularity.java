package org.edgelab.loadgen.workload;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Which of N objects a request picks: uniform, or Zipf with exponent alpha (object 0 the most popular,
 * P(rank k) proportional to 1/(k+1)^alpha), sampled by binary search over a precomputed CDF.
 *
 * <p>Immutable and thread-safe; callers pass their own random source.
 */
public final class Popularity {
    /** Largest object count Zipf accepts (its CDF table takes 8 bytes per object). */
    public static final int MAX_ZIPF_OBJECTS = 20_000_000;

    private final long objects;
    private final double alpha;
    private final double[] cdf;

    private Popularity(long objects, double alpha, double[] cdf) {
        this.objects = objects;
        this.alpha = alpha;
        this.cdf = cdf;
    }

    /** Every one of {@code objects} objects equally likely. */
    public static Popularity uniform(long objects) {
        if (objects < 1) {
            throw new IllegalArgumentException("the object count must be >= 1, got " + objects);
        }
        return new Popularity(objects, 0, null);
    }

    /** Zipf(alpha) over {@code objects} objects. */
    public static Popularity zipf(long objects, double alpha) {
        if (objects < 1 || objects > MAX_ZIPF_OBJECTS) {
            throw new IllegalArgumentException("Zipf needs 1.." + MAX_ZIPF_OBJECTS + " objects, got " + objects);
        }
        if (!(alpha > 0) || alpha > 10) {
            throw new IllegalArgumentException("Zipf alpha must be in (0, 10], got " + alpha);
        }
        int n = (int) objects;
        double[] cdf = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1.0 / Math.pow(k + 1, alpha);
            cdf[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            cdf[k] /= sum;
        }
        cdf[n - 1] = 1.0;
        return new Popularity(objects, alpha, cdf);
    }

    /** Parses "uniform" or "zipf:ALPHA" (e.g. zipf:0.9) over {@code objects} objects. */
    public static Popularity parse(String text, long objects) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("uniform")) {
            return uniform(objects);
        }
        if (t.startsWith("zipf:")) {
            try {
                return zipf(objects, Double.parseDouble(t.substring(5)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "': expected zipf:ALPHA, e.g. zipf:0.9");
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a popularity; expected uniform or zipf:ALPHA");
    }

    /** An object number in [0, objects). */
    public long pick(SplittableRandom random) {
        if (cdf == null) {
            return random.nextLong(objects);
        }
        int i = Arrays.binarySearch(cdf, random.nextDouble());
        return i >= 0 ? i : Math.min(-i - 1, cdf.length - 1);
    }

    /** Probability of object {@code k}. */
    public double probability(long k) {
        if (cdf == null) {
            return 1.0 / objects;
        }
        return k == 0 ? cdf[0] : cdf[(int) k] - cdf[(int) k - 1];
    }

    /** Number of objects. */
    public long objects() {
        return objects;
    }

    /** "uniform over N" or "zipf(alpha) over N". */
    public String describe() {
        return (cdf == null ? "uniform" : String.format(Locale.ROOT, "zipf(%.3f)", alpha)) + " over " + objects + " objects";
    }
}
