package org.edgelab.storage.raw.log;

import java.util.Arrays;

/** A growable list of primitive longs, for index sweeps. Not thread-safe. */
final class LongList {
    private long[] values = new long[16];
    private int size;

    void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    long get(int i) {
        return values[i];
    }

    int size() {
        return size;
    }

    /** Returns the values sorted ascending. */
    long[] sorted() {
        long[] out = Arrays.copyOf(values, size);
        Arrays.sort(out);
        return out;
    }
}
