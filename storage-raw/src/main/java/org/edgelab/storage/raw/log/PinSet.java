package org.edgelab.storage.raw.log;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import org.edgelab.storage.api.StorageException;

/**
 * The segments one reader or writer keeps from being reclaimed, one entry per pin taken. Pins are
 * added by {@link SegmentSlots} under the lookup lock; {@link #release} and {@link #force} may be
 * called from the holder's thread and take that lock themselves.
 */
final class PinSet {
    private final SegmentSlots owner;
    private Segment[] segments = new Segment[4];
    private int count;
    private boolean released;

    PinSet(SegmentSlots owner) {
        this.owner = owner;
    }

    /** Adds a pin (the slot's count is already raised); lookup lock held. */
    void add(Segment s) {
        if (count == segments.length) {
            segments = Arrays.copyOf(segments, count * 2);
        }
        segments[count++] = s;
    }

    int size() {
        return count;
    }

    Segment get(int i) {
        return segments[i];
    }

    /** Marks the set released; false if it already was. Lookup lock held. */
    boolean markReleased() {
        if (released) {
            return false;
        }
        released = true;
        return true;
    }

    /** Releases every pin; idempotent. */
    void release() {
        owner.release(this);
    }

    /** Forces the pinned segments to the device (sync=commit). Blocks on the disks. */
    void force() throws StorageException {
        Set<Segment> distinct = new LinkedHashSet<>();
        java.util.concurrent.locks.ReentrantLock lock = owner.lookupLock();
        lock.lock();
        try {
            distinct.addAll(Arrays.asList(segments).subList(0, count));
        } finally {
            lock.unlock();
        }
        for (Segment s : distinct) {
            s.force();
        }
    }
}
