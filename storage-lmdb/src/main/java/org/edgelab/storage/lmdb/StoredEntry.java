package org.edgelab.storage.lmdb;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.spi.WriteProgress;

/**
 * One object body in the chunk database (one id), from the first chunk of its write until its
 * chunks are deleted: its {@link WriteProgress} (how much is readable, whether it is complete or
 * aborted) and how many readers pin it. Bodies that are removed, evicted or aborted stay in the map
 * until the last reader unpins them, then {@code onReleased} runs exactly once; a follower of an
 * aborted write keeps reading what was written, from the map or from the chunk buffers the write
 * still held. Thread-safe (atomics and the progress's own monitor).
 */
final class StoredEntry {

    private static final int REMOVED = 1 << 30;

    final CacheKey key;
    final byte[] keyBytes;
    final long id;
    final int chunkSize;
    /** Whether the chunks carry a checksum trailer (format 2; objects written before checksums do not). */
    final boolean checksummed;
    private final Consumer<StoredEntry> onReleased;
    private final AtomicInteger pinsAndRemoved = new AtomicInteger();
    final WriteProgress progress;
    /** Map bytes charged to the budget for this body (and its metadata record once committed). */
    private volatile long footprint;
    private volatile int chunkCount;
    /** The committed metadata, kept once known (at commit, or at the first lookup after a restart). */
    private volatile ObjectMetadata metadata;
    /**
     * Chunks of a write in progress that are not committed yet (the one being filled included),
     * by index, so followers read every byte written so far; null once the write ended.
     */
    private volatile ConcurrentHashMap<Integer, ByteBuffer> unflushed = new ConcurrentHashMap<>();
    /** Set once a follower may have seen a buffer of {@link #unflushed}: they are then never recycled. */
    private volatile boolean followed;
    /** Whether this process knows the chunks good: it wrote them, or checked them all since the store opened. */
    private volatile boolean verified;
    /**
     * When the object was last read or written (epoch ms), for the recency file: set where the eviction policy is told
     * of a use, read by the recency writer without a lock.
     */
    private volatile long lastUsedMillis;

    /** An entry for a write beginning now: checksummed, and trusted (this process computes its checksums). */
    StoredEntry(CacheKey key, byte[] keyBytes, long id, int chunkSize, Consumer<StoredEntry> onReleased) {
        this(key, keyBytes, id, chunkSize, true, onReleased, WriteProgress.writing(key));
        this.verified = true;
    }

    private StoredEntry(CacheKey key, byte[] keyBytes, long id, int chunkSize, boolean checksummed,
                        Consumer<StoredEntry> onReleased, WriteProgress progress) {
        this.key = key;
        this.keyBytes = keyBytes;
        this.id = id;
        this.chunkSize = chunkSize;
        this.checksummed = checksummed;
        this.onReleased = onReleased;
        this.progress = progress;
    }

    /** Returns an entry for a committed object found when the store opened, not verified yet. */
    static StoredEntry recovered(CacheKey key, byte[] keyBytes, long id, int chunkSize, boolean checksummed, long length,
                                 long footprint, Consumer<StoredEntry> onReleased) {
        StoredEntry e = new StoredEntry(key, keyBytes, id, chunkSize, checksummed, onReleased,
                WriteProgress.committed(key, length));
        e.footprint = footprint;
        e.unflushed = null;
        e.chunkCount = Layout.chunkCount(length, chunkSize);
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

    long readableLength() {
        return progress.readable();
    }

    boolean isComplete() {
        return progress.isCommitted();
    }

    /** Returns whether the chunks still need a check before they are served (see {@link VerifyMode#ONCE}). */
    boolean needsVerification() {
        return checksummed && !verified;
    }

    /** Records that every chunk was found intact. */
    void verified() {
        verified = true;
    }

    long lastUsedMillis() {
        return lastUsedMillis;
    }

    /** Records a use (a lookup hit, a commit) at {@code millis}, or the last use found in the recency file at open. */
    void lastUsedMillis(long millis) {
        lastUsedMillis = millis;
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
        progress.advance(length);
    }

    /** Makes the buffer of chunk {@code index} (being filled or queued) readable by followers. */
    void holdUnflushed(int index, ByteBuffer chunk) {
        unflushed.put(index, chunk);
    }

    /**
     * Forgets an unflushed chunk now committed to LMDB (followers read it from there); returns
     * whether its buffer may be recycled, which is only when no follower could be reading it.
     */
    boolean forgetUnflushed(int index) {
        Map<Integer, ByteBuffer> m = unflushed;
        if (m != null) {
            m.remove(index);
        }
        return !followed;
    }

    /**
     * Forgets an unflushed chunk that will never reach LMDB (its batch failed, or the write was
     * aborted first) unless a follower may read it, which then goes on reading it from memory;
     * returns whether its buffer may be recycled.
     */
    boolean dropUnflushed(int index) {
        if (followed) {
            return false;
        }
        Map<Integer, ByteBuffer> m = unflushed;
        if (m != null) {
            m.remove(index);
        }
        return true;
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

    /** Returns whether a follower may have seen the write's buffers. */
    boolean followed() {
        return followed;
    }

    /** Records that the object is complete at {@code length}. */
    void complete(long length) {
        chunkCount = Layout.chunkCount(length, chunkSize);
        unflushed = null;
        progress.commit(length);
    }

    /**
     * Records that the write was aborted: waits for more fail. A follower keeps reading what was
     * written, so the unflushed buffers stay while one may read them.
     */
    void abort() {
        progress.abort();
        if (!followed) { // read after the abort is published: a follow() racing it either throws or is seen here
            unflushed = null;
        }
    }
}
