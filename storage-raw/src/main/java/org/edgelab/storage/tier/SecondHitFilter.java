package org.edgelab.storage.tier;

import java.util.concurrent.atomic.AtomicLongArray;
import org.edgelab.storage.api.CacheKey;

/**
 * Remembers keys seen once, in a fixed table of 64-bit key hashes (a direct-mapped "doorkeeper"),
 * so the second access to a key is recognised. Bounded memory: a key can be forgotten when another
 * key lands in its slot, which only delays its admission. Thread-safe (lock-free).
 */
final class SecondHitFilter {

    private final AtomicLongArray seen;
    private final int mask;

    SecondHitFilter(int slotsPowerOfTwo) {
        if (Integer.bitCount(slotsPowerOfTwo) != 1) {
            throw new IllegalArgumentException("slots must be a power of two");
        }
        this.seen = new AtomicLongArray(slotsPowerOfTwo);
        this.mask = slotsPowerOfTwo - 1;
    }

    /** Records an access; returns true when the key had been seen before (and forgets it). */
    boolean accessAndCheck(CacheKey key) {
        long h = key.hash64();
        long tag = h == 0 ? 1 : h;
        int slot = (int) (mix(h) & mask);
        if (seen.get(slot) == tag) {
            seen.compareAndSet(slot, tag, 0);
            return true;
        }
        seen.set(slot, tag);
        return false;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        return z ^ (z >>> 33);
    }
}
