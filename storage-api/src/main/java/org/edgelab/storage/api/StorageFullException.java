package org.edgelab.storage.api;

/**
 * A write could not make room: everything evictable is pinned, the object exceeds the capacity, or
 * the file system under the store is full. The store is otherwise unharmed: it keeps serving what
 * it holds and takes writes again once there is room.
 */
public final class StorageFullException extends StorageException {
    private static final long serialVersionUID = 1L;

    public StorageFullException(String message) {
        super(message);
    }

    public StorageFullException(String message, Throwable cause) {
        super(message, cause);
    }
}
