package org.edgelab.storage.api;

/** Stored bytes failed verification (checksum, length, framing); the engine drops the object. */
public final class CorruptObjectException extends StorageException {
    private static final long serialVersionUID = 1L;

    public CorruptObjectException(String message) {
        super(message);
    }

    public CorruptObjectException(String message, Throwable cause) {
        super(message, cause);
    }
}
