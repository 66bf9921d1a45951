package org.edgelab.storage.lmdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;

/**
 * A reader's reference to an object in the LMDB store, committed or still being written. It pins
 * the object's chunks (they are deleted only after the last reference closes). {@link #read}
 * copies out of the map inside a short, pooled read transaction per call, holding no snapshot
 * between calls; {@link #view} lends map memory and holds one snapshot until close. Thread-safe.
 */
final class LmdbStoredObject implements StoredObject {

    private final LmdbStore store;
    private final StoredEntry entry;
    private final ObjectMetadata metadata;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The read transaction that keeps lent views valid; held from the first view until close. */
    private ReadTxnPool.Slot viewSlot;

    LmdbStoredObject(LmdbStore store, StoredEntry entry, ObjectMetadata metadata) {
        this.store = store;
        this.entry = entry;
        this.metadata = metadata;
    }

    @Override
    public CacheKey key() {
        return entry.key;
    }

    @Override
    public ObjectMetadata metadata() {
        return metadata;
    }

    @Override
    public long availableLength() {
        return entry.readableLength();
    }

    @Override
    public boolean isComplete() {
        return entry.status() == StoredEntry.Status.COMPLETE;
    }

    @Override
    public CompletableFuture<Long> awaitLength(long minLength) {
        return entry.awaitLength(minLength);
    }

    @Override
    public int read(long position, ByteBuffer dst) throws IOException {
        if (closed.get()) {
            throw new IllegalStateException("the reference to '" + entry.key + "' is closed");
        }
        if (position < 0) {
            throw new IllegalArgumentException("position must be >= 0, got " + position);
        }
        if (entry.status() == StoredEntry.Status.ABORTED) {
            throw new WriteAbortedException(entry.key);
        }
        return store.readChunks(entry, position, dst);
    }

    /**
     * Lends a read-only view of the map for a committed object. The first call opens a read
     * transaction that this reference holds until it is closed (LMDB keeps the viewed pages
     * valid only while a transaction that sees them is open), so close promptly: a long-held
     * snapshot keeps the writer from reusing pages freed after it.
     */
    @Override
    public synchronized Optional<ByteBuffer> view(long position, int maxLength) {
        if (closed.get() || position < 0 || maxLength <= 0 || entry.status() != StoredEntry.Status.COMPLETE
                || position >= entry.readableLength()) {
            return Optional.empty();
        }
        if (viewSlot == null) {
            viewSlot = store.readers().acquire();
        }
        return Optional.ofNullable(store.chunkView(viewSlot, entry, position, maxLength));
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            synchronized (this) {
                if (viewSlot != null) {
                    store.readers().release(viewSlot);
                    viewSlot = null;
                }
            }
            entry.unpin();
        }
    }

    @Override
    public String toString() {
        return "LmdbStoredObject[" + entry.key + ", id " + entry.id + ", " + entry.readableLength() + " bytes]";
    }
}
