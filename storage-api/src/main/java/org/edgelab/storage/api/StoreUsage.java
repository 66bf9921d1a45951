package org.edgelab.storage.api;

/**
 * A snapshot of a store's capacity and usage, in bytes and objects. {@code usedBytes} counts
 * everything the engine holds for objects (bodies, metadata it keeps in the budget, and bytes of
 * removed objects still pinned by readers) and never exceeds {@code capacityBytes}. Immutable.
 */
public record StoreUsage(long capacityBytes, long usedBytes, long objectCount) {
    /** Returns the bytes still free. */
    public long freeBytes() {
        return capacityBytes - usedBytes;
    }
}
