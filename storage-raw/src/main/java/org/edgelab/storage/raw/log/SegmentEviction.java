package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.CRC32C;
import org.edgelab.storage.api.StoreCounters;

/**
 * What becomes of the objects of a segment being reclaimed, by {@link RawLogConfig.Policy}:
 * evicted ({@code fifo}), or, for those read since they were written, their bytes in it first
 * re-appended to the active segment ({@code reinsert}, the default: CacheLib's hits-based reinsertion),
 * as far as its room goes; the rest are evicted. Each re-append costs an object one of its (at most seven) counted
 * reads, so an object stays while it is read about once per pass of the log. Segments are reclaimed oldest first
 * unless a reader pins the oldest; the tombstones {@link CarriedTombstones} re-appends first keep the log's order (a
 * newer record wins at recovery) true then.
 *
 * <p>Re-appending runs on the {@link BackgroundReclaim} thread, one object at a time as a writer appends: its extents
 * are granted (headers written) under the store's lock, its bytes copied and verified with no lock held, and its
 * commit appended under the store's lock once the index still names the record copied, so no writer waits for a copy's
 * I/O and no copy's record lands after a newer version of its key. Lookups (and hits) go on throughout. An object a
 * lookup changed meanwhile (dropped as damaged) is not re-indexed; its copy is left in the log as a valid but
 * unindexed record. Thread-safety: {@link #carry}, {@link #evict} and {@link #evictRest} with the store's lock held,
 * {@link #reinsertRead} with neither lock held.
 */
final class SegmentEviction {

    private static final System.Logger LOG = System.getLogger(SegmentEviction.class.getName());
    private static final int COPY_BUFFER = 64 * 1024;

    private final RawLogConfig.Policy policy;
    private final LogIndex index;
    private final SegmentSlots slots;
    private final StoreCounters counters;
    private final CarriedTombstones tombstones;
    private final LongAdder reinserted = new LongAdder();
    /** Objects read since written that a reclaim evicted all the same (no room to re-append, fifo, a failed copy). */
    private final LongAdder evictedAfterRead = new LongAdder();

    SegmentEviction(RawLogConfig.Policy policy, LogIndex index, SegmentSlots slots, StoreCounters counters,
                    CarriedTombstones tombstones) {
        this.policy = policy;
        this.index = index;
        this.slots = slots;
        this.counters = counters;
        this.tombstones = tombstones;
    }

    /** Whether this policy re-appends read objects (so a reclaim is worth doing off the writers' path). */
    boolean reinserts() {
        return policy == RawLogConfig.Policy.REINSERT;
    }

    long reinserted() {
        return reinserted.sum();
    }

    /** Objects read since they were written that reclaims evicted: the warm set a store loses to eviction. */
    long evictedAfterRead() {
        return evictedAfterRead.sum();
    }

    /**
     * First step of a reclaim, before any copy (a copy's commit must come after the tombstones): re-appends the
     * tombstones the victim carries. The store's lock held; the victim is out of the sealed queue.
     */
    void carry(Segment victim, long generation) {
        tombstones.carry(victim, generation);
    }

    /** Evicts every object with bytes in the victim, re-appending none (a rotation with no free slot). Store's lock held. */
    void evict(Segment victim) {
        long generation = victim.generation();
        carry(victim, generation);
        evictRest(victim, generation, Set.of());
    }

    /**
     * Last step of a reclaim: drops from the index every object with bytes in the victim but those in {@code moved}
     * (re-appended whole, or with no bytes there). The store's lock held.
     */
    void evictRest(Segment victim, long generation, Set<Long> moved) {
        slots.lookupLock().lock();
        try {
            // an object just re-appended has no bytes left in the victim, though the generations its record spans may
            // still include the victim's (its other extents in an older segment a reader pinned past the victim)
            index.removeTouching(new long[] {generation}, slot -> slots.get(slot).generation(), counters.evictions,
                    counters.evictedBytes, moved::contains, evictedAfterRead);
        } finally {
            slots.lookupLock().unlock();
        }
    }

    /** A segment was just activated: the tombstones no reclaim found room for go first. The store's lock held. */
    void activated() {
        tombstones.activated();
    }

    /** Whether {@code victim} holds bytes of objects read since written, which {@code reinsert} keeps when it can. */
    boolean wouldLose(Segment victim) {
        if (policy != RawLogConfig.Policy.REINSERT) {
            return false;
        }
        long[] victimGeneration = {victim.generation()};
        boolean[] read = {false};
        slots.lookupLock().lock();
        try {
            index.forEach((hash, location, extent) -> read[0] = read[0] || readWithBytesIn(victimGeneration, location, extent));
        } finally {
            slots.lookupLock().unlock();
        }
        return read[0];
    }

