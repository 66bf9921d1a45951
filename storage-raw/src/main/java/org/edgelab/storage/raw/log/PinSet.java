package org.edgelab.storage.raw.log;

import java.util.Arrays;

/**
 * The segment slots one reader or writer keeps from being reclaimed, one entry per pin taken.
 * Guarded by the owning store's lock: only {@link RawLogStore} touches it.
 */
final class PinSet {
    private int[] slots = new int[4];
    private int count;
    private boolean released;

    void add(int slot) {
        if (count == slots.length) {
            slots = Arrays.copyOf(slots, count * 2);
        }
        slots[count++] = slot;
    }

    int size() {
        return count;
    }

    int get(int i) {
        return slots[i];
    }

    boolean released() {
        return released;
    }

    void markReleased() {
        released = true;
    }

    /** Returns the distinct slots pinned. */
    int[] distinct() {
        return Arrays.stream(slots, 0, count).distinct().toArray();
    }
}
