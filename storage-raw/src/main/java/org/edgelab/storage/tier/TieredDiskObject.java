package org.edgelab.storage.tier;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.StoredObject;

/**
 * An object served from the disk tier. It watches its reader: once the reader has read
 * {@code sequential-after} contiguous bytes in order it counts as sequential, which switches on
 * the read-ahead window (when configured) and, with {@code bypass-sequential}, keeps the object
 * out of memory (a promotion deferred to {@link #close()} happens only for readers that never
 * became sequential). Zero-copy slices are passed through from the disk engine. Used by one
 * reader thread at a time, as a {@link StoredObject} normally is.
 */
final class TieredDiskObject implements StoredObject {

    private final TieredStore tier;
    private final StoredObject disk;
    private final boolean promoteOnCloseUnlessSequential;
    private final long promotionVersion;
    private final AtomicBoolean closed = new AtomicBoolean();
    private long nextExpected = -1;
    private long contiguous;
    private boolean sequential;
    private ReadAheadWindow readAhead;

    TieredDiskObject(TieredStore tier, StoredObject disk, boolean promoteOnCloseUnlessSequential, long promotionVersion) {
        this.tier = tier;
        this.disk = disk;
        this.promoteOnCloseUnlessSequential = promoteOnCloseUnlessSequential;
        this.promotionVersion = promotionVersion;
    }

    @Override
    public CacheKey key() {
        return disk.key();
    }

    @Override
    public ObjectMetadata metadata() {
        return disk.metadata();
    }

    @Override
    public long availableLength() {
        return disk.availableLength();
    }

    @Override
    public boolean isComplete() {
        return disk.isComplete();
    }

    @Override
    public CompletableFuture<Long> awaitLength(long minLength) {
        return disk.awaitLength(minLength);
    }

    @Override
    public int read(long position, ByteBuffer dst) throws IOException {
        if (closed.get()) {
            throw new IllegalStateException("stored object '" + key() + "' is closed");
        }
        int n;
        if (readAhead != null) {
            n = readAhead.read(position, dst);
        } else {
            n = disk.read(position, dst);
        }
        if (n > 0) {
            track(position, n);
        }
        return n;
    }

    @Override
    public Optional<ByteBuffer> view(long position, int maxLength) {
        return disk.view(position, maxLength);
    }

    @Override
    public Optional<FileSlice> fileSlice(long position, long maxLength) {
        Optional<FileSlice> slice = disk.fileSlice(position, maxLength);
        slice.ifPresent(s -> track(position, s.length()));
        return slice;
    }

    private void track(long position, long n) {
        contiguous = position == nextExpected ? contiguous + n : n;
        nextExpected = position + n;
        if (!sequential && contiguous >= tier.settings().sequentialAfterBytes()) {
            sequential = true;
            if (promoteOnCloseUnlessSequential) {
                tier.counters().bypassedSequential.increment();
            }
            if (tier.settings().readAheadBytes() > 0 && disk.isComplete()) {
                readAhead = tier.newReadAhead(disk);
                readAhead.prime(nextExpected);
            }
        }
    }

    /** Returns whether the reader was detected as sequential. */
    boolean isSequential() {
        return sequential;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (readAhead != null) {
            readAhead.close();
        }
        disk.close();
        if (promoteOnCloseUnlessSequential && !sequential) {
            tier.promote(key(), promotionVersion);
        }
    }
}