    /**
     * Whether the indexed object at {@code location} (its {@code extent}) was read since written and keeps bytes in a
     * segment of {@code generations}: what {@code reinsert} re-appends. The lookup lock held.
     */
    private boolean readWithBytesIn(long[] generations, long location, long extent) {
        if (LogIndex.hits(location) == 0) {
            return false;
        }
        long high = slots.get(LogIndex.slot(location)).generation();
        return LogIndex.touches(generations, high - LogIndex.span(extent), high);
    }

    /**
     * Re-appends, into the active segment, the bytes that objects read since they were written keep in the victim
     * segment (an object's other extents stay where they are), one object at a time, for as many as the active segment
     * has room (a copy never rotates: when writers have filled a segment, copies take the room they left, then the
     * next segment a writer activates); stops early when {@code stop} answers true. Returns the hashes of the objects
     * with no bytes left in {@code victim}. Neither lock held; the victim is taken out of the sealed queue.
     */
    Set<Long> reinsertRead(Segment victim, long generation, java.util.function.BooleanSupplier stop) {
        if (policy != RawLogConfig.Policy.REINSERT) {
            return Set.of();
        }
        long[] victimGeneration = {generation};
        LongList read = new LongList();
        slots.lookupLock().lock();
        try {
            index.forEach((hash, location, extent) -> {
                if (readWithBytesIn(victimGeneration, location, extent)) {
                    read.add(hash);
                }
            });
        } finally {
            slots.lookupLock().unlock();
        }
        Set<Long> moved = new HashSet<>();
        for (int i = 0; i < read.size() && !stop.getAsBoolean(); i++) {
            try {
                Copy copy = copyForward(victim, generation, read.get(i));
                if (copy == Copy.COPIED) {
                    reinserted.increment();
                }
                if (copy != Copy.NOT_COPIED) {
                    moved.add(read.get(i));
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "reinsertion skipped: " + e);
            }
        }
        return moved;
    }

    /** What {@link #copyForward} did with an object. */
    private enum Copy {
        /** Its bytes (and record) in the victim were re-appended. */
        COPIED,
        /**
         * Nothing of it lies in the victim, though the generations its record spans include the victim's (its extents
         * on both sides of it): it stays where it is, untouched, its hits unspent.
         */
        NOT_IN_VICTIM,
        /** It could not be copied and is evicted with the victim. */
        NOT_COPIED
    }

    /**
     * Copies the extents of one object that lie in the victim (verifying each) to the active segment, with a new
     * commit record naming them and the object's other extents, and re-indexes it there with one hit less (so an
     * object spanning several segments, re-appended piece by piece as the log passes over it, needs as many reads per
     * pass, and one no longer read drops out within seven passes at most); {@link Copy#NOT_IN_VICTIM} when neither
     * its bytes nor its record lie in the victim; {@link Copy#NOT_COPIED} when it cannot be copied (no room in the
     * active segment, damaged, replaced or dropped meanwhile, or spanning too many generations), which leaves it to be
     * evicted. Extents granted but not committed stay in the log as valid records nothing names. Neither lock held:
     * it takes the store's lock to grant the extents and to commit, not across the copy.
     */
    private Copy copyForward(Segment victim, long generation, long hash) throws IOException {
        PinSet pins = slots.newPins();
        try {
            long location;
            Segment recordSegment;
            long recordGeneration;
            slots.lookupLock().lock();
            try {
                int pos = index.find(hash);
                if (pos < 0) {
                    return Copy.NOT_COPIED; // a lookup dropped it as damaged meanwhile, or a writer removed it
                }
                location = index.locationAt(pos);
                recordSegment = slots.get(LogIndex.slot(location));
                recordGeneration = recordSegment.generation();
                slots.pin(pins, recordSegment); // its record stays readable until it is decoded
            } finally {
                slots.lookupLock().unlock();
            }
            CommitRecord old = RecordFormat.decodeCommit(recordSegment.readCommitRecord(LogIndex.offset(location)),
                    recordGeneration);
            if (recordSegment != victim && old.extents().stream().noneMatch(e -> lies(e, victim, generation))) {
                return Copy.NOT_IN_VICTIM;
            }
            List<Extent> inVictim = new ArrayList<>();
            for (Extent e : old.extents()) {
                if (lies(e, victim, generation)) {
                    inVictim.add(e);
                }
            }
            long[] lengths = inVictim.stream().mapToLong(Extent::length).toArray();
            int commitLength = RecordFormat.commitLength(old.key().toBytes(), old.metadata(), old.extents().size());
            SegmentSlots.CopyGrant grant;
            slots.lock().lock();
            try {
                if (!othersLive(old, victim, generation)) {
                    return Copy.NOT_COPIED;
                }
                grant = slots.allocateCopy(pins, lengths, RecordFormat.align8(commitLength));
                if (grant == null
                        || grant.generation() - lowestKept(old, victim, generation, grant.generation()) > LogIndex.MAX_SPAN) {
                    return Copy.NOT_COPIED; // extents granted but too far from the object's others stay unnamed
                }
            } finally {
                slots.lock().unlock();
            }
            Segment target = grant.segment();
            long newGeneration = grant.generation();
            long[] payloads = grant.payloads();
            List<Extent> extents = new ArrayList<>(old.extents().size());
            ByteBuffer buffer = ByteBuffer.allocate(COPY_BUFFER);
            int copiedExtent = 0;
            for (Extent e : old.extents()) {
                if (!lies(e, victim, generation)) {
                    extents.add(e);
                    continue;
                }
                long payload = payloads[copiedExtent++];
                CRC32C check = new CRC32C();
                for (long done = 0; done < e.length(); ) {
                    buffer.clear().limit((int) Math.min(COPY_BUFFER, e.length() - done));
                    if (!victim.read(buffer, e.offset() + done)) {
                        return Copy.NOT_COPIED;
                    }
                    buffer.flip();
                    check.update(buffer.duplicate());
                    target.write(buffer, payload + done);
                    done += buffer.limit();
                }
                if ((int) check.getValue() != e.crc()) {
                    return Copy.NOT_COPIED; // damaged: let it be evicted rather than copied
                }
                extents.add(new Extent(target.slot, newGeneration, payload, e.length(), e.crc()));
            }
            CommitRecord copy = new CommitRecord(old.key(), old.metadata(), old.bodyLength(), extents);
            return commit(copy, hash, location, old, victim, generation, target, newGeneration, commitLength);
        } finally {
            pins.release();
        }
    }

