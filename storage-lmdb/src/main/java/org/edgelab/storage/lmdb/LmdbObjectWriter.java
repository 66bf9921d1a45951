package org.edgelab.storage.lmdb;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.api.StoredObject;
import org.lmdbjava.Txn;

/**
 * A streaming write into the LMDB store: bytes fill a pooled chunk buffer, each full chunk is
 * charged to the byte budget and queued for the writer thread, and {@link #commit} queues the
 * metadata record and returns once the batch holding it (and so every chunk before it) has
 * committed. Written by one thread at a time; {@link #follow()} from any thread.
 */
final class LmdbObjectWriter implements ObjectWriter {

    private enum State { OPEN, COMMITTED, ABORTED }

    private final LmdbStore store;
    private final StoredEntry entry;
    private final ObjectMetadata initialMetadata;
    private ByteBuffer current;
    private long written;
    /** Bytes reserved from the store's budget, and the part of them already used. */
    private long reserved;
    private long charged;
    private volatile State state = State.OPEN;
    private volatile StorageException asyncFailure;
    /**
     * Chunks whose batch failed while the write was still open: their bytes are published, and a
     * follower may still come until the writer learns of the failure and aborts, so they stay
     * readable until then. Guarded by this.
     */
    private final List<PutChunk> failedWhileOpen = new ArrayList<>();

    LmdbObjectWriter(LmdbStore store, StoredEntry entry, ObjectMetadata initialMetadata) {
        this.store = store;
        this.entry = entry;
        this.initialMetadata = initialMetadata;
    }

    /** Reserves the whole estimated footprint of a write whose length is known, failing fast. */
    void reserveUpFront(long bytes) throws StorageException {
        store.reserve(bytes);
        reserved = bytes;
    }

    @Override
    public CacheKey key() {
        return entry.key;
    }

    @Override
    public void write(ByteBuffer chunk) throws IOException {
        Objects.requireNonNull(chunk, "chunk");
        requireOpen();
        failIfAsyncFailed();
        while (chunk.hasRemaining()) {
            if (current == null) {
                current = store.buffers().take().limit(entry.chunkSize); // the rest is the checksum's
                entry.holdUnflushed(entry.chunkCount(), current);
            }
            int n = Math.min(chunk.remaining(), current.remaining());
            current.put(current.position(), chunk, chunk.position(), n);
            current.position(current.position() + n);
            chunk.position(chunk.position() + n);
            written += n;
            entry.advance(written);
            if (!current.hasRemaining()) {
                flushChunk();
            }
        }
    }

    /** Appends the checksum to the chunk being filled and queues it (body and checksum) for the writer thread. */
    private void flushChunk() throws IOException {
        int length = current.position();
        int index = entry.chunkCount();
        int crc = Layout.chunkCrc(entry.id, index, current.duplicate().flip());
        ByteBuffer full = current.limit(length + Layout.CHUNK_TRAILER_BYTES).putInt(length, crc).position(0);
        try {
            charge(Layout.valueFootprint(Layout.CHUNK_KEY_BYTES, full.remaining(), store.pageSize()));
        } catch (StorageException e) {
            abort();
            throw e;
        }
        current = null;
        entry.chunkEnqueued();
        try {
            store.batcher().submit(new PutChunk(index, full));
        } catch (InterruptedIOException e) {
            recycleUnstored(index, full);
            abort();
            throw e;
        }
        store.counters().bytesWritten.add(length);
    }

    private void charge(long bytes) throws StorageException {
        long missing = charged + bytes - reserved;
        if (missing > 0) {
            store.reserve(missing);
            reserved += missing;
        }
        charged += bytes;
    }

    @Override
    public long written() {
        return written;
    }

    @Override
    public StoredObject follow() {
        entry.markFollowed(); // before the check: an abort racing this keeps the buffers (see StoredEntry#abort)
        if (state != State.OPEN || !entry.tryPin()) {
            throw new IllegalStateException("the write of '" + entry.key + "' was already "
                    + (entry.isComplete() ? "committed: look the object up instead" : "aborted"));
        }
        return new LmdbStoredObject(store, entry, initialMetadata);
    }

    @Override
    public void commit() throws IOException {
        commit(initialMetadata.withLength(written));
    }

    @Override
    public void commit(ObjectMetadata finalMetadata) throws IOException {
        Objects.requireNonNull(finalMetadata, "finalMetadata");
        requireOpen();
        if (finalMetadata.length() != written) {
            throw new IllegalArgumentException("commit of '" + entry.key + "' with length " + finalMetadata.length()
                    + " but " + written + " bytes were written");
        }
        failIfAsyncFailed();
        if (current != null && current.position() > 0) {
            flushChunk();
        } else if (current != null) {
            recycle(entry.chunkCount(), current);
            current = null;
        }
        byte[] metaKey = Layout.metaKey(entry.keyBytes);
        ByteBuffer value = Layout.encodeMeta(entry.id, written, entry.chunkSize, entry.keyBytes, metaKey, finalMetadata,
                entry.checksummed);
        try {
            charge(Layout.valueFootprint(metaKey.length, value.remaining(), store.pageSize()));
        } catch (StorageException e) {
            abort();
            throw e;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            store.batcher().submit(new CommitMeta(metaKey, value, finalMetadata, done));
        } catch (InterruptedIOException e) {
            abort();
            throw e;
        }
        StorageException failure = awaitCommit(done);
        if (failure != null) {
            abort();
            throw failure;
        }
    }

