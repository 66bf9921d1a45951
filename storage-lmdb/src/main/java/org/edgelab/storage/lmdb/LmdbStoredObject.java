package org.edgelab.storage.lmdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.spi.AbstractStoredObject;

/**
 * A reader's reference to an object in the LMDB store, committed or still being written. It pins
 * the object's chunks (they are deleted only after the last reference closes). Neither read path
 * holds a read transaction between calls: {@link #read} copies out of the map inside a short,
 * pooled one per call, and {@link #view} looks a chunk up in one and then lends the chunk's map
 * memory, which stays put while the pin is held (see {@link LmdbStore#pinnedChunk}); it holds a
 * map lease so the store does not unmap it before this reference closes. Thread-safe; reads do
 * not block on the store's writer.
 */
final class LmdbStoredObject extends AbstractStoredObject {

    private final LmdbStore store;
    private final StoredEntry entry;
    /** Whether this reference holds a map lease (from its first view until close); guarded by this. */
    private boolean mapLeased;
    /** The index of the chunk last looked up for a view, and that chunk (lent or copied); -1 and null before. */
    private int viewChunkIndex = -1;
    private ByteBuffer viewChunk;

    LmdbStoredObject(LmdbStore store, StoredEntry entry, ObjectMetadata metadata) {
        super(entry.progress, metadata);
        this.store = store;
        this.entry = entry;
    }

    @Override
    protected int readAvailable(long position, ByteBuffer dst, int length) throws IOException {
        return store.readChunks(entry, position, dst, length);
    }

    /**
     * Lends a read-only view, within one chunk, of a committed object. No read transaction is
     * held after the call, so a view kept for long (a slow client) keeps no snapshot open and
     * the writer goes on reusing freed pages; the viewed chunk stays put because this reference
     * pins it. Sequential views of one chunk look it up once.
     */
    @Override
    protected synchronized Optional<ByteBuffer> viewAvailable(long position, int length) {
        if (isClosed() || !entry.isComplete()) {
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
        int n = Math.min(length, viewChunk.limit() - offset);
        store.counters().bytesRead.add(n);
        return Optional.of(viewChunk.slice(offset, n));
    }

    @Override
    protected void release() {
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

    @Override
    public String toString() {
        return "LmdbStoredObject[" + entry.key + ", id " + entry.id + ", " + entry.readableLength() + " bytes]";
    }
}