    /**
     * Appends the copy's commit record and points the index at it, if the index still names the record copied (no
     * writer replaced or removed the key since: their records are ordered by the store's lock, which this holds) and
     * every extent it names is live. Takes the store's lock.
     */
    private Copy commit(CommitRecord copy, long hash, long location, CommitRecord old, Segment victim, long generation,
                        Segment target, long newGeneration, int commitLength) throws IOException {
        slots.lock().lock();
        try {
            if (!stillIndexed(hash, location) || !target.holds(newGeneration) || !othersLive(old, victim, generation)
                    || slots.active() == null) {
                return Copy.NOT_COPIED;
            }
            long lowest = lowestKept(old, victim, generation, newGeneration);
            if (slots.active().generation() - lowest > LogIndex.MAX_SPAN) {
                return Copy.NOT_COPIED;
            }
            long[] placed = slots.appendIntoReserve(commitLength, (slot, g) -> RecordFormat.commit(g, copy));
            if (placed == null) {
                return Copy.NOT_COPIED; // no room left for the record: the copied extents stay unnamed
            }
            int slot = (int) placed[0];
            long span = slots.get(slot).generation() - lowest;
            slots.lookupLock().lock();
            try {
                int pos = index.find(hash);
                long now = pos < 0 ? 0 : index.locationAt(pos);
                if (pos < 0 || !LogIndex.sameRecord(now, location)) {
                    return Copy.NOT_COPIED; // dropped by a lookup as it was committed: the copy stays unindexed
                }
                index.put(hash, LogIndex.location(slot, placed[1], Math.max(0, LogIndex.hits(now) - 1)),
                        LogIndex.verified(LogIndex.extent((int) span, RecordFormat.storedBytes(commitLength,
                                copy.extents())), true));
                return Copy.COPIED;
            } finally {
                slots.lookupLock().unlock();
            }
        } finally {
            slots.lock().unlock();
        }
    }

    private boolean stillIndexed(long hash, long location) {
        slots.lookupLock().lock();
        try {
            int pos = index.find(hash);
            return pos >= 0 && LogIndex.sameRecord(index.locationAt(pos), location);
        } finally {
            slots.lookupLock().unlock();
        }
    }

    /** Whether every extent of {@code old} outside the victim is still live. */
    private boolean othersLive(CommitRecord old, Segment victim, long generation) {
        for (Extent e : old.extents()) {
            if (!lies(e, victim, generation) && !slots.get(e.slot()).holds(e.generation())) {
                return false; // part of it is gone already
            }
        }
        return true;
    }

    /** The lowest generation of the copy's extents: those kept where they are, and the new ones at {@code newGeneration}. */
    private static long lowestKept(CommitRecord old, Segment victim, long generation, long newGeneration) {
        long lowest = newGeneration;
        for (Extent e : old.extents()) {
            if (!lies(e, victim, generation)) {
                lowest = Math.min(lowest, e.generation());
            }
        }
        return lowest;
    }

    /** Whether extent {@code e} lies in {@code victim} as its generation {@code generation}. */
    private static boolean lies(Extent e, Segment victim, long generation) {
        return e.slot() == victim.slot && e.generation() == generation;
    }
}
