package org.edgelab.cache.server;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;

/** A stored object over a byte array, for handler tests: grows by {@link #append}, can lend views or not. */
final class ArrayStoredObject implements StoredObject {

    private final byte[] data;
    private final boolean lendsViews;
    private final List<CompletableFuture<Long>> waiters = new ArrayList<>();
    private int available;
    private boolean complete;
    private boolean aborted;
    boolean closed;
    /** When set, bytes are also offered as slices of this file (which must hold the same data). */
    java.nio.channels.FileChannel file;
    int maxSlice = Integer.MAX_VALUE;

    ArrayStoredObject(byte[] data, int available, boolean complete, boolean lendsViews) {
        this.data = data;
        this.available = available;
        this.complete = complete;
        this.lendsViews = lendsViews;
    }

    void append(int n, boolean nowComplete) {
        available += n;
        complete = nowComplete;
        List<CompletableFuture<Long>> w = new ArrayList<>(waiters);
        waiters.clear();
        w.forEach(f -> f.complete((long) available));
    }

    void abort() {
        aborted = true;
        List<CompletableFuture<Long>> w = new ArrayList<>(waiters);
        waiters.clear();
        w.forEach(f -> f.completeExceptionally(new WriteAbortedException(key())));
    }

    @Override
    public CacheKey key() {
        return CacheKey.of("test");
    }

    @Override
    public ObjectMetadata metadata() {
        return new ObjectMetadata(200, List.of(), complete ? data.length : ObjectMetadata.UNKNOWN_LENGTH, 0, 0,
                ObjectMetadata.NEVER);
    }

    @Override
    public long availableLength() {
        return available;
    }

    @Override
    public boolean isComplete() {
        return complete;
    }

    @Override
    public CompletableFuture<Long> awaitLength(long minLength) {
        if (aborted) {
            return CompletableFuture.failedFuture(new WriteAbortedException(key()));
        }
        if (available >= minLength || complete) {
            return CompletableFuture.completedFuture((long) available);
        }
        CompletableFuture<Long> f = new CompletableFuture<>();
        waiters.add(f);
        return f;
    }

    @Override
    public int read(long position, ByteBuffer dst) {
        if (position >= available) {
            return complete ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), available - position);
        dst.put(data, (int) position, n);
        return n;
    }

    @Override
    public Optional<ByteBuffer> view(long position, int maxLength) {
        if (!lendsViews || position >= available) {
            return Optional.empty();
        }
        int n = (int) Math.min(Math.min(maxLength, 1000), available - position);
        return Optional.of(ByteBuffer.wrap(data, (int) position, n).slice().asReadOnlyBuffer());
    }

    @Override
    public Optional<org.edgelab.storage.api.FileSlice> fileSlice(long position, long maxLength) {
        if (file == null || position >= available) {
            return Optional.empty();
        }
        long n = Math.min(Math.min(maxLength, maxSlice), available - position);
        return Optional.of(new org.edgelab.storage.api.FileSlice(file, position, n));
    }

    @Override
    public void close() {
        closed = true;
    }
}
