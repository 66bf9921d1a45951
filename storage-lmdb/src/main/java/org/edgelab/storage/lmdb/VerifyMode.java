package org.edgelab.storage.lmdb;

import java.util.Arrays;
import java.util.Locale;

/**
 * When chunk checksums are checked: the {@code verify} setting. Whatever the mode, an object this
 * process wrote is trusted (the writer computed its checksums from the bytes it was given), and
 * objects written before checksums existed (format 1) are served unchecked. Immutable.
 */
enum VerifyMode {
    /**
     * An object found at open is checked whole at its first lookup, before any byte leaves; a
     * damaged one is dropped and that lookup is a miss. Later lookups serve it unchecked: the hot
     * path costs nothing, and damage done while the store runs is found at the next restart.
     */
    ONCE,
    /** As {@code once}, and also every chunk each reader reads or views is checked first. */
    ALWAYS,
    /** Never checked (the path before checksums, for measuring what they cost). */
    NEVER;

    /** Parses a setting value ({@code once}, {@code always}, {@code never}), failing with the accepted names. */
    static VerifyMode parse(String value) {
        for (VerifyMode m : values()) {
            if (m.name().equalsIgnoreCase(value.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("engine setting 'verify' must be one of "
                + Arrays.toString(values()).toLowerCase(Locale.ROOT) + ", got '" + value + "'");
    }
}
