package org.edgelab.storage.api;

/** A write could not make room: everything evictable is pinned, or the object exceeds the capacity. */
public final class StorageFullException extends StorageException {
    private static final long serialVersionUID = 1L;

    public StorageFullException(String message) {
        super(message);
    }
}
