package org.edgelab.loadgen.workload;

/** Stateless 64-bit mixing (splitmix64 finaliser) for deterministic per-object choices; thread-safe. */
final class Hashing {
    private Hashing() {
    }

    /** A well-mixed 64-bit value of {@code z}. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A double in [0, 1) from the top 53 bits of {@code h}. */
    static double unit(long h) {
        return (h >>> 11) * 0x1.0p-53;
    }

    /** A stable 64-bit hash of a string. */
    static long hash(String s) {
        long h = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < s.length(); i++) {
            h = mix(h ^ s.charAt(i));
        }
        return h;
    }
}
