package org.edgelab.storage.tier;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoredObject;

/**
 * Writes one object through to the disk tier and, when admitted, into memory as well. The disk
 * write is authoritative: its failure fails the write; a memory write that runs out of room or
 * grows past {@code bypass-above} is dropped and the object lives on disk only. Followers follow
 * the disk write. Written by one thread at a time.
 */
final class TieredWriter implements ObjectWriter {

    private final TieredStore tier;
    private final ObjectWriter disk;
    private final ObjectMetadata initialMetadata;
    private ObjectWriter memory;

    TieredWriter(TieredStore tier, ObjectWriter disk, ObjectWriter memory, ObjectMetadata initialMetadata) {
        this.tier = tier;
        this.disk = disk;
        this.memory = memory;
        this.initialMetadata = initialMetadata;
    }

    @Override
    public CacheKey key() {
        return disk.key();
    }

    @Override
    public void write(ByteBuffer chunk) throws IOException {
        ByteBuffer copy = memory == null ? null : chunk.duplicate();
        try {
            disk.write(chunk);
        } catch (IOException | RuntimeException e) {
            dropMemory();
            throw e;
        }
        if (memory != null) {
            long bypassAbove = tier.settings().bypassAboveBytes();
            if (bypassAbove > 0 && disk.written() > bypassAbove) {
                tier.counters().bypassedAbove.increment();
                dropMemory();
                return;
            }
            try {
                memory.write(copy);
            } catch (IOException | RuntimeException e) {
                dropMemory();
            }
        }
    }

    private void dropMemory() {
        if (memory != null) {
            memory.abort();
            memory = null;
        }
    }

    @Override
    public long written() {
        return disk.written();
    }

    @Override
    public StoredObject follow() {
        return disk.follow();
    }

    @Override
    public void commit() throws IOException {
        commit(initialMetadata.withLength(disk.written()));
    }

    @Override
    public void commit(ObjectMetadata finalMetadata) throws IOException {
        try {
            disk.commit(finalMetadata);
        } catch (IOException | RuntimeException e) {
            dropMemory();
            throw e;
        }
        tier.committed(key(), memory, finalMetadata, disk.written());
        memory = null;
    }

    @Override
    public void abort() {
        dropMemory();
        disk.abort();
    }

    @Override
    public void close() {
        abort();
    }
}
