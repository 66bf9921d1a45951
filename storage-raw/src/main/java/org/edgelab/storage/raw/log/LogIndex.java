package org.edgelab.storage.raw.log;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntToLongFunction;

/**
 * The in-memory index of {@code raw-log}: an open-addressed, linearly probed table keyed by
 * {@link org.edgelab.storage.api.CacheKey#hash64()}, holding for each object two packed longs
 * (where its commit record is, and how much it spans and stores). Three parallel {@code long}
 * arrays, so an object costs 24 bytes divided by the load factor (kept between 0.53 and 0.8:
 * 30 to 45 bytes per object). Two keys with the same 64-bit hash share one entry: the newer
 * replaces the older, and readers verify the key stored on disk. Not thread-safe: the store
 * guards it with its lookup lock, which is never held across I/O.
 *
 * <p>{@code location} packs the commit record's segment slot (24 bits), its offset in the slot
 * divided by 8 (37 bits) and a saturating hit counter (3 bits). {@code extent} packs whether this
 * process has verified the object's body against its checksums (1 bit), how many segment
 * generations before the commit record's the object's first byte lies (15 bits) and the bytes the
 * object occupies in the log (48 bits).
 */
final class LogIndex {

    static final int MAX_SLOTS = 1 << 24;
    static final int MAX_SPAN = 0x7fff;
    private static final long VERIFIED = 1L << 63;
    private static final double MAX_LOAD = 0.8;
    private static final long EMPTY = 0;

    private long[] hashes;
    private long[] locations;
    private long[] extents;
    private int size;
    /** The bytes the indexed objects occupy in the log. */
    private long liveBytes;

    LogIndex(int initialCapacity) {
        allocate(Math.max(16, initialCapacity));
    }

    static long location(int slot, long offset, int hits) {
        if (slot < 0 || slot >= MAX_SLOTS || (offset & 7) != 0 || offset < 0 || offset >= (1L << 40)) {
            throw new IllegalArgumentException("cannot index slot " + slot + " offset " + offset);
        }
        return ((long) slot << 40) | ((offset >>> 3) << 3) | Math.min(hits, 7);
    }

    static int slot(long location) {
        return (int) (location >>> 40);
    }

    static long offset(long location) {
        return ((location >>> 3) & ((1L << 37) - 1)) << 3;
    }

    static int hits(long location) {
        return (int) (location & 7);
    }

    static long extent(int span, long storedBytes) {
        if (span < 0 || span > MAX_SPAN || storedBytes < 0 || storedBytes >= (1L << 48)) {
            throw new IllegalArgumentException("cannot index span " + span + " size " + storedBytes);
        }
        return ((long) span << 48) | storedBytes;
    }

    static int span(long extent) {
        return (int) ((extent >>> 48) & MAX_SPAN);
    }

    /** Returns whether the extent word says this process verified the object's body. */
    static boolean verified(long extent) {
        return (extent & VERIFIED) != 0;
    }

    /** Returns the extent word with the verified flag set or cleared. */
    static long verified(long extent, boolean verified) {
        return verified ? extent | VERIFIED : extent & ~VERIFIED;
    }

    /** Marks the object at table position {@code pos} verified. */
    void markVerifiedAt(int pos) {
        extents[pos] |= VERIFIED;
    }

    static long storedBytes(long extent) {
        return extent & ((1L << 48) - 1);
    }

    private static long stored(long hash) {
        return hash == EMPTY ? 1 : hash;
    }

    private int home(long hash, int capacity) {
        long mixed = hash * 0x9E3779B97F4A7C15L;
        return (int) Long.remainderUnsigned(mixed ^ (mixed >>> 29), capacity);
    }

    /** Returns the table position of {@code hash}, or -1. */
    int find(long hash) {
        long h = stored(hash);
        int cap = hashes.length;
        for (int i = home(h, cap); ; i = i + 1 == cap ? 0 : i + 1) {
            long at = hashes[i];
            if (at == EMPTY) {
                return -1;
            }
            if (at == h) {
                return i;
            }
        }
    }

    long hashAt(int pos) {
        return hashes[pos];
    }

    long locationAt(int pos) {
        return locations[pos];
    }

    long extentAt(int pos) {
        return extents[pos];
    }

    void setLocationAt(int pos, long location) {
        locations[pos] = location;
    }

    /** Returns the bytes the indexed objects occupy in the log. */
    long liveBytes() {
        return liveBytes;
    }

    /** Inserts or replaces the entry of {@code hash}. */
    void put(long hash, long location, long extent) {
        insert(hash, location, extent, true);
    }

    private void insert(long hash, long location, long extent, boolean count) {
        if (size + 1 > hashes.length * MAX_LOAD) {
            grow();
        }
        long h = stored(hash);
        int cap = hashes.length;
        for (int i = home(h, cap); ; i = i + 1 == cap ? 0 : i + 1) {
            long at = hashes[i];
            if (at == EMPTY) {
                hashes[i] = h;
                locations[i] = location;
                extents[i] = extent;
                size++;
                if (count) {
                    liveBytes += storedBytes(extent);
                }
                return;
            }
            if (at == h) {
                if (count) {
                    liveBytes += storedBytes(extent) - storedBytes(extents[i]);
                }
                locations[i] = location;
                extents[i] = extent;
                return;
            }
        }
    }