    /** Waits for the batch holding the commit, uninterruptibly: it is short, and leaving early could race an abort. */
    private StorageException awaitCommit(CompletableFuture<Void> done) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    done.get();
                    return null;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    return e.getCause() instanceof StorageException se ? se
                            : new StorageException("commit of '" + entry.key + "' failed: " + e.getCause(), e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void abort() {
        List<PutChunk> failed;
        synchronized (this) {
            if (state != State.OPEN) {
                return;
            }
            state = State.ABORTED;
            failed = List.copyOf(failedWhileOpen);
            failedWhileOpen.clear();
        }
        if (current != null) {
            recycleUnstored(entry.chunkCount(), current);
            current = null;
        }
        store.writeAborted(entry, reserved, charged);
        reserved = 0;
        charged = 0;
        for (PutChunk c : failed) {
            recycleUnstored(c.index, c.data); // kept if a follower came meanwhile
        }
    }

    /** Keeps a chunk whose batch failed readable until the abort, if the write is still open; false otherwise. */
    private synchronized boolean keepUntilAbort(PutChunk c) {
        if (state != State.OPEN) {
            return false;
        }
        failedWhileOpen.add(c);
        return true;
    }

    @Override
    public void close() {
        abort();
    }

    /** A chunk committed to LMDB: its buffer goes back to the pool unless a follower may hold it. */
    private void recycle(int index, ByteBuffer buffer) {
        if (entry.forgetUnflushed(index)) {
            store.buffers().give(buffer);
        }
    }

    /** A chunk that never reached LMDB: followers keep reading it from its buffer, else it is recycled. */
    private void recycleUnstored(int index, ByteBuffer buffer) {
        if (entry.dropUnflushed(index)) {
            store.buffers().give(buffer);
        }
    }

    private void requireOpen() {
        if (state != State.OPEN) {
            throw new IllegalStateException("the write of '" + entry.key + "' was already "
                    + (state == State.COMMITTED ? "committed" : "aborted"));
        }
    }

    private void failIfAsyncFailed() throws StorageException {
        StorageException e = asyncFailure;
        if (e != null) {
            abort();
            throw e;
        }
    }

    /** Queues one full chunk; on commit, followers may read up to {@code readableAfter}. */
    private final class PutChunk implements WriteBatcher.Op {
        private final int index;
        private final ByteBuffer data;
        /** Whether the last apply put the chunk; writer thread of the store only. */
        private boolean stored;

        PutChunk(int index, ByteBuffer data) {
            this.index = index;
            this.data = data;
        }

        @Override
        public long addedBytes() {
            return data.remaining();
        }

        @Override
        public boolean awaited() {
            return false;
        }

        @Override
        public void apply(Txn<ByteBuffer> txn, WriteBatcher.Tables tables) {
            stored = asyncFailure == null && !entry.progress.isAborted();
            if (stored) {
                tables.chunks.put(txn, tables.chunkKey(entry.id, index), data.duplicate());
            }
        }

        @Override
        public void committed() {
            if (stored) {
                recycle(index, data);
            } else {
                recycleUnstored(index, data);
            }
        }

        @Override
        public void failed(StorageException e) {
            if (asyncFailure == null) {
                asyncFailure = e;
            }
            if (!keepUntilAbort(this)) {
                recycleUnstored(index, data);
            }
        }
    }

    /** Queues the metadata record that makes the object visible. */
    private final class CommitMeta implements WriteBatcher.Op {
        private final byte[] metaKey;
        private final ByteBuffer value;
        private final ObjectMetadata metadata;
        private final CompletableFuture<Void> done;

        CommitMeta(byte[] metaKey, ByteBuffer value, ObjectMetadata metadata, CompletableFuture<Void> done) {
            this.metaKey = metaKey;
            this.value = value;
            this.metadata = metadata;
            this.done = done;
        }

        @Override
        public long addedBytes() {
            return value.remaining();
        }

        @Override
        public void apply(Txn<ByteBuffer> txn, WriteBatcher.Tables tables) {
            if (asyncFailure == null) {
                tables.meta.put(txn, tables.metaKey(metaKey), value);
            }
        }

        @Override
        public void committed() {
            StorageException failure = asyncFailure;
            if (failure != null) {
                done.completeExceptionally(failure);
                return;
            }
            state = State.COMMITTED;
            entry.addFootprint(charged);
            store.release(reserved - charged);
            reserved = charged;
            entry.metadata(metadata);
            store.writeCommitted(entry, written);
            done.complete(null);
        }

        @Override
        public void failed(StorageException e) {
            if (asyncFailure == null) {
                asyncFailure = e;
            }
            done.completeExceptionally(e);
        }
    }
}
