package org.edgelab.storage.raw.log;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.edgelab.storage.api.CacheKey;

/**
 * Keeps recovery's rule "a newer record wins" true when segments are reclaimed out of order. A reclaim takes the oldest
 * segment nothing pins, so a reader holding the oldest one lets a newer one go first; if the newer one held the record
 * that replaced or removed a key (a commit of a newer version, a tombstone) and the older one still holds the key's
 * older record, a replay of the log would find that older record and nothing after it, and serve an object that was
 * replaced or removed. To prevent it, each segment remembers the keys whose records in an older segment its records
 * superseded ({@link #superseded}); a reclaim re-appends a tombstone for each such key whose older record may still be
 * live and whose newest record goes with the victim ({@link #carry}), and hands the memory on to the segment holding
 * the newest record of the others. A tombstone that finds no room (no active segment: a rotation with no free slot) is
 * written first into the next segment activated ({@link #activated}).
 *
 * <p>Segments covered by the newest checkpoint need no memory after a restart: recovery does not replay what lies
 * before the checkpoint's position, and the checkpoint has no entry for a key its segments replaced or removed. So
 * recovery rebuilds the memory only for the log it replays.
 *
 * <p>Two windows stay open: a crash between a reclaim with no active segment and the next activation's tombstones;
 * and, after a restart from a checkpoint, a later recovery that finds every checkpoint damaged and scans the whole
 * log while a segment from before that restart was reclaimed out of order. Either can bring back a superseded
 * record; both need a crash (the second also damage) at a rare moment.
 *
 * <p>Memory: one entry (the key and a generation) per replacing or removing record in a live segment; none in a log
 * whose keys are only ever added. Thread-safety: the store's lock, held by every caller (recovery takes it too).
 */
final class CarriedTombstones {

    private static final System.Logger LOG = System.getLogger(CarriedTombstones.class.getName());

    /** A key whose record in the segment of generation {@code olderGeneration} (or an older one) was superseded. */
    private record Superseded(CacheKey key, long olderGeneration) {
    }

    /** What one slot remembers, for the generation it held when the entries were added. */
    private static final class SlotMemory {
        long generation;
        final List<Superseded> entries = new ArrayList<>();
    }

    private final LogIndex index;
    private final SegmentSlots slots;
    private final SlotMemory[] bySlot;
    private final ArrayDeque<Superseded> pending = new ArrayDeque<>();
    private final LongAdder carried = new LongAdder();

    CarriedTombstones(LogIndex index, SegmentSlots slots) {
        this.index = index;
        this.slots = slots;
        this.bySlot = new SlotMemory[slots.count()];
    }

    /** Tombstones re-appended so far (stats, tests). */
    long carried() {
        return carried.sum();
    }

    /**
     * Notes that the record of {@code key} just written into slot {@code slot} (generation {@code generation})
     * supersedes the key's indexed record, when that lies in an older segment; returns the index position of that
     * record, or -1 if the key is not indexed (the caller then replaces or removes it). The store's lock held, and the
     * lookup lock while the store is shared.
     */
    int supersede(int slot, long generation, CacheKey key) {
        int pos = index.find(key.hash64());
        if (pos >= 0) {
            long older = slots.get(LogIndex.slot(index.locationAt(pos))).generation();
            if (older < generation) {
                remember(slot, generation, key, older);
            }
        }
        return pos;
    }

    private void remember(int slot, long generation, CacheKey key, long olderGeneration) {
        SlotMemory m = bySlot[slot];
        if (m == null) {
            m = bySlot[slot] = new SlotMemory();
        }
        if (m.generation != generation) {
            m.generation = generation;
            m.entries.clear();
        }
        m.entries.add(new Superseded(key, olderGeneration));
    }

    /**
     * Before {@code victim} (of generation {@code generation}) is reclaimed: for every key whose older record one of
     * its records superseded, while a sealed segment that may hold that older record is live: if the key's newest
     * record goes with the victim (it lies there or keeps bytes there, or the key is not indexed), appends a tombstone
     * into the active segment (or queues it when there is none or no room); else hands the memory on to the newest
     * record's segment. The store's lock held, the lookup lock not; the victim is out of the sealed queue.
     */
    void carry(Segment victim, long generation) {
        SlotMemory m = bySlot[victim.slot];
        if (m == null || m.generation != generation || m.entries.isEmpty()) {
            return;
        }
        List<Superseded> entries = new ArrayList<>(m.entries);
        m.entries.clear();
        long oldestLive = slots.oldestSealedGeneration();
        long[] victimGeneration = {generation};
        for (Superseded s : entries) {
            if (s.olderGeneration() < oldestLive) {
                continue; // every segment that could hold the older record is gone
            }
            long location;
            long extent;
            slots.lookupLock().lock();
            try {
                int pos = index.find(s.key().hash64());
                location = pos < 0 ? -1 : index.locationAt(pos);
                extent = pos < 0 ? 0 : index.extentAt(pos);
            } finally {
                slots.lookupLock().unlock();
            }
            if (location != -1) {
                Segment newest = slots.get(LogIndex.slot(location));
                long high = newest.generation();
                if (!LogIndex.touches(victimGeneration, high - LogIndex.span(extent), high)) {
                    remember(newest.slot, high, s.key(), s.olderGeneration()); // it stays: its segment remembers
                    continue;
                }
            }
            // goes with the victim (a copy forward, appended after this, would supersede the tombstone again)
            if (!append(s)) {
                pending.addLast(s);
            }
        }
    }

    /** A segment was just activated: writes the tombstones no reclaim found room for. The store's lock held. */
    void activated() {
        while (!pending.isEmpty()) {
            if (!append(pending.peekFirst())) {
                return; // the new segment ended (a full file system): the next activation tries again
            }
            pending.removeFirst();
        }
    }

    private boolean append(Superseded s) {
        byte[] key = s.key().toBytes();
        long[] placed;
        try {
            placed = slots.appendIntoReserve(RecordFormat.tombstoneLength(key),
                    (slot, generation) -> RecordFormat.tombstone(generation, key));
        } catch (org.edgelab.storage.api.StorageException e) {
            LOG.log(System.Logger.Level.DEBUG, "carried tombstone not written yet: " + e);
            return false;
        }
        if (placed == null) {
            return false;
        }
        int slot = (int) placed[0];
        remember(slot, slots.get(slot).generation(), s.key(), s.olderGeneration());
        carried.increment();
        return true;
    }
}
