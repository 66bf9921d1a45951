package org.edgelab.storage.lmdb;

import java.io.IOException;
import java.nio.file.Path;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.api.StorageFullException;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.LmdbNativeException;
import org.edgelab.storage.spi.FileSystemErrors;

/** Maps every LMDB error to one specific EdgeLab exception, in one place. Stateless and thread-safe. */
final class LmdbErrors {

    private static final int EIO = 5;
    private static final int ENOSPC = 28;
    private static final int EDQUOT = 122;

    private LmdbErrors() {
    }

    /** Returns the exception to throw for an LMDB error met while doing {@code action}. */
    static StorageException translate(LmdbException e, String action) {
        return translate(e, action, null);
    }

    /**
     * Returns the exception to throw for an LMDB error met while doing {@code action} on the store
     * in {@code dir} (null when unknown): a write that failed because the file system under it is
     * full gives a {@link StorageFullException}. LMDB reports a short write as EIO, so a write
     * error on a file system with (almost) no room left counts as a full one.
     */
    static StorageException translate(LmdbException e, String action, Path dir) {
        if (isFileSystemFull(e, dir)) {
            return FileSystemErrors.full("LMDB", dir, new IOException(e.getMessage(), e));
        }
        if (e instanceof Env.MapFullException) {
            return new StorageFullException("the LMDB map is full while " + action
                    + " and eviction could not free enough pages; raise map-size or lower capacity");
        }
        if (e instanceof LmdbNativeException.PageCorruptedException
                || e instanceof LmdbNativeException.PageNotFoundException
                || e instanceof Env.FileInvalidException
                || e instanceof Env.VersionMismatchException
                || e instanceof LmdbNativeException.PanicException) {
            return new CorruptObjectException("the LMDB environment is damaged (" + e.getMessage() + ") while "
                    + action + "; delete the store's directory to start empty", e);
        }
        return new StorageException("LMDB failed while " + action + ": " + e.getMessage(), e);
    }

    /** Returns whether an LMDB error is a write refused by a full file system (ENOSPC, EDQUOT, or EIO with no room). */
    static boolean isFileSystemFull(LmdbException e, Path dir) {
        if (!(e instanceof LmdbNativeException lmdb) || dir == null) {
            return false;
        }
        int rc = lmdb.getResultCode();
        return rc == ENOSPC || rc == EDQUOT || (rc == EIO && FileSystemErrors.nearlyFull(dir));
    }
}
