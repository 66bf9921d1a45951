package org.edgelab.loadgen.workload;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;

import org.edgelab.origin.content.SyntheticPaths;

/**
 * Requests for synthetic objects {@code /objects/{size}/{id}} chosen by a {@link Popularity} over a set
 * of N objects, with sizes from a {@link SizeDistribution}, full or as fixed-size ranges at random
 * offsets, and optionally aimed at a target hit ratio.
 *
 * <p>Hit-ratio method ("first-time share"): a share {@code 1 - target} of the requests, spread evenly
 * over the request numbers (request k is first-time when floor((k+1)(1-target)) > floor(k(1-target))),
 * goes to an object never requested before (its id includes a nonce and the request number, so no cache
 * can hold it; the load engine renews the nonce for every phase, see {@link #renewed()}); the others go to the N-object set, which a warm-up pass ({@link #warmUp()})
 * fetches once, unmeasured, before the run. With a cache that holds the whole set, every set request is
 * a hit and every first-time request a miss, so the hit ratio is the target; the run measures the
 * achieved ratio from {@code X-Cache}.
 *
 * <p>Immutable and thread-safe; generators are confined to one connection.
 */
public final class ObjectWorkload implements Workload {
    private final String pathPrefix;
    private final Popularity popularity;
    private final SizeDistribution sizes;
    private final double targetHitRatio;
    private final long rangeSize;
    private final String namespace;
    private final long sizeSalt;
    private final String firstTimePrefix;

    private ObjectWorkload(String pathPrefix, Popularity popularity, SizeDistribution sizes, double targetHitRatio,
                           long rangeSize, String namespace) {
        this.pathPrefix = pathPrefix;
        this.popularity = popularity;
        this.sizes = sizes;
        this.targetHitRatio = targetHitRatio;
        this.rangeSize = rangeSize;
        this.namespace = namespace;
        this.sizeSalt = Hashing.hash(namespace);
        this.firstTimePrefix = newFirstTimePrefix();
    }

    private static String newFirstTimePrefix() {
        return "n" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + "-";
    }

    /** The same set, sizes and target, with another nonce in the first-time ids. */
    @Override
    public Workload renewed() {
        return Double.isNaN(targetHitRatio) ? this
                : new ObjectWorkload(pathPrefix, popularity, sizes, targetHitRatio, rangeSize, namespace);
    }

    /** A builder with defaults: 1000 objects, uniform popularity, 100 KB, full fetches, no hit-ratio target. */
    public static Builder builder() {
        return new Builder();
    }

    /** The target hit ratio, or NaN when none is set. */
    public double targetHitRatio() {
        return targetHitRatio;
    }

    /** The path (prefix + synthetic path) of set object {@code object}. */
    public String pathOf(long object) {
        return pathPrefix + SyntheticPaths.path(namespace + object, sizes.sizeOf(sizeSalt, object));
    }

    @Override
    public RequestGenerator newGenerator(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        boolean targeting = !Double.isNaN(targetHitRatio);
        return (ticket, slot) -> {
            String id;
            long size;
            boolean fresh = targeting && firstTime(ticket);
            if (fresh) {
                id = firstTimePrefix + ticket;
                size = sizes.sizeOf(sizeSalt ^ 0x5DEECE66DL, ticket);
            } else {
                long object = popularity.pick(random);
                id = namespace + object;
                size = sizes.sizeOf(sizeSalt, object);
            }
            String path = pathPrefix + SyntheticPaths.path(id, size);
            if (rangeSize <= 0) {
                slot.full(path, id, size);
            } else if (size <= rangeSize) {
                slot.range(path, id, size, 0, size - 1);
            } else {
                long start = random.nextLong(size - rangeSize + 1);
                slot.range(path, id, size, start, start + rangeSize - 1);
            }
            slot.firstTime = fresh;
        };
    }

