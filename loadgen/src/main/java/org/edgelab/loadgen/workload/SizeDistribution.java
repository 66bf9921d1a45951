package org.edgelab.loadgen.workload;

import java.util.Locale;

import org.edgelab.units.ByteSize;

/**
 * Object sizes as a deterministic function of an object's number, so an object keeps its size in every
 * request and every run: fixed, a weighted list, uniform between bounds, or log-normal.
 *
 * <p>Immutable and thread-safe.
 */
public final class SizeDistribution {
    private final String description;
    private final long[] sizes;      // weighted list (one entry for fixed)
    private final double[] cumulative;
    private final Shape shape;
    private final double a;
    private final double b;
    private final long min;
    private final long max;

    private enum Shape { LIST, UNIFORM, LOGNORMAL }

    private SizeDistribution(String description, Shape shape, long[] sizes, double[] cumulative,
                             double a, double b, long min, long max) {
        this.description = description;
        this.shape = shape;
        this.sizes = sizes;
        this.cumulative = cumulative;
        this.a = a;
        this.b = b;
        this.min = min;
        this.max = max;
    }

    /** Every object has {@code bytes} bytes. */
    public static SizeDistribution fixed(long bytes) {
        requirePositive(bytes, String.valueOf(bytes));
        return new SizeDistribution(ByteSize.format(bytes), Shape.LIST, new long[] {bytes}, new double[] {1}, 0, 0, bytes, bytes);
    }

    /**
     * Parses a size specification:
     * {@code 100KB} (fixed); {@code 100KB:9,10MiB:1} (weighted list, weights after ':');
     * {@code uniform:1KB-10MB}; {@code lognormal:1MB:1.5} (median and sigma of ln(size)), optionally
     * {@code lognormal:1MB:1.5:50MB} to cap the size.
     */
    public static SizeDistribution parse(String text) {
        String t = text.trim();
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.startsWith("uniform:")) {
            String[] bounds = t.substring(8).split("-");
            if (bounds.length != 2) {
                throw new IllegalArgumentException("'" + text + "': expected uniform:MIN-MAX, e.g. uniform:1KB-10MB");
            }
            long lo = ByteSize.parse(bounds[0]);
            long hi = ByteSize.parse(bounds[1]);
            requirePositive(lo, text);
            if (hi < lo) {
                throw new IllegalArgumentException("'" + text + "': MAX must be >= MIN");
            }
            return new SizeDistribution(t, Shape.UNIFORM, null, null, 0, 0, lo, hi);
        }
        if (lower.startsWith("lognormal:")) {
            String[] parts = t.substring(10).split(":");
            if (parts.length < 2 || parts.length > 3) {
                throw new IllegalArgumentException("'" + text + "': expected lognormal:MEDIAN:SIGMA[:MAX], e.g. lognormal:1MB:1.5");
            }
            long median = ByteSize.parse(parts[0]);
            requirePositive(median, text);
            double sigma;
            try {
                sigma = Double.parseDouble(parts[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "': SIGMA must be a number");
            }
            if (!(sigma >= 0)) {
                throw new IllegalArgumentException("'" + text + "': SIGMA must be >= 0");
            }
            long cap = parts.length == 3 ? ByteSize.parse(parts[2]) : Long.MAX_VALUE / 4;
            return new SizeDistribution(t, Shape.LOGNORMAL, null, null, Math.log(median), sigma, 1, cap);
        }
        String[] entries = t.split(",");
        double total = 0;
        long[] sizes = new long[entries.length];
        double[] weights = new double[entries.length];
        for (int i = 0; i < entries.length; i++) {
            String[] sw = entries[i].split(":");
            if (sw.length > 2) {
                throw new IllegalArgumentException("'" + entries[i] + "': expected SIZE or SIZE:WEIGHT");
            }
            sizes[i] = ByteSize.parse(sw[0]);
            requirePositive(sizes[i], entries[i]);
            try {
                weights[i] = sw.length == 2 ? Double.parseDouble(sw[1]) : 1;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + entries[i] + "': WEIGHT must be a number");
            }
            if (!(weights[i] > 0)) {
                throw new IllegalArgumentException("'" + entries[i] + "': WEIGHT must be > 0");
            }
            total += weights[i];
        }
        double[] cumulative = new double[sizes.length];
        double run = 0;
        long lo = Long.MAX_VALUE;
        long hi = 0;
        for (int i = 0; i < sizes.length; i++) {
            run += weights[i] / total;
            cumulative[i] = run;
            lo = Math.min(lo, sizes[i]);
            hi = Math.max(hi, sizes[i]);
        }
        cumulative[sizes.length - 1] = 1.0;
        return new SizeDistribution(t, Shape.LIST, sizes, cumulative, 0, 0, lo, hi);
    }

    private static void requirePositive(long bytes, String text) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("'" + text + "': object sizes must be at least 1 byte");
        }
    }

    /** The size of object number {@code object} under {@code salt} (same inputs, same size). */
    public long sizeOf(long salt, long object) {
        long h1 = Hashing.mix(salt ^ Hashing.mix(object));
        double u = Hashing.unit(h1);
        switch (shape) {
            case LIST: {
                for (int i = 0; i < cumulative.length; i++) {
                    if (u < cumulative[i]) {
                        return sizes[i];
                    }
                }
                return sizes[sizes.length - 1];
            }
            case UNIFORM:
                return min + (long) (u * (max - min + 1));
            default: {
                double u2 = Hashing.unit(Hashing.mix(h1 + 0x632BE59BD9B4E019L));
                double normal = Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * u2);
                long size = Math.round(Math.exp(a + b * normal));
                return Math.max(min, Math.min(max, size));
            }
        }
    }

    /** The smallest size this distribution can produce. */
    public long minSize() {
        return min;
    }

    /** The text this was parsed from (or a description). */
    public String describe() {
        return description;
    }
}
