package org.edgelab.link.kernel;

import java.util.concurrent.atomic.AtomicLong;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/**
 * A queue of packets that all wait the same delay, in native memory so that a packet goes from the TUN device into
 * the queue and back out with one read and one write and nothing on the Java heap. Each record is a 16-byte header
 * (the time it is due, its length) and the packet, 8-byte aligned; a record never wraps around the end (a marker, or
 * too little room for a header, sends the reader back to the start).
 *
 * <p>Single producer, single consumer: {@link #reserve}/{@link #commit} on one thread, {@link #peek}/{@link #release}
 * on another; the positions are published through atomics. Never blocks.
 */
final class DelayRing {
    static final int HEADER = 16;
    /** The largest read: a 64 KiB packet and the virtio header in front of it. */
    static final int MAX_PACKET = 65536 + LibC.VNET_HDR_SIZE;
    private static final int WRAP = -1;

    final long delayNanos;
    private final Memory memory;
    private final long capacity;
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();
    private long reserved = -1;
    private long peekedLength;

    /** A ring of about {@code bytes} (at least room for two largest packets) for packets delayed by {@code delayNanos}. */
    DelayRing(long bytes, long delayNanos) {
        this.capacity = Math.max(2 * align(HEADER + MAX_PACKET), align(bytes));
        this.memory = new Memory(capacity);
        this.delayNanos = delayNanos;
    }

    /** Producer: where to read the next packet (room for {@link #MAX_PACKET} bytes), or null when the ring is full. */
    Pointer reserve() {
        long t = tail.get();
        long offset = t % capacity;
        long need = HEADER + MAX_PACKET;
        if (offset + need > capacity) {
            long waste = capacity - offset;
            if (t + waste + need - head.get() > capacity) {
                return null;
            }
            if (waste >= HEADER) {
                memory.setInt(offset + 8, WRAP);
            }
            t += waste;
            offset = 0;
        } else if (t + need - head.get() > capacity) {
            return null;
        }
        reserved = t;
        return memory.share(offset + HEADER);
    }

    /** Producer: the packet just read into the reserved place is {@code length} bytes, due at {@code dueNanos}. */
    void commit(int length, long dueNanos) {
        long offset = reserved % capacity;
        memory.setLong(offset, dueNanos);
        memory.setInt(offset + 8, length);
        tail.set(reserved + align(HEADER + length));
        reserved = -1;
    }

    /** True when the ring holds no packet (as seen now). */
    boolean isEmpty() {
        skipWrap();
        return head.get() == tail.get();
    }

    /** Consumer: the due time of the oldest packet, or {@link Long#MAX_VALUE} when there is none. */
    long peekDue() {
        skipWrap();
        long h = head.get();
        if (h == tail.get()) {
            return Long.MAX_VALUE;
        }
        long offset = h % capacity;
        peekedLength = memory.getInt(offset + 8);
        return memory.getLong(offset);
    }

    /** Consumer: the oldest packet's bytes (after {@link #peekDue} found one). */
    Pointer peekPacket() {
        return memory.share(head.get() % capacity + HEADER);
    }

    /** Consumer: the oldest packet's length (after {@link #peekDue} found one). */
    int peekLength() {
        return (int) peekedLength;
    }

    /** Consumer: drops the oldest packet (it has been written out). */
    void release() {
        head.set(head.get() + align(HEADER + peekedLength));
    }

    private void skipWrap() {
        long h = head.get();
        if (h == tail.get()) {
            return;
        }
        long offset = h % capacity;
        if (capacity - offset < HEADER || memory.getInt(offset + 8) == WRAP) {
            head.set(h + (capacity - offset));
        }
    }

    private static long align(long n) {
        return (n + 7) & ~7L;
    }
}
