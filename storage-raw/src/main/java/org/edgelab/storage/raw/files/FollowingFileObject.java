package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;

/**
 * A reader following a write in progress: it reads the temporary file through its own descriptor
 * (which stays valid after the rename on commit) up to the length the writer has published.
 * Thread-safe: positional reads only.
 */
final class FollowingFileObject implements StoredObject {

    private final CacheKey key;
    private final ObjectMetadata metadata;
    private final WriteProgress progress;
    private final FileChannel channel;
    private final int headerLength;
    private final AtomicBoolean closed = new AtomicBoolean();

    FollowingFileObject(CacheKey key, ObjectMetadata metadata, WriteProgress progress, FileChannel channel,
                        int headerLength) {
        this.key = key;
        this.metadata = metadata;
        this.progress = progress;
        this.channel = channel;
        this.headerLength = headerLength;
    }

    @Override
    public CacheKey key() {
        return key;
    }

    @Override
    public ObjectMetadata metadata() {
        return metadata;
    }

    @Override
    public long availableLength() {
        return progress.written();
    }

    @Override
    public boolean isComplete() {
        return progress.isCommitted();
    }

    @Override
    public CompletableFuture<Long> awaitLength(long minLength) {
        return progress.await(minLength);
    }

    @Override
    public int read(long position, ByteBuffer dst) throws IOException {
        if (closed.get()) {
            throw new IllegalStateException("stored object '" + key + "' is closed");
        }
        if (progress.isAborted()) {
            throw new WriteAbortedException(key);
        }
        boolean complete = progress.isCommitted();
        long available = progress.written();
        if (position >= available) {
            return complete ? -1 : 0;
        }
        int want = (int) Math.min(dst.remaining(), available - position);
        ByteBuffer target = dst.duplicate();
        target.limit(target.position() + want);
        int total = 0;
        while (target.hasRemaining()) {
            int n = channel.read(target, headerLength + position + total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        if (progress.isAborted()) {
            throw new WriteAbortedException(key);
        }
        dst.position(dst.position() + total);
        return total;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // read-only descriptor
            }
        }
    }
}
