package org.edgelab.storage.memory;

import java.util.Set;
import org.edgelab.storage.api.StoreCall;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoreCounters;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoreUsage;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.eviction.EvictionPolicy;
import org.edgelab.storage.spi.AbstractStoredObject;
import org.edgelab.storage.spi.WriteProgress;
import org.edgelab.units.ByteSize;

/**
 * A bounded store of objects held in off-heap chunks of a fixed size (see {@link MemoryEngine}).
 *
 * <p>Memory: at most {@code capacity / chunkSize} direct buffers are ever allocated; they are
 * allocated lazily and recycled through a free list, never per write. An object uses whole chunks,
 * so {@link StoreUsage#usedBytes()} counts chunks in use (committed objects, writes in progress,
 * and removed or evicted objects still pinned by readers) and never exceeds the capacity.
 *
 * <p>Eviction: a write that needs a chunk when none is free asks the policy for victims. Victims
 * that a reader holds open are skipped (evicting them would free nothing while they are read) and
 * handed back to the policy as freshly inserted; if no unpinned object is left, the write fails
 * with {@link StorageFullException} and is aborted.
 *
 * <p>Thread-safety and locking: one store lock guards the index, the policy, the chunk pool and
 * every entry's reference count. Reads take no lock: an entry's chunks are published through
 * volatile fields before its length, and stay allocated while any reference is open. Each writer
 * has its own monitor so that an abort from another thread never frees a chunk mid-copy (lock
 * order: writer, then store). Followers wait on the entry's {@link WriteProgress}; their futures
 * complete outside the store lock. A follower keeps its own reference, so after an abort it still
 * reads the bytes written before it.
 */
public final class MemoryStore implements ObjectStore {

    private final long capacity;
    private final int chunkSize;
    private final long maxChunks;
    private final String policyName;
    private final StoreCounters counters = new StoreCounters();

    private final Object lock = new Object();
    /** Committed objects by key. Guarded by {@link #lock}. */
    private final Map<CacheKey, Entry> index = new HashMap<>();
    /** Guarded by {@link #lock}. */
    private final EvictionPolicy<CacheKey> policy;
    private final long directMemoryLimit;
    /** Recycled chunks. Guarded by {@link #lock}. */
    private final ArrayDeque<ByteBuffer> freeChunks = new ArrayDeque<>();
    /** Chunks allocated so far (in use or free), at most {@link #maxChunks}. Guarded by {@link #lock}. */
    private long allocatedChunks;
    /** Guarded by {@link #lock}. */
    private boolean closed;

    MemoryStore(long capacity, int chunkSize, String policyName, EvictionPolicy<CacheKey> policy) {
        this(capacity, chunkSize, policyName, policy, Long.MAX_VALUE);
    }

    /** {@code directMemoryLimit}: the JVM's limit on direct memory, shown in the stats beside the capacity. */
    MemoryStore(long capacity, int chunkSize, String policyName, EvictionPolicy<CacheKey> policy,
                long directMemoryLimit) {
        this.directMemoryLimit = directMemoryLimit;
        this.capacity = capacity;
        this.chunkSize = chunkSize;
        this.maxChunks = capacity / chunkSize;
        this.policyName = policyName;
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    @Override
    public String engineName() {
        return MemoryEngine.NAME;
    }

    /** Never: every call works on memory under short monitors, and no call waits for another thread's I/O. */
    @Override
    public Set<StoreCall> blockingCalls() {
        return StoreCall.none();
    }

    @Override
    public Optional<StoredObject> lookup(CacheKey key) {
        Objects.requireNonNull(key, "key");
        Entry e;
        synchronized (lock) {
            checkOpen();
            counters.lookups.increment();
            e = index.get(key);
            if (e == null) {
                return Optional.empty();
            }
            e.refs++;
            policy.onAccess(key);
        }
        counters.lookupHits.increment();
        return Optional.of(new Handle(e, e.metadata));
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws StorageFullException {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(metadata, "metadata");
        synchronized (lock) {
            checkOpen();
        }
        if (metadata.length() != ObjectMetadata.UNKNOWN_LENGTH && chunksFor(metadata.length()) > maxChunks) {
            throw tooLarge(key, metadata.length());
        }
        counters.writesBegun.increment();
        return new Writer(new Entry(key, metadata));
    }

    @Override
    public boolean remove(CacheKey key) {
        synchronized (lock) {
            checkOpen();
            Entry e = index.remove(key);
            if (e == null) {
                return false;
            }
            policy.onRemove(key);
            release(e);
        }
        counters.removals.increment();
        return true;
    }

    @Override
    public boolean updateMetadata(CacheKey key, ObjectMetadata metadata) {
        Objects.requireNonNull(metadata, "metadata");
        synchronized (lock) {
            checkOpen();
            Entry e = index.get(key);
            if (e == null) {
                return false;
            }
            if (metadata.length() != e.progress.readable()) {
                throw new IllegalArgumentException("updated metadata of '" + key + "' must keep its length "
                        + e.progress.readable() + ", got " + metadata.length());
            }
            e.metadata = metadata;
            return true;
        }
    }

    @Override
    public StoreUsage usage() {
        synchronized (lock) {
            return new StoreUsage(capacity, (allocatedChunks - freeChunks.size()) * chunkSize, index.size());
        }
    }

    @Override
    public StoreStats stats() {
        long allocated;
        long free;
        synchronized (lock) {
            allocated = allocatedChunks;
            free = freeChunks.size();
        }
        return counters.snapshot(Map.of(
                "policy", policyName,
                "chunkSizeBytes", chunkSize,
                "allocatedChunkBytes", allocated * chunkSize,
                "freeChunkBytes", free * chunkSize,
                "directMemoryLimitBytes", directMemoryLimit,
                "capacityFitsDirectMemory", capacity <= directMemoryLimit));
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            for (Entry e : index.values()) {
                policy.onRemove(e.key);
                release(e);
            }
            index.clear();
            freeChunks.clear();
        }
    }

    @Override
    public String toString() {
        return "MemoryStore[capacity=" + ByteSize.format(capacity) + ", chunk=" + ByteSize.format(chunkSize)
                + ", policy=" + policyName + "]";
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the memory store is closed");
        }
    }

