package org.edgelab.storage.lmdb;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.WriteAbortedException;

/**
 * One object body in the chunk database (one id), from the first chunk of its write until its
 * chunks are deleted: how much of it is committed, whether it is complete or aborted, and how many
 * readers pin it. Bodies that are removed or evicted stay in the map until the last reader
 * unpins them, then {@code onReleased} runs exactly once. Thread-safe (atomics; waiters under the
 * entry's monitor).
 */
final class StoredEntry {

    private static final int REMOVED = 1 << 30;

    enum Status { WRITING, COMPLETE, ABORTED }

    final CacheKey key;
    final byte[] keyBytes;
    final long id;
    final int chunkSize;
    private final Consumer<StoredEntry> onReleased;
    private final AtomicInteger pinsAndRemoved = new AtomicInteger();
    private volatile Status status;
    private volatile long readableLength;
    /** Map bytes charged to the budget for this body (and its metadata record once committed). */
    private volatile long footprint;
    private volatile int chunkCount;
    /** The committed metadata, kept once known (at commit, or at the first lookup after a restart). */
    private volatile ObjectMetadata metadata;
    private final List<Waiter> waiters = new ArrayList<>();
    private volatile boolean hasWaiters;
    /**
     * Chunks of a write in progress that are not committed yet (the one being filled included),
     * by index, so followers read every byte written so far; null once the write ended.
     */
    private volatile ConcurrentHashMap<Integer, ByteBuffer> unflushed = new ConcurrentHashMap<>();
    /** Set once a follower may have seen a buffer of {@link #unflushed}: they are then never recycled. */
    private volatile boolean followed;

    private record Waiter(long minLength, CompletableFuture<Long> future) {
    }

    StoredEntry(CacheKey key, byte[] keyBytes, long id, int chunkSize, Consumer<StoredEntry> onReleased) {
        this.key = key;
        this.keyBytes = keyBytes;
        this.id = id;
        this.chunkSize = chunkSize;
        this.onReleased = onReleased;
        this.status = Status.WRITING;
    }

    /** Returns an entry for a committed object found when the store opened. */
    static StoredEntry recovered(CacheKey key, byte[] keyBytes, long id, int chunkSize, long length, long footprint,
                                 Consumer<StoredEntry> onReleased) {
        StoredEntry e = new StoredEntry(key, keyBytes, id, chunkSize, onReleased);
        e.footprint = footprint;
        e.unflushed = null;
        e.complete(length);
        return e;
    }

    /** Pins the body for a reader; false once it was removed and fully unpinned. */
    boolean tryPin() {
        while (true) {
            int v = pinsAndRemoved.get();
            if ((v & REMOVED) != 0) {
                return false;
            }
            if (pinsAndRemoved.compareAndSet(v, v + 1)) {
                return true;
            }
        }
    }

    /** Pins the body for a follower of the write (always succeeds while the writer is open). */
    void pinForFollower() {
        pinsAndRemoved.incrementAndGet();
    }

    /** Releases a reader's pin. */
    void unpin() {
        int v = pinsAndRemoved.decrementAndGet();
        if (v == REMOVED) {
            onReleased.accept(this);
        }
    }

    /** Marks the body removed (replaced, removed, evicted or aborted); it is released once unpinned. */
    void markRemoved() {
        while (true) {
            int v = pinsAndRemoved.get();
            if ((v & REMOVED) != 0) {
                return;
            }
            if (pinsAndRemoved.compareAndSet(v, v | REMOVED)) {
                if (v == 0) {
                    onReleased.accept(this);
                }
                return;
            }
        }
    }

    boolean isPinned() {
        return (pinsAndRemoved.get() & ~REMOVED) != 0;
    }

    ObjectMetadata metadata() {
        return metadata;
    }

    void metadata(ObjectMetadata m) {
        synchronized (this) {
            metadata = m;
        }
    }

    /** Keeps {@code m} unless metadata is already known (a newer update wins over a lazy load); returns what is kept. */
    ObjectMetadata metadataIfAbsent(ObjectMetadata m) {
        synchronized (this) {
            if (metadata == null) {
                metadata = m;
            }
            return metadata;
        }
    }

    Status status() {
        return status;
    }

    long readableLength() {
        return readableLength;
    }

    long footprint() {
        return footprint;
    }

    void addFootprint(long bytes) {
        footprint += bytes;
    }

    int chunkCount() {
        return chunkCount;
    }

    void chunkEnqueued() {
        chunkCount++;
    }

    /** Records that {@code length} bytes are written (readable by followers), waking those waiting. */
    void advance(long length) {
        readableLength = length;
        if (hasWaiters) {
            settle();
        }
    }

    /** Makes the buffer of chunk {@code index} (being filled or queued) readable by followers. */
    void holdUnflushed(int index, ByteBuffer chunk) {
        unflushed.put(index, chunk);
    }

    /**
     * Forgets an unflushed chunk (committed to LMDB, or the write ended); returns whether its
     * buffer may be recycled, which is only when no follower could be reading it.
     */
    boolean forgetUnflushed(int index) {
        Map<Integer, ByteBuffer> m = unflushed;
        if (m != null) {
            m.remove(index);
        }
        return !followed;
    }

    /** Returns the in-memory buffer of chunk {@code index} if it is not committed yet, else null. */
    ByteBuffer unflushedChunk(int index) {
        Map<Integer, ByteBuffer> m = unflushed;
        return m == null ? null : m.get(index);
    }

    /** Notes that a follower reads this write: its buffers must not be recycled. */
    void markFollowed() {
        followed = true;
    }

    /** Records that the object is complete at {@code length}. */
    void complete(long length) {
        readableLength = length;
        chunkCount = Layout.chunkCount(length, chunkSize);
        status = Status.COMPLETE;
        unflushed = null;
        settle();
    }

    /** Records that the write was aborted: followers fail. */
    void abort() {
        status = Status.ABORTED;
        unflushed = null;
        settle();
    }

    /** Completes once {@code minLength} bytes are readable or the object is complete. */
    CompletableFuture<Long> awaitLength(long minLength) {
        CompletableFuture<Long> f = new CompletableFuture<>();
        synchronized (this) {
            waiters.add(new Waiter(minLength, f));
            hasWaiters = true;
        }
        settle();
        return f;
    }

    private void settle() {
        List<Runnable> toRun = new ArrayList<>();
        synchronized (this) {
            Status s = status;
            long len = readableLength;
            for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
                Waiter w = it.next();
                if (s == Status.ABORTED) {
                    toRun.add(() -> w.future.completeExceptionally(new WriteAbortedException(key)));
                    it.remove();
                } else if (s == Status.COMPLETE || len >= w.minLength) {
                    toRun.add(() -> w.future.complete(len));
                    it.remove();
                }
            }
            hasWaiters = !waiters.isEmpty();
        }
        toRun.forEach(Runnable::run);
    }
}
