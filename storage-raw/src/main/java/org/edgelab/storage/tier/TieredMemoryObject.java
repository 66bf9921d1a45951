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
 * An object served from the memory tier, holding a pin on its disk copy until closed. Reads and
 * views come from memory. Thread-safe as the memory object it wraps.
 */
final class TieredMemoryObject implements StoredObject {

    private final StoredObject memory;
    private final PinnableStore.Pin diskPin;
    private final AtomicBoolean closed = new AtomicBoolean();

    TieredMemoryObject(StoredObject memory, PinnableStore.Pin diskPin) {
        this.memory = memory;
        this.diskPin = diskPin;
    }

    @Override
    public CacheKey key() {
        return memory.key();
    }

    @Override
    public ObjectMetadata metadata() {
        return memory.metadata();
    }

    @Override
    public long availableLength() {
        return memory.availableLength();
    }

    @Override
    public boolean isComplete() {
        return memory.isComplete();
    }

    @Override
    public CompletableFuture<Long> awaitLength(long minLength) {
        return memory.awaitLength(minLength);
    }

    @Override
    public int read(long position, ByteBuffer dst) throws IOException {
        return memory.read(position, dst);
    }

    @Override
    public Optional<ByteBuffer> view(long position, int maxLength) {
        return memory.view(position, maxLength);
    }

    @Override
    public Optional<FileSlice> fileSlice(long position, long maxLength) {
        return memory.fileSlice(position, maxLength);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                memory.close();
            } finally {
                diskPin.close();
            }
        }
    }
}
