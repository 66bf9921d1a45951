package org.edgelab.storage.lmdb;

import java.util.Arrays;
import java.util.Locale;
import org.lmdbjava.EnvFlags;

/**
 * How hard a commit pushes data to the disk: the {@code sync} setting. In every mode a killed
 * process (SIGKILL) loses nothing that committed and leaves the database consistent: LMDB's
 * copy-on-write never overwrites live pages, and committed pages are in the OS page cache. The
 * modes differ when the machine loses power or the kernel crashes. Immutable.
 */
enum SyncMode {
    /** fsync data, then the meta page, on every commit: a commit that returned survives a power cut. */
    FULL(),
    /** fsync data but not the meta page: a power cut may undo the last commit, never corrupts. */
    NOMETASYNC(EnvFlags.MDB_NOMETASYNC),
    /**
     * No fsync at commit (the OS writes back when it likes): a power cut may undo recent commits,
     * and on a file system that reorders writes may leave the database damaged (it then fails to
     * open with a clear error). Fastest; the equivalent of a raw log that syncs only at checkpoints.
     */
    NOSYNC(EnvFlags.MDB_NOSYNC);

    private final EnvFlags[] flags;

    SyncMode(EnvFlags... flags) {
        this.flags = flags;
    }

    /** Returns the LMDB environment flags of this mode. */
    EnvFlags[] flags() {
        return flags.clone();
    }

    /** Parses a setting value ({@code full}, {@code nometasync}, {@code nosync}), failing with the accepted names. */
    public static SyncMode parse(String value) {
        for (SyncMode m : values()) {
            if (m.name().equalsIgnoreCase(value.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("engine setting 'sync' must be one of "
                + Arrays.toString(values()).toLowerCase(Locale.ROOT) + ", got '" + value + "'");
    }
}