    /** Removes the entry for {@code hash}; returns whether there was one. */
    boolean remove(long hash) {
        int pos = find(hash);
        if (pos < 0) {
            return false;
        }
        removeAt(pos);
        return true;
    }

    /** Removes the entry for {@code hash} if it still points at the record at {@code location}; returns whether it did. */
    boolean removeIfAt(long hash, long location) {
        int pos = find(hash);
        if (pos < 0 || !sameRecord(locations[pos], location)) {
            return false;
        }
        removeAt(pos);
        return true;
    }

    /** Returns whether two location words name the same record (they may differ in their hit count). */
    static boolean sameRecord(long a, long b) {
        return (a >>> 3) == (b >>> 3);
    }

    /**
     * Removes every entry whose bytes may lie in a segment of one of {@code sortedGenerations}:
     * its commit record's generation ({@code generationOfSlot} of its slot) less its span reaches
     * one of them. Counts each removal in {@code counter} and its bytes in {@code bytes} (if not
     * null); returns how many were removed.
     */
    int removeTouching(long[] sortedGenerations, IntToLongFunction generationOfSlot, LongAdder counter, LongAdder bytes) {
        return removeTouching(sortedGenerations, generationOfSlot, counter, bytes, null, null);
    }

    /**
     * {@link #removeTouching(long[], IntToLongFunction, LongAdder, LongAdder)}, sparing the entries whose hash
     * {@code spare} accepts (when not null: objects known to have no bytes left in those segments, which the span
     * alone cannot tell), and counting in {@code read} (when not null) the entries removed that had been read since
     * they were written.
     */
    int removeTouching(long[] sortedGenerations, IntToLongFunction generationOfSlot, LongAdder counter, LongAdder bytes,
                       java.util.function.LongPredicate spare, LongAdder read) {
        if (sortedGenerations.length == 0) {
            return 0;
        }
        LongList victims = new LongList();
        forEach((hash, location, extent) -> {
            long high = generationOfSlot.applyAsLong(slot(location));
            if (touches(sortedGenerations, high - span(extent), high) && (spare == null || !spare.test(hash))) {
                victims.add(hash);
            }
        });
        for (int i = 0; i < victims.size(); i++) {
            int pos = find(victims.get(i));
            long stored = storedBytes(extents[pos]);
            if (read != null && hits(locationAt(pos)) > 0) {
                read.increment();
            }
            removeAt(pos);
            counter.increment();
            if (bytes != null) {
                bytes.add(stored);
            }
        }
        return victims.size();
    }

    /** Returns whether one of {@code sortedGenerations} lies in [{@code low}, {@code high}]. */
    static boolean touches(long[] sortedGenerations, long low, long high) {
        int i = Arrays.binarySearch(sortedGenerations, low);
        if (i >= 0) {
            return true;
        }
        int insertion = -i - 1;
        return insertion < sortedGenerations.length && sortedGenerations[insertion] <= high;
    }

    /** Removes the entry at table position {@code pos} (backward-shift deletion, no tombstones). */
    void removeAt(int pos) {
        liveBytes -= storedBytes(extents[pos]);
        int cap = hashes.length;
        int hole = pos;
        int i = pos;
        while (true) {
            i = i + 1 == cap ? 0 : i + 1;
            long h = hashes[i];
            if (h == EMPTY) {
                break;
            }
            int home = home(h, cap);
            // move entry i into the hole unless its home lies cyclically in (hole, i]
            boolean homeBetween = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!homeBetween) {
                hashes[hole] = h;
                locations[hole] = locations[i];
                extents[hole] = extents[i];
                hole = i;
            }
        }
        hashes[hole] = EMPTY;
        locations[hole] = 0;
        extents[hole] = 0;
        size--;
    }

    int size() {
        return size;
    }

    int capacity() {
        return hashes.length;
    }

    /** Returns the bytes the table's arrays occupy. */
    long allocatedBytes() {
        return 3L * Long.BYTES * hashes.length;
    }

    /** Calls {@code visitor} for every entry; the visitor must not modify the index. */
    void forEach(EntryVisitor visitor) {
        for (int i = 0; i < hashes.length; i++) {
            if (hashes[i] != EMPTY) {
                visitor.visit(hashes[i], locations[i], extents[i]);
            }
        }
    }

    /** Receives index entries. */
    interface EntryVisitor {
        void visit(long hash, long location, long extent);
    }

    private void grow() {
        long[] oldHashes = hashes;
        long[] oldLocations = locations;
        long[] oldExtents = extents;
        allocate((int) Math.min(Integer.MAX_VALUE - 8, oldHashes.length * 3L / 2 + 1));
        size = 0;
        for (int i = 0; i < oldHashes.length; i++) {
            if (oldHashes[i] != EMPTY) {
                insert(oldHashes[i], oldLocations[i], oldExtents[i], false);
            }
        }
    }

    private void allocate(int capacity) {
        hashes = new long[capacity];
        locations = new long[capacity];
        extents = new long[capacity];
        Arrays.fill(hashes, EMPTY);
    }
}
