package org.edgelab.storage.lmdb;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Direct buffers of one chunk each, reused between writers: a chunk is filled by its writer,
 * handed to the writer thread and comes back once committed. Keeps at most {@code maxIdle}
 * buffers; more are allocated when needed and left to the collector. Thread-safe.
 */
final class ChunkBufferPool {

    private final int chunkSize;
    private final int maxIdle;
    private final ConcurrentLinkedQueue<ByteBuffer> idle = new ConcurrentLinkedQueue<>();
    private final AtomicInteger idleCount = new AtomicInteger();

    ChunkBufferPool(int chunkSize, int maxIdle) {
        this.chunkSize = chunkSize;
        this.maxIdle = maxIdle;
    }

    /** Returns a cleared buffer of {@code chunkSize} bytes. */
    ByteBuffer take() {
        ByteBuffer b = idle.poll();
        if (b == null) {
            return ByteBuffer.allocateDirect(chunkSize);
        }
        idleCount.decrementAndGet();
        return b.clear();
    }

    /** Gives a buffer back; the caller must not touch it afterwards. */
    void give(ByteBuffer b) {
        if (idleCount.incrementAndGet() <= maxIdle) {
            idle.offer(b);
        } else {
            idleCount.decrementAndGet();
        }
    }
}
