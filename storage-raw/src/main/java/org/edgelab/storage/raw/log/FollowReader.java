package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;

/**
 * A reader following a {@link LogWriter}: reads the bytes written so far straight from the
 * segment files and keeps the writer's segments pinned until closed. Thread-safe.
 */
final class FollowReader implements StoredObject {

    private final LogWriter writer;
    private final AtomicBoolean closed;

    FollowReader(LogWriter writer, boolean alreadyReleased) {
        this.writer = writer;
        this.closed = new AtomicBoolean(alreadyReleased);
    }

    @Override
    public CacheKey key() {
        return writer.key();
    }

    @Override
    public ObjectMetadata metadata() {
        return writer.initialMetadata();
    }

    @Override
    public long availableLength() {
        return writer.readable();
    }

    @Override
    public boolean isComplete() {
        return writer.isCommitted();
    }

    @Override
    public CompletableFuture<Long> awaitLength(long minLength) {
        return writer.await(minLength);
    }

    @Override
    public int read(long position, ByteBuffer dst) throws IOException {
        if (position < 0) {
            throw new IllegalArgumentException("position must be >= 0, got " + position);
        }
        if (writer.isAborted()) {
            throw new WriteAbortedException(writer.key());
        }
        boolean complete = writer.isCommitted();
        long available = writer.readable();
        if (position >= available) {
            return complete ? -1 : 0;
        }
        int total = 0;
        long pos = position;
        while (dst.hasRemaining() && pos < available) {
            LogWriter.Piece piece = writer.locate(pos);
            if (piece == null) {
                break;
            }
            int n = (int) Math.min(dst.remaining(), Math.min(piece.length(), available - pos));
            ByteBuffer part = dst.slice(dst.position(), n);
            writer.store().read(piece.slot(), part, piece.fileOffset());
            dst.position(dst.position() + n);
            total += n;
            pos += n;
        }
        if (writer.isAborted()) {
            throw new WriteAbortedException(writer.key());
        }
        writer.store().counters().bytesRead.add(total);
        return total;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            writer.followerClosed();
            writer.releaseHolder();
        }
    }
}
