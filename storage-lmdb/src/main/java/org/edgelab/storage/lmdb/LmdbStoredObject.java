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
 * the object's chunks (they are deleted only after the last reference closes). Neither read path
 * holds a read transaction between calls: {@link #read} copies out of the map inside a short,
 * pooled one per call, and {@link #view} looks a chunk up in one and then lends the chunk's map
 * memory, which stays put while the pin is held (see {@link LmdbStore#pinnedChunk}); it holds a
 * map lease so the store does not unmap it before this reference closes. Thread-safe.
 */
final class LmdbStoredObject implements StoredObject {

    private final LmdbStore store;
    private final StoredEntry entry;
    private final ObjectMetadata metadata;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Whether this reference holds a map lease (from its first view until close). */
    private boolean mapLeased;
    /** The index of the chunk last looked up for a view, and that chunk (lent or copied); -1 and null before. */
    private int viewChunkIndex = -1;
    private ByteBuffer viewChunk;

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
     * Lends a read-only view, within one chunk, of a committed object. No read transaction is
     * held after the call, so a view kept for long (a slow client) keeps no snapshot open and
     * the writer goes on reusing freed pages; the viewed chunk stays put because this reference
     * pins it. Sequential views of one chunk look it up once.
     */
    @Override
    public synchronized Optional<ByteBuffer> view(long position, int maxLength) {
        long readable = entry.readableLength();
        if (closed.get() || position < 0 || maxLength <= 0 || entry.status() != StoredEntry.Status.COMPLETE
                || position >= readable) {
            return Optional.empty();
        }
        int chunk = (int) (position / entry.chunkSize);
        int offset = (int) (position % entry.chunkSize);
        if (chunk != viewChunkIndex) {
            if (!mapLeased) {
                store.readers().leaseMap();
                mapLeased = true;
            }
            viewChunk = store.pinnedChunk(entry, chunk);
            viewChunkIndex = viewChunk == null ? -1 : chunk;
        }
        if (viewChunk == null || viewChunk.limit() <= offset) {
            // A missing or short chunk: read() reports the damage.
            return Optional.empty();
        }
        int n = (int) Math.min(maxLength, Math.min(viewChunk.limit() - offset, readable - position));
        store.counters().bytesRead.add(n);
        return Optional.of(viewChunk.slice(offset, n));
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            synchronized (this) {
                viewChunk = null;
                viewChunkIndex = -1;
                if (mapLeased) {
                    mapLeased = false;
                    store.readers().releaseMap();
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
