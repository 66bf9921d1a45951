package org.edgelab.storage.api;

/** The write a reader was following was aborted; the partial object is gone. */
public final class WriteAbortedException extends StorageException {
    private static final long serialVersionUID = 1L;

    public WriteAbortedException(CacheKey key) {
        super("the write of '" + key + "' was aborted");
    }
}
