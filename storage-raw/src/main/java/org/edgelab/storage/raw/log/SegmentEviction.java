package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.CRC32C;
import org.edgelab.storage.api.StoreCounters;

/**
 * What becomes of the objects of a segment being reclaimed, by {@link RawLogConfig.Policy}:
 * evicted ({@code fifo}), or, for those read since they were written and lying wholly in it,
 * first re-appended to the active segment ({@code reinsert}, CacheLib's reinsertion, up to half a
 * segment per reclaim); the rest are evicted. Guarded by the store's lock.
 */
final class SegmentEviction implements SegmentSlots.Reclaimer {

    private static final System.Logger LOG = System.getLogger(SegmentEviction.class.getName());
    private static final int COPY_BUFFER = 64 * 1024;

    private final RawLogConfig.Policy policy;
    private final LogIndex index;
    private final SegmentSlots slots;
    private final StoreCounters counters;
    private final LongAdder reinserted = new LongAdder();

    SegmentEviction(RawLogConfig.Policy policy, LogIndex index, SegmentSlots slots, StoreCounters counters) {
        this.policy = policy;
        this.index = index;
        this.slots = slots;
        this.counters = counters;
    }

    long reinserted() {
        return reinserted.sum();
    }

    @Override
    public void reclaiming(Segment victim, boolean mayCopyForward) {
        long generation = victim.generation();
        if (mayCopyForward && policy == RawLogConfig.Policy.REINSERT) {
            reinsertHot(victim, generation);
        }
        index.removeTouching(new long[] {generation}, slot -> slots.get(slot).generation(), counters.evictions,
                counters.evictedBytes);
    }

    /** Re-appends objects of the victim segment that were read since written. */
    private void reinsertHot(Segment victim, long generation) {
        long segmentSize = slots.segmentSize();
        LongList hot = new LongList();
        index.forEach((hash, location, extent) -> {
            if (LogIndex.slot(location) == victim.slot && LogIndex.span(extent) == 0 && LogIndex.hits(location) > 0
                    && LogIndex.storedBytes(extent) <= segmentSize / 8) {
                hot.add(hash);
            }
        });
        long budget = (segmentSize - RecordFormat.SEGMENT_HEADER_AREA) / 2;
        for (int i = 0; i < hot.size() && slots.active() != null; i++) {
            int pos = index.find(hot.get(i));
            long location = index.locationAt(pos);
            long stored = LogIndex.storedBytes(index.extentAt(pos));
            if (stored > budget || segmentSize - slots.activePosition() < stored + 64) {
                break;
            }
            try {
                if (copyForward(victim, generation, LogIndex.offset(location))) {
                    budget -= stored;
                    reinserted.increment();
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "reinsertion skipped: " + e);
            }
        }
    }

    /**
     * Copies one object (verifying its extents) to the active segment and re-indexes it there;
     * false when it cannot be copied (damaged or unreadable), which leaves it to be evicted. If
     * bytes were written but no valid record covers them, the active segment ends there.
     */
    private boolean copyForward(Segment victim, long generation, long offset) throws IOException {
        CommitRecord old = RecordFormat.decodeCommit(victim.readCommitRecord(offset), generation);
        Segment target = slots.active();
        long newGeneration = target.generation();
        long header = slots.activePosition();
        long payload = header + RecordFormat.RECORD_HEADER_BYTES;
        CRC32C crc = new CRC32C();
        ByteBuffer buffer = ByteBuffer.allocate(COPY_BUFFER);
        long written = 0;
        boolean copied = false;
        try {
            for (Extent e : old.extents()) {
                CRC32C check = new CRC32C();
                for (long done = 0; done < e.length(); ) {
                    buffer.clear().limit((int) Math.min(COPY_BUFFER, e.length() - done));
                    if (!slots.get(e.slot()).read(buffer, e.offset() + done)) {
                        return false;
                    }
                    buffer.flip();
                    check.update(buffer.duplicate());
                    crc.update(buffer.duplicate());
                    written += buffer.limit(); // counted first: a failed write may have left part of it
                    target.write(buffer, payload + written - buffer.limit());
                    done += buffer.limit();
                }
                if ((int) check.getValue() != e.crc()) {
                    return false; // damaged: let it be evicted rather than copied
                }
            }
            List<Extent> extents = new ArrayList<>();
            long commitAt = header;
            if (written > 0) {
                target.write(RecordFormat.extentHeader(newGeneration, written), header);
                extents.add(new Extent(target.slot, newGeneration, payload, written, (int) crc.getValue()));
                commitAt = RecordFormat.align8(payload + written);
            }
            CommitRecord copy = new CommitRecord(old.key(), old.metadata(), old.bodyLength(), extents);
            ByteBuffer encoded = RecordFormat.commit(newGeneration, copy);
            int length = encoded.remaining();
            written += length;
            target.write(encoded, commitAt);
            slots.advanceActive(RecordFormat.align8(commitAt + length));
            index.put(old.key().hash64(), LogIndex.location(target.slot, commitAt, 0),
                    LogIndex.extent(0, RecordFormat.storedBytes(length, extents)));
            copied = true;
            return true;
        } finally {
            if (!copied && written > 0 && slots.active() == target) {
                slots.endActive();
            }
        }
    }
}
