package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.StoredObject;

/**
 * A committed object file opened for reading. Its body was verified against its checksum before
 * this reference was handed out, so reads and {@link #fileSlice} serve the file directly. The
 * file stays readable after removal (the open descriptor keeps it). Thread-safe: positional reads only.
 */
final class CommittedFileObject implements StoredObject {

    private final RawFilesStore store;
    private final IndexEntry entry;
    private final FileChannel channel;
    private final ObjectMetadata metadata;
    private final AtomicBoolean closed = new AtomicBoolean();

    CommittedFileObject(RawFilesStore store, IndexEntry entry, FileChannel channel, ObjectMetadata metadata) {
        this.store = store;
        this.entry = entry;
        this.channel = channel;
        this.metadata = metadata;
    }

    IndexEntry entry() {
        return entry;
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
        return entry.bodyLength;
    }

    @Override
    public boolean isComplete() {
        return true;
    }

    @Override
    public CompletableFuture<Long> awaitLength(long minLength) {
        return CompletableFuture.completedFuture(entry.bodyLength);
    }

    @Override
    public int read(long position, ByteBuffer dst) throws IOException {
        ensureOpen();
        if (position < 0) {
            throw new IllegalArgumentException("position must be >= 0, got " + position);
        }
        if (position >= entry.bodyLength) {
            return -1;
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        int want = (int) Math.min(dst.remaining(), entry.bodyLength - position);
        ByteBuffer target = dst.duplicate();
        target.limit(target.position() + want);
        int total = 0;
        while (target.hasRemaining()) {
            int n = channel.read(target, entry.headerLength + position + total);
            if (n < 0) {
                store.dropCorrupt(entry, "file shrank under a reader");
                throw new CorruptObjectException("object file of '" + entry.key + "' was truncated: " + entry.path);
            }
            total += n;
        }
        dst.position(dst.position() + total);
        store.countRead(total);
        return total;
    }

    @Override
    public Optional<FileSlice> fileSlice(long position, long maxLength) {
        if (closed.get() || position < 0 || position >= entry.bodyLength || maxLength <= 0) {
            return Optional.empty();
        }
        long length = Math.min(maxLength, entry.bodyLength - position);
        store.countRead(length);
        return Optional.of(new FileSlice(channel, entry.headerLength + position, length));
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("stored object '" + entry.key + "' is closed");
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing was written through this channel: closing cannot lose data
            }
            store.releaseReader(entry);
        }
    }
}
