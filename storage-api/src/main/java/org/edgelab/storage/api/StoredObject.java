package org.edgelab.storage.api;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * An open reference to a stored object, committed or still being written. While it is open the
 * engine keeps the object's bytes readable, even if the object is removed or evicted meanwhile.
 * Close it when done: an unclosed reference pins memory or disk space.
 *
 * <p>Safe to use from several threads, but a reference is normally owned by one reader. Which
 * calls may block is said per method, in the terms of {@link StoreCall} (see
 * {@link ObjectStore#blockingCalls()}).
 */
public interface StoredObject extends AutoCloseable {

    /** Returns the object's key. Never blocks. */
    CacheKey key();

    /** Returns the metadata as of when this reference was opened. Never blocks. */
    ObjectMetadata metadata();

    /**
     * Returns how many bytes can be read now: the final length of a committed object, or the
     * bytes written so far of an object still being written. Never blocks.
     */
    long availableLength();

    /** Returns whether the object is committed, so {@link #availableLength()} is final. Never blocks. */
    boolean isComplete();

    /**
     * Completes with {@link #availableLength()} once at least {@code minLength} bytes are readable
     * or the object is complete (whichever comes first); completes exceptionally with
     * {@link WriteAbortedException} if the write is aborted before {@code minLength} bytes were
     * readable. Completes at once when the condition already holds. Callbacks may run on the
     * writer's thread: hand real work off. Never blocks (it returns a future).
     */
    CompletableFuture<Long> awaitLength(long minLength);

    /**
     * Copies bytes starting at {@code position} into {@code dst}, up to {@code dst.remaining()}
     * and no further than {@link #availableLength()}. Returns the number of bytes copied, or -1
     * when {@code position} is at or past the end of a complete object. May block: {@link StoreCall#READ}.
     *
     * @throws CorruptObjectException if the engine finds the stored bytes damaged
     * @throws WriteAbortedException  if the write this reference follows was aborted and
     *                                {@code position} is at or past the bytes written before it
     */
    int read(long position, ByteBuffer dst) throws IOException;

    /**
     * Returns the bytes from {@code position} as a read-only view of engine memory, at most
     * {@code maxLength} long and never empty, when the engine keeps them in memory; valid only
     * while this reference is open. Empty when the engine cannot lend memory. May block, and so may
     * reading the view's bytes (a memory map faults pages in from disk): {@link StoreCall#VIEW}.
     */
    default Optional<ByteBuffer> view(long position, int maxLength) {
        return Optional.empty();
    }

    /**
     * Returns the bytes from {@code position} as a slice of an open file, at most {@code maxLength}
     * long and never empty, when the engine keeps them contiguous in a file (zero-copy path);
     * valid only while this reference is open. Empty when the engine cannot offer one (no file,
     * bytes not yet written, or the engine must verify a checksum first). May block (the call, not
     * the transfer): {@link StoreCall#FILE_SLICE}; an engine that declares so returns the slice with
     * its bytes in memory, so that its transfer does not wait for the device.
     */
    default Optional<FileSlice> fileSlice(long position, long maxLength) {
        return Optional.empty();
    }

    /** Releases this reference. Idempotent. May block: {@link StoreCall#RELEASE}. */
    @Override
    void close();
}