    private long chunksFor(long bytes) {
        return (bytes + chunkSize - 1) / chunkSize;
    }

    private StorageFullException tooLarge(CacheKey key, long bytes) {
        return new StorageFullException("object '" + key + "' of " + bytes + " bytes does not fit in the memory store's "
                + ByteSize.format(maxChunks * chunkSize) + " (capacity " + ByteSize.format(capacity) + ")");
    }

    /** Drops one reference to {@code e}; the last one returns its chunks to the pool. Caller holds {@link #lock}. */
    private void release(Entry e) {
        assert Thread.holdsLock(lock);
        if (--e.refs > 0) {
            return;
        }
        ByteBuffer[] chunks = e.chunks;
        for (int i = 0; i < e.chunkCount; i++) {
            if (!closed) {
                freeChunks.push(chunks[i].clear());
            }
            chunks[i] = null;
        }
        e.chunkCount = 0;
    }

    /** Adds one reference to {@code e} (a new reader). Caller holds {@link #lock}. */
    private void retain(Entry e) {
        assert Thread.holdsLock(lock);
        e.refs++;
    }

    /**
     * Returns a chunk for the writer of {@code e}, recycling, allocating or evicting as needed.
     * Caller holds the writer's monitor.
     */
    private ByteBuffer takeChunk(Entry e) throws StorageFullException {
        boolean allocate = false;
        synchronized (lock) {
            checkOpen();
            if (e.chunkCount + 1L > maxChunks) {
                throw tooLarge(e.key, e.written + 1);
            }
            ByteBuffer chunk = freeChunks.poll();
            if (chunk == null) {
                if (allocatedChunks < maxChunks) {
                    allocatedChunks++;
                    allocate = true;
                } else {
                    evictForOneChunk();
                    chunk = freeChunks.poll();
                    if (chunk == null) {
                        throw new StorageFullException("memory store full (" + ByteSize.format(capacity)
                                + "): every stored byte is held by a reader or a write in progress");
                    }
                }
            }
            if (!allocate) {
                e.addChunk(chunk);
                return chunk;
            }
        }
        // Allocation of a new direct buffer happens outside the lock; the slot was reserved above.
        ByteBuffer fresh;
        try {
            fresh = ByteBuffer.allocateDirect(chunkSize);
        } catch (OutOfMemoryError oom) {
            synchronized (lock) {
                allocatedChunks--;
            }
            throw new StorageFullException("cannot allocate off-heap memory for the memory store ("
                    + oom.getMessage() + "); raise -XX:MaxDirectMemorySize or lower the capacity");
        }
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the memory store is closed");
            }
            e.addChunk(fresh);
        }
        return fresh;
    }

    /** Evicts unpinned objects in policy order until a chunk is free or none is left. Caller holds {@link #lock}. */
    private void evictForOneChunk() {
        List<Entry> pinned = null;
        while (freeChunks.isEmpty()) {
            CacheKey victim = policy.evict();
            if (victim == null) {
                break;
            }
            Entry e = index.get(victim);
            if (e == null) {
                continue;
            }
            if (e.refs > 1) {
                if (pinned == null) {
                    pinned = new ArrayList<>();
                }
                pinned.add(e);
                continue;
            }
            index.remove(victim);
            counters.evictions.increment();
            counters.evictedBytes.add(e.progress.readable());
            release(e);
        }
        if (pinned != null) {
            for (Entry e : pinned) {
                policy.onInsert(e.key, e.progress.readable());
            }
        }
    }

    /** One object version: its chunks and its write progress. See the class comment for what guards what. */
    private static final class Entry {
        final CacheKey key;
        final WriteProgress progress;
        volatile ObjectMetadata metadata;
        /** Published before the progress covers them: elements below chunkCount are set before their bytes are readable. */
        volatile ByteBuffer[] chunks = new ByteBuffer[4];
        /** Guarded by the store lock. */
        int chunkCount;
        /** Guarded by the store lock. Starts with the writer's reference. */
        int refs = 1;
        /** Bytes copied in; writer-thread only. */
        long written;

        Entry(CacheKey key, ObjectMetadata metadata) {
            this.key = key;
            this.progress = WriteProgress.writing(key);
            this.metadata = metadata;
        }

        void addChunk(ByteBuffer chunk) {
            ByteBuffer[] cs = chunks;
            if (chunkCount == cs.length) {
                cs = java.util.Arrays.copyOf(cs, cs.length * 2);
            }
            cs[chunkCount++] = chunk;
            chunks = cs;
        }
    }

    /** The writer of one entry. Its monitor serializes writes with an abort from another thread. */
    private final class Writer implements ObjectWriter {
        private final Entry entry;
        /** The chunk being filled and how far; guarded by this writer's monitor. */
        private ByteBuffer current;
        private int currentFill;

        Writer(Entry entry) {
            this.entry = entry;
        }

        @Override
        public CacheKey key() {
            return entry.key;
        }

        @Override
        public void write(ByteBuffer chunk) throws StorageFullException {
            long written;
            try {
                written = writeLocked(chunk);
            } catch (StorageFullException | RuntimeException e) {
                abort();
                throw e;
            }
            entry.progress.advance(written); // outside the writer's monitor: followers' callbacks may run here
        }

        /** Copies {@code src} in; returns the bytes written so far. */
        private synchronized long writeLocked(ByteBuffer src) throws StorageFullException {
            requireWriting();
            int total = src.remaining();
            while (src.hasRemaining()) {
                if (current == null || currentFill == chunkSize) {
                    current = takeChunk(entry);
                    currentFill = 0;
                }
                int n = Math.min(src.remaining(), chunkSize - currentFill);
                current.put(currentFill, src, src.position(), n);
                src.position(src.position() + n);
                currentFill += n;
                entry.written += n;
            }
            counters.bytesWritten.add(total);
            return entry.written;
        }

        private void requireWriting() {
            WriteProgress.State s = entry.progress.state();
            if (s != WriteProgress.State.WRITING) {
                throw new IllegalStateException("the write of '" + entry.key + "' was already "
                        + (s == WriteProgress.State.COMMITTED ? "committed" : "aborted"));
            }
        }

        @Override
        public synchronized long written() {
            return entry.written;
        }

        @Override
        public StoredObject follow() {
            synchronized (lock) {
                requireWriting();
                retain(entry);
            }
            return new Handle(entry, entry.metadata);
        }

        @Override
        public void commit(ObjectMetadata finalMetadata) {
            Objects.requireNonNull(finalMetadata, "finalMetadata");
            synchronized (this) {
                requireWriting();
                if (finalMetadata.length() != entry.written) {
                    throw new IllegalArgumentException("final metadata of '" + entry.key + "' gives length "
                            + finalMetadata.length() + " but " + entry.written + " bytes were written");
                }
                synchronized (lock) {
                    checkOpen();
                    entry.metadata = finalMetadata;
                }
                // Complete before visible: a reader that finds the entry sees its final length and state.
                entry.progress.commit(entry.written);
                synchronized (lock) {
                    if (!closed) {
                        Entry previous = index.put(entry.key, entry);
                        if (previous != null) {
                            release(previous);
                        }
                        policy.onInsert(entry.key, entry.written);
                    }
                }
            }
            counters.writesCommitted.increment();
        }

        @Override
        public void commit() {
            commit(entry.metadata.withLength(written()));
        }

        @Override
        public void abort() {
            synchronized (this) {
                if (!entry.progress.abort()) {
                    return;
                }
                synchronized (lock) {
                    release(entry); // followers keep their own references to the chunks
                }
                current = null;
            }
            counters.writesAborted.increment();
        }

        @Override
        public void close() {
            abort();
        }
    }

    /** A reader's reference to an entry; holds one reference count until closed. Reads take no lock. */
    private final class Handle extends AbstractStoredObject {
        private final Entry entry;

        Handle(Entry entry, ObjectMetadata metadata) {
            super(entry.progress, metadata);
            this.entry = entry;
        }

        @Override
        protected int readAvailable(long position, ByteBuffer dst, int length) {
            ByteBuffer[] chunks = entry.chunks;
            int copied = 0;
            long pos = position;
            while (copied < length) {
                ByteBuffer chunk = chunks[(int) (pos / chunkSize)];
                int off = (int) (pos % chunkSize);
                int n = Math.min(length - copied, chunkSize - off);
                dst.put(dst.position(), chunk, off, n);
                dst.position(dst.position() + n);
                pos += n;
                copied += n;
            }
            counters.bytesRead.add(copied);
            return copied;
        }

        @Override
        protected Optional<ByteBuffer> viewAvailable(long position, int length) {
            ByteBuffer chunk = entry.chunks[(int) (position / chunkSize)];
            int off = (int) (position % chunkSize);
            int n = Math.min(length, chunkSize - off);
            counters.bytesRead.add(n);
            return Optional.of(chunk.slice(off, n).asReadOnlyBuffer());
        }

        @Override
        protected void release() {
            synchronized (lock) {
                MemoryStore.this.release(entry);
            }
        }
    }
}
