package org.edgelab.storage.api;

import java.io.IOException;

/** Base of the errors an engine reports about its own state (full, corrupt, aborted, failed disk). */
public class StorageException extends IOException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