    private boolean firstTime(long ticket) {
        double miss = 1 - targetHitRatio;
        return Math.floor((ticket + 1) * miss) > Math.floor(ticket * miss);
    }

    @Override
    public Workload warmUp() {
        if (Double.isNaN(targetHitRatio)) {
            return null;
        }
        ObjectWorkload self = this;
        return new Workload() {
            @Override
            public RequestGenerator newGenerator(long seed) {
                return (ticket, slot) -> {
                    String id = namespace + ticket;
                    long size = sizes.sizeOf(sizeSalt, ticket);
                    slot.full(pathPrefix + SyntheticPaths.path(id, size), id, size);
                };
            }

            @Override
            public long size() {
                return self.popularity.objects();
            }

            @Override
            public String describe() {
                return "warm-up: each of " + self.popularity.objects() + " set objects once";
            }
        };
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "objects %s, sizes %s%s%s", popularity.describe(), sizes.describe(),
                rangeSize > 0 ? ", ranges of " + rangeSize + " bytes at random offsets" : ", full fetches",
                Double.isNaN(targetHitRatio) ? "" : String.format(Locale.ROOT,
                        ", target hit ratio %.3f (first-time share %.3f after a warm-up pass)", targetHitRatio, 1 - targetHitRatio));
    }

    /** Builds an {@link ObjectWorkload}; not thread-safe. */
    public static final class Builder {
        private String pathPrefix = "";
        private long objects = 1000;
        private String popularitySpec = "uniform";
        private Popularity popularity;
        private SizeDistribution sizes = SizeDistribution.fixed(100_000);
        private double targetHitRatio = Double.NaN;
        private long rangeSize;
        private String namespace = "o";

        private Builder() {
        }

        /** Path prefix before {@code /objects/...} (the target URL's path, without a trailing '/'). */
        public Builder pathPrefix(String prefix) {
            String p = prefix == null ? "" : prefix;
            while (p.endsWith("/")) {
                p = p.substring(0, p.length() - 1);
            }
            this.pathPrefix = p;
            return this;
        }

        /** Number of objects in the set (N). */
        public Builder objects(long objects) {
            this.objects = objects;
            return this;
        }

        /** "uniform" or "zipf:ALPHA". */
        public Builder popularity(String spec) {
            this.popularitySpec = spec;
            return this;
        }

        /** Object sizes. */
        public Builder sizes(SizeDistribution sizes) {
            this.sizes = sizes;
            return this;
        }

        /** Object sizes from text, see {@link SizeDistribution#parse(String)}. */
        public Builder sizes(String spec) {
            return sizes(SizeDistribution.parse(spec));
        }

        /** Aim at this hit ratio (0..1) with the first-time-share method; NaN for none. */
        public Builder targetHitRatio(double ratio) {
            if (!Double.isNaN(ratio) && (ratio < 0 || ratio > 1)) {
                throw new IllegalArgumentException("a target hit ratio must be between 0 and 1, got " + ratio);
            }
            this.targetHitRatio = ratio;
            return this;
        }

        /** Request ranges of this many bytes at random offsets; 0 for full fetches. */
        public Builder rangeSize(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("a range size must be >= 0, got " + bytes);
            }
            this.rangeSize = bytes;
            return this;
        }

        /** Prefix of object ids ([A-Za-z0-9._-]); runs with the same namespace share objects. */
        public Builder namespace(String namespace) {
            if (namespace == null || !namespace.matches("[A-Za-z0-9._-]{1,100}")) {
                throw new IllegalArgumentException("a namespace must be 1-100 characters of [A-Za-z0-9._-], got " + namespace);
            }
            this.namespace = namespace;
            return this;
        }

        /** The workload; throws IllegalArgumentException on a bad popularity or object count. */
        public ObjectWorkload build() {
            this.popularity = Popularity.parse(popularitySpec, objects);
            return new ObjectWorkload(pathPrefix, popularity, sizes, targetHitRatio, rangeSize, namespace);
        }
    }
}
