package org.edgelab.storage.api;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A streaming write of one object: chunks in order, then {@link #commit()} or {@link #abort()}.
 * Closing a writer that was not committed aborts it, so try-with-resources never leaves a
 * partial object behind.
 *
 * <p>Written by one thread at a time; {@link #follow()} may be called from any thread. Which calls
 * may block is said per method, in the terms of {@link StoreCall} (see {@link ObjectStore#blockingCalls()}).
 */
public interface ObjectWriter extends AutoCloseable {

    /** Returns the key being written. Never blocks. */
    CacheKey key();

    /**
     * Appends the remaining bytes of {@code chunk} (consuming them). The engine copies what it
     * keeps: the caller may reuse the buffer when this returns.
     *
     * May block: {@link StoreCall#WRITE}.
     *
     * <p>A failure aborts the write and leaves the rest of the store as it was (but for objects
     * evicted to make room): stored objects, the disks' state unless the disk itself failed, and
     * what followers can read, which is every byte written before the failure. The rest of the
     * body can then be passed through to them.
     *
     * @throws StorageFullException when the object no longer fits: the store's capacity is taken
     *         by what readers and writers hold, or the file system under the store is full (which
     *         is not a disk failure: the store keeps serving and takes writes again once there is room)
     * @throws IOException          any other failure, for example an I/O error that takes a disk out
     */
    void write(ByteBuffer chunk) throws IOException;

    /** Returns the number of bytes written so far. Never blocks. */
    long written();

    /**
     * Opens a reader that follows this in-progress object: it can read every byte written so far
     * and learns of new ones through {@link StoredObject#awaitLength(long)}. It stays readable
     * after commit. After an abort (by the caller or by a failed write) it still reads the bytes
     * written before the abort; reads and waits beyond them fail with {@link WriteAbortedException}.
     * May block: {@link StoreCall#FOLLOW}.
     *
     * @throws IllegalStateException once the write was committed or aborted (look the object up instead)
     */
    StoredObject follow();

    /**
     * Makes the object visible under its key with the given final metadata (whose length must
     * equal {@link #written()}). Durable engines make it durable before or as part of this call,
     * as their documentation states. A failure aborts the write as a failed {@link #write} does. May block: {@link StoreCall#COMMIT}.
     *
     * @throws IllegalStateException if the writer was already committed or aborted
     */
    void commit(ObjectMetadata finalMetadata) throws IOException;

    /** Commits with the metadata given to {@link ObjectStore#begin}, its length set to {@link #written()}. May block: {@link StoreCall#COMMIT}. */
    void commit() throws IOException;

    /** Discards everything written; the store is as if the write never began. Idempotent. May block: {@link StoreCall#ABORT}. */
    void abort();

    /** Aborts unless committed. May block: {@link StoreCall#ABORT} (never after a commit). */
    @Override
    void close();
}
