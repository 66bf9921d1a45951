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
 * re-appended to the freshly activated segment ({@code reinsert}, the default: CacheLib's
 * hits-based reinsertion), as far as its room goes; the rest are evicted. Each re-append costs an
 * object one of its (at most seven) counted reads, so an object stays while it is read about once
 * per pass of the log. Segments are reclaimed oldest first unless a reader pins the oldest; the
 * tombstones {@link CarriedTombstones} re-appends first keep the log's order (a newer record wins at
 * recovery) true then. Runs under the store's lock, copying with it held; it takes the
 * lookup lock only to read and change the index, never across the copy's I/O, so lookups (and
 * hits) go on while it copies. An object a lookup changed meanwhile (dropped as damaged) is not
 * re-indexed; its copy is left in the log as a valid but unindexed record.
 */
final class SegmentEviction implements SegmentSlots.Reclaimer {

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

    long reinserted() {
        return reinserted.sum();
    }

    /** Objects read since they were written that reclaims evicted: the warm set a store loses to eviction. */
    long evictedAfterRead() {
        return evictedAfterRead.sum();
    }

    @Override
    public void reclaiming(Segment victim, boolean mayCopyForward) {
        long generation = victim.generation();
        tombstones.carry(victim, generation); // before any copy: a copy's commit must come after the tombstone
        Set<Long> moved = mayCopyForward && policy == RawLogConfig.Policy.REINSERT
                ? reinsertRead(victim, generation) : Set.of();
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

    @Override
    public void activated() {
        tombstones.activated();
    }

    /** Whether {@code victim} holds bytes of objects read since written, which {@code reinsert} keeps when it can. */
    @Override
    public boolean wouldLose(Segment victim) {
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
     * Re-appends, into the active segment, the bytes that objects read since they were written
     * keep in the victim segment (an object's other extents stay where they are), for as many
     * as the active segment has room; the rest are evicted with the victim. Returns the hashes of the objects
     * re-appended, whose bytes are no longer in {@code victim}.
     */
    private Set<Long> reinsertRead(Segment victim, long generation) {
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
        for (int i = 0; i < read.size() && slots.active() != null; i++) {
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
     * Copies the extents of one object that lie in the victim (verifying each) to the active
     * segment, with a new commit record naming them and the object's other extents, and
     * re-indexes it there with one hit less (so an object spanning several segments, re-appended
     * piece by piece as the log passes over it, needs as many reads per pass, and one no longer
     * read drops out within seven passes at most); {@link Copy#NOT_IN_VICTIM} when neither its bytes nor its record
     * lie in the victim; {@link Copy#NOT_COPIED} when it cannot be copied (not enough room in the active segment,
     * damaged, or spanning too many generations), which leaves it to be evicted. If bytes were written but no valid
     * record covers them, the active segment ends there.
     */
    private Copy copyForward(Segment victim, long generation, long hash) throws IOException {
        long location;
        slots.lookupLock().lock();
        try {
            int pos = index.find(hash);
            if (pos < 0) {
                return Copy.NOT_COPIED; // a lookup dropped it as damaged meanwhile
            }
            location = index.locationAt(pos);
        } finally {
            slots.lookupLock().unlock();
        }
        Segment recordSegment = slots.get(LogIndex.slot(location));
        CommitRecord old = RecordFormat.decodeCommit(recordSegment.readCommitRecord(LogIndex.offset(location)),
                recordSegment.generation());
        if (recordSegment != victim && old.extents().stream().noneMatch(e -> lies(e, victim, generation))) {
            return Copy.NOT_IN_VICTIM;
        }
        Segment target = slots.active();
        long newGeneration = target.generation();
        int commitLength = RecordFormat.commitLength(old.key().toBytes(), old.metadata(), old.extents().size());
        long needed = RecordFormat.align8(commitLength);
        long lowest = newGeneration;
        for (Extent e : old.extents()) {
            if (lies(e, victim, generation)) {
                needed += RecordFormat.align8(RecordFormat.RECORD_HEADER_BYTES + e.length());
            } else if (!slots.get(e.slot()).holds(e.generation())) {
                return Copy.NOT_COPIED; // part of it is gone already
            } else {
                lowest = Math.min(lowest, e.generation());
            }
        }
        long start = slots.activePosition();
        if (slots.segmentSize() - start < needed || newGeneration - lowest > LogIndex.MAX_SPAN) {
            return Copy.NOT_COPIED;
        }
        List<Extent> extents = new ArrayList<>(old.extents().size());
        ByteBuffer buffer = ByteBuffer.allocate(COPY_BUFFER);
        long cursor = start;
        boolean copied = false;
        try {
            for (Extent e : old.extents()) {
                if (!lies(e, victim, generation)) {
                    extents.add(e);
                    continue;
                }
                long payload = cursor + RecordFormat.RECORD_HEADER_BYTES;
                cursor = RecordFormat.align8(payload + e.length()); // counted first: a failed write may leave part
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
                target.write(RecordFormat.extentHeader(newGeneration, e.length()), payload - RecordFormat.RECORD_HEADER_BYTES);
                extents.add(new Extent(target.slot, newGeneration, payload, e.length(), e.crc()));
            }
            CommitRecord copy = new CommitRecord(old.key(), old.metadata(), old.bodyLength(), extents);
            long commitAt = cursor;
            cursor = RecordFormat.align8(commitAt + commitLength);
            target.write(RecordFormat.commit(newGeneration, copy), commitAt);
            slots.advanceActive(cursor);
            copied = true;
            slots.lookupLock().lock();
            try {
                int pos = index.find(hash);
                long now = pos < 0 ? 0 : index.locationAt(pos);
                if (pos < 0 || !LogIndex.sameRecord(now, location)) {
                    return Copy.NOT_COPIED; // dropped by a lookup while it was copied: the copy stays unindexed
                }
                index.put(hash, LogIndex.location(target.slot, commitAt, LogIndex.hits(now) - 1),
                        LogIndex.verified(LogIndex.extent((int) (newGeneration - lowest),
                                RecordFormat.storedBytes(commitLength, extents)), true));
                return Copy.COPIED;
            } finally {
                slots.lookupLock().unlock();
            }
        } finally {
            if (!copied && cursor > start && slots.active() == target) {
                slots.endActive();
            }
        }
    }

    /** Whether extent {@code e} lies in {@code victim} as its generation {@code generation}. */
    private static boolean lies(Extent e, Segment victim, long generation) {
        return e.slot() == victim.slot && e.generation() == generation;
    }
}
