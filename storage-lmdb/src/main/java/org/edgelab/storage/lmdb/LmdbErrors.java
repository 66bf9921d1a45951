package org.edgelab.storage.lmdb;

import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.api.StorageFullException;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.LmdbNativeException;

/** Maps every LMDB error to one specific EdgeLab exception, in one place. Stateless and thread-safe. */
final class LmdbErrors {

    private LmdbErrors() {
    }

    /** Returns the exception to throw for an LMDB error met while doing {@code action}. */
    static StorageException translate(LmdbException e, String action) {
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
}
