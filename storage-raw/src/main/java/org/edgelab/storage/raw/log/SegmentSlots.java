package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.locks.ReentrantLock;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.api.StorageFullException;

/**
 * The circular log's segment slots (Kafka's {@code LocalLog} over its {@code LogSegment}s plays
 * this part there): one {@link Segment} per slot with an explicit {@link SlotState}, the free and
 * sealed queues, the active segment and its append position, and the generation counter.
 * Appends small records and grants extents in the active segment; when it is full it seals it and
 * activates a free slot (on the next disk of its list; the engine gives each log one disk, see
 * {@link RawLogShards}), and keeps {@link #KEPT_FREE} slots free, draining (see below) or being reclaimed: it chooses
 * the oldest sealed ones that nothing pins and hands them to the {@link Reclaimer}, which reclaims them off the
 * writer's path ({@link BackgroundReclaim}: copies share the active segment with writers, and writers leave the free
 * slots and the room to the copies while those are short of slots). A rotation that finds no free slot and no reclaim
 * under way evicts the oldest segment whole itself.
 *
 * <p>A full file system ends the active segment where a record could not be written (recovery
 * stops reading a segment at its first invalid record, so nothing may follow a torn one) and
 * refuses the write; the slots that could not be activated stay free for when there is room again.
 *
 * <p>A reclaimed slot's file is punched out on a background thread of its own (see
 * {@link #punchBeforeReuse}) before the slot is activated again.
 *
 * <p>Thread-safety: two locks. The store's lock orders appends, rotations and reclaims and is held across their
 * small record I/O (not a copy's body); callers hold it except for {@link #release}, and a writer that waits for a
 * reclaim releases it while it waits. The lookup lock guards what lookups read and change (the index,
 * each slot's state, generation and pins) and is never held across I/O, so a lookup never waits for a write the
 * device throttles. A change to a slot's state or pins holds the lookup lock (and the store's lock, but for pins);
 * a read holds either. Whoever takes both takes the store's lock first. A slot reclaimed while a lookup pinned it
 * (its warm objects were being re-appended, which the lookup lock does not cover) is not reused until its last pin
 * is released: it drains first, and the spare slot kept free serves the next reclaim's copies meanwhile. A rotation that
 * finds no free slot all the same (two slots drained that long) waits a while for one rather than evict a segment of
 * read objects with nowhere to re-append them. The background punch takes no lock; an activation that
 * needs its slot waits for it.
 */
final class SegmentSlots {

    private static final long MAX_EXTENT = 1L << 20;
    /**
     * How long a rotation waits for a draining slot rather than evict read objects without re-appending them: the
     * pins it waits for are readers that began during a reclaim's copy, which hold their object for one reply.
     */
    static final long DRAIN_WAIT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);
    /**
     * Slots a rotation keeps free, draining or being reclaimed: the one the next rotation activates, one for the copies
     * of the reclaim under way (they share the writers' segment, and what does not fit there goes to a free slot), and
     * a spare for when a reclaimed slot is still draining (its readers hold their objects for a reply: seconds for
     * 10 MB to a slow client), so that the reclaim after it still finds room for its copies. Each costs the log one
     * segment of its capacity.
     */
    static final int KEPT_FREE = 3;
    /**
     * How long a writer out of room waits for a reclaim while the free slots are kept for its copies, before it goes
     * on all the same (taking a slot, or evicting the oldest segment whole if none is free).
     */
    static final long RECLAIM_WAIT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);

    /** Decides what happens to the objects of a segment about to be reclaimed, and reclaims in the background. */
    interface Reclaimer {
        /**
         * Evicts every object whose bytes lie in {@code victim}, re-appending none: a rotation found no free slot and
         * no reclaim under way to wait for. Called with the store's lock held and the lookup lock not.
         */
        void evict(Segment victim);

        /** Whether reclaiming {@code victim} with nothing re-appended would evict objects this reclaimer keeps. */
        default boolean wouldLose(Segment victim) {
            return false;
        }

        /** A segment was just activated, before anything else is appended to it; the store's lock held. */
        default void activated() {
        }

        /**
         * Takes {@code victim}, out of the sealed queue already, to reclaim off the caller's thread (re-appending what
         * it keeps, evicting the rest), ending with {@link #freeReclaimed} for the generation it has now; false if it cannot (no background thread, or
         * it is stopping): the caller then evicts it itself. The store's lock held; must not block.
         */
        default boolean reclaimLater(Segment victim) {
            return false;
        }
    }

    /**
     * A region of the active segment granted to a writer: the extent header is already written and
     * {@code capacity} payload bytes start at {@code payloadOffset} (block-aligned with direct I/O).
     */
    record Allocation(Segment segment, long generation, long headerOffset, long payloadOffset, long capacity) {
    }

    /** Extents granted to a copy forward: in {@code segment} as its generation {@code generation}, at {@code payloads}. */
    record CopyGrant(Segment segment, long generation, long[] payloads) {
    }

    /** Encodes a record for the segment it lands in. */
    interface RecordEncoder {
        ByteBuffer encode(int slot, long generation);
    }

    private final ReentrantLock lock;
    private final ReentrantLock lookupLock;
    private final DiskHealth disks;
    private final long segmentSize;
    /**
     * Where writers' appends end in a segment: the rest is kept for re-appending, so that what
     * one segment holds of read objects always fits into a fresh one with the commit records the
     * copies need besides.
     */
    private final long writerEnd;
    private final Segment[] segments;
    private final ArrayDeque<Segment> free = new ArrayDeque<>();
    private final ArrayDeque<Segment> sealed = new ArrayDeque<>();
    /** Reclaimed slots that a lookup pinned while they were reclaimed: FREE once their last pin is released. */
    private final ArrayDeque<Segment> draining = new ArrayDeque<>();
    /** Rotations that found no free slot and waited for a draining one. */
    private final java.util.concurrent.atomic.LongAdder drainWaits = new java.util.concurrent.atomic.LongAdder();
    /** Signalled (lookup lock) when the last pin of a draining slot is released. */
    private final java.util.concurrent.locks.Condition drained;
    /** Draining slots a rotation already waited for in vain (store's lock): one slow reader stalls writes once. */
    private final java.util.Set<Segment> waitedOut =
            java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private DirectIo direct = DirectIo.off();
    private boolean punchBeforeReuse;
    private java.util.concurrent.ExecutorService puncher;
    private Reclaimer reclaimer = victim -> { };
    /** The segment a reclaim's copies rotated into: writers keep out of it until a reclaim ends (store's lock). */
    private Segment copyHead;
    /** Segments taken out of the sealed queue whose reclaim has not freed them yet (store's lock). */
    private final ArrayDeque<Segment> reclaiming = new ArrayDeque<>();
    /** Signalled (store's lock) when a reclaim ends: writers waiting for the copies look again. */
    private final java.util.concurrent.locks.Condition slotFreed;
    /** Writers out of room that waited for a reclaim because the free slots were kept for its copies. */
    private final java.util.concurrent.atomic.LongAdder reclaimWaits = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder reclaimWaitNanos = new java.util.concurrent.atomic.LongAdder();
    /** Reclaims a rotation did itself, evicting everything in the victim: no free slot and none under way in time. */
    private final java.util.concurrent.atomic.LongAdder inlineReclaims = new java.util.concurrent.atomic.LongAdder();
    private Segment active;
    private long activePosition;
    private long nextGeneration = 1;
    private int lastDisk = -1;

    SegmentSlots(int count, long segmentSize, DiskHealth disks, ReentrantLock lock, ReentrantLock lookupLock) {
        this.lock = lock;
        this.lookupLock = lookupLock;
        this.drained = lookupLock.newCondition();
        this.slotFreed = lock.newCondition();
        this.disks = disks;
        this.segmentSize = segmentSize;
        this.writerEnd = segmentSize - copyReserve(segmentSize);
        this.segments = new Segment[count];
        for (int s = 0; s < count; s++) {
            segments[s] = new Segment(s, s % disks.count(), segmentSize, disks);
        }
    }

    /** The bytes at the end of each segment that only re-appends use: 1/32 of it, within 4 KiB..256 KiB. */
    static long copyReserve(long segmentSize) {
        return Math.max(4096, Math.min(256 * 1024, segmentSize / 32 / 8 * 8));
    }

    void direct(DirectIo d) {
        this.direct = d;
    }

    /**
     * Whether a slot that held a generation gets fresh pages ({@link Segment#discardPages}) before its next one: punched
     * in the background when it is reclaimed, so that a rotation rarely waits for it (a punch of 64 MiB of written
     * pages took 16-48 ms on this project's 2-core machine, 2026-12-01, {@code fallocate} on ext4), else at activation.
     */
    void punchBeforeReuse(boolean on) {
        this.punchBeforeReuse = on;
        if (on && puncher == null) {
            puncher = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "raw-log-punch");
                t.setDaemon(true);
                return t;
            });
        }
    }

    /** Starts punching the freed slot {@code s} out in the background (lock held; the punch takes no lock). */
    private void punchLater(Segment s) {
        if (!punchBeforeReuse || !s.usedPages() || s.punching() != null) {
            return;
        }
        java.util.concurrent.CompletableFuture<Void> f = new java.util.concurrent.CompletableFuture<>();
        s.punching(f);
        try {
            puncher.execute(() -> {
                try {
                    s.discardPagesUnjudged();
                    f.complete(null);
                } catch (IOException | RuntimeException e) {
                    f.completeExceptionally(e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            s.punching(null); // the store is closing: an activation would punch it itself
        }
    }

    /** Makes sure free slot {@code s} holds no page written before (lock held): waits for its punch, or punches now. */
    private void freshen(Segment s) throws StorageException {
        java.util.concurrent.CompletableFuture<Void> f = s.punching();
        if (f != null) {
            s.punching(null);
            try {
                f.join();
                s.pagesFresh();
                return;
            } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException failed) {
                // the background punch failed: punch again here, where an I/O error is judged as any other
            }
        }
        if (s.usedPages()) {
            s.discardPages();
            s.pagesFresh();
        }
    }

    void reclaimer(Reclaimer r) {
        this.reclaimer = r;
    }

    Segment get(int slot) {
        return segments[slot];
    }

    Segment[] all() {
        return segments;
    }

    int count() {
        return segments.length;
    }

    long segmentSize() {
        return segmentSize;
    }

    ReentrantLock lock() {
        return lock;
    }

    /** The lock that guards the index, slot states and pins; never held across I/O. */
    ReentrantLock lookupLock() {
        return lookupLock;
    }

    /** Returns a new, empty set of pins released through this table. */
    PinSet newPins() {
        return new PinSet(this);
    }

    /** The largest body accepted: all segments but the active and the spare one, less room for extent headers. */
    long maxObjectBytes() {
        return (segments.length - 2) * (segmentSize - RecordFormat.SEGMENT_HEADER_AREA) / 10 * 9;
    }

    long maxExtentBytes() {
        return Math.min(MAX_EXTENT, (segmentSize - RecordFormat.SEGMENT_HEADER_AREA) / 4);
    }

    // ---------------------------------------------------------------- recovery (before the store is shared)

    /** Makes {@code s} sealed, behind the ones sealed before it (recovery seals in generation order). */
    void sealRecovered(Segment s) {
        s.seal();
        sealed.addLast(s);
    }

    /** Makes {@code s}, the newest sealed one, active again at {@code position}. */
    void activateRecovered(Segment s, long position) {
        sealed.remove(s);
        s.activate(s.generation());
        active = s;
        activePosition = position;
    }

    /** Queues every slot recovery left FREE and makes the next generation at least {@code next}. */
    void finishRecovery(long next) {
        nextGeneration = Math.max(nextGeneration, next);
        for (Segment s : segments) {
            if (s.state() == SlotState.FREE) {
                toFree(s);
            }
        }
    }

    // ---------------------------------------------------------------- appends

    /** Grants the writer up to {@code want} payload bytes in the active segment, pinning it. */
    Allocation allocateExtent(PinSet pins, long want) throws IOException {
        long minimum = direct.on() ? direct.block() : Math.min(want, 4096);
        StorageException last = null;
        if (minimum > writerEnd - RecordFormat.SEGMENT_HEADER_AREA - RecordFormat.RECORD_HEADER_BYTES - direct.block()) {
            throw new StorageFullException("segment-size " + segmentSize + " is too small for an extent");
        }
        for (int attempt = 0; attempt <= disks.count(); attempt++) {
            boolean waitedOut = false;
            for (int rotations = 0; !writerRoom(minimum, waitedOut); ) {
                if (rotations > segments.length) {
                    throw new StorageFullException("raw-log found no segment with room for an extent in "
                            + rotations + " rotations");
                }
                if (!waitedOut && slotsKeptForCopies()) {
                    if (awaitBackgroundReclaim(minimum)) {
                        continue; // a reclaim ended, or another writer made room meanwhile: look again (a wait in
                                  // all at most RECLAIM_WAIT_NANOS per reclaim, as each ends once)
                    }
                    waitedOut = true; // the reclaim is slow: this writer goes on, and the copies lose what it takes
                    if (writerRoom(minimum, true)) {
                        break;
                    }
                }
                rotate(); // a copy may fill the new segment meanwhile: then take another
                rotations++;
            }
            long room = payloadRoom();
            Segment s = active;
            long generation = s.generation();
            long at = activePosition;
            long payload = payloadStart(at);
            long granted = direct.on() ? Math.min(DirectIo.alignUp(want, direct.block()), room) : Math.min(want, room);
            try {
                s.write(RecordFormat.extentHeader(generation, payload - at - RecordFormat.RECORD_HEADER_BYTES + granted), at);
            } catch (StorageException e) {
                last = ended(e);
                continue;
            }
            activePosition = extentEnd(payload, granted);
            pinLocked(pins, s);
            return new Allocation(s, generation, at, payload, granted);
        }
        throw last;
    }

    /** Gives back the unused tail of the writer's last extent if nothing was appended after it. */
    void trimExtent(Allocation a, long used) {
        if (active != a.segment() || a.segment().generation() != a.generation()
                || activePosition != extentEnd(a.payloadOffset(), a.capacity())) {
            return;
        }
        long kept = direct.on() ? DirectIo.alignUp(used, direct.block()) : used;
        try {
            a.segment().write(RecordFormat.extentHeader(a.generation(),
                    a.payloadOffset() - a.headerOffset() - RecordFormat.RECORD_HEADER_BYTES + kept), a.headerOffset());
            activePosition = extentEnd(a.payloadOffset(), kept);
        } catch (StorageException e) {
            // the header keeps the granted length, which is as valid; a failed disk is out already
        }
    }

    /** Appends a small record to the active segment; returns {slot, offset}. */
    long[] appendRecord(int length, RecordEncoder encoder, PinSet holderPins) throws IOException {
        StorageException last = null;
        for (int attempt = 0; attempt <= disks.count(); attempt++) {
            ensureRoom(RecordFormat.align8(length));
            Segment s = active;
            long at = activePosition;
            try {
                s.write(encoder.encode(s.slot, s.generation()), at);
            } catch (StorageException e) {
                last = ended(e);
                continue;
            }
            activePosition = RecordFormat.align8(at + length);
            if (holderPins != null) {
                pinLocked(holderPins, s);
            }
            return new long[] {s.slot, at};
        }
        throw last;
    }

    /**
     * Appends a small record to the active segment without rotating, into the room kept for re-appends too (a reclaim
     * calls this while it runs); returns {slot, offset}, or null when there is no active segment or no room. A full
     * file system ends the active segment there, as {@link #appendRecord} does.
     */
    long[] appendIntoReserve(int length, RecordEncoder encoder) throws StorageException {
        if (active == null || segmentSize - activePosition < RecordFormat.align8(length)) {
            return null;
        }
        Segment s = active;
        long at = activePosition;
        try {
            s.write(encoder.encode(s.slot, s.generation()), at);
        } catch (StorageException e) {
            throw ended(e);
        }
        activePosition = RecordFormat.align8(at + length);
        return new long[] {s.slot, at};
    }

    /**
     * Grants a copy forward one extent of each of {@code lengths} payload bytes in the active segment, with room for
     * {@code commitBytes} after them, up to the segment's end (the room writers leave is for copies), rotating to a
     * free slot when the active segment has not that much room left (never evicting to make one); writes their
     * headers, pins the segment for {@code pins} and returns it with the payload offsets, or null when no segment has
     * the room. A header that cannot be written ends the active segment there. The store's lock held.
     */
    CopyGrant allocateCopy(PinSet pins, long[] lengths, long commitBytes) throws IOException {
        long needed = commitBytes;
        for (long length : lengths) {
            needed += RecordFormat.align8(RecordFormat.RECORD_HEADER_BYTES + length);
        }
        if (needed > segmentSize - RecordFormat.SEGMENT_HEADER_AREA) {
            return null;
        }
        if ((active == null || segmentSize - activePosition < needed) && freeDrained()) {
            rotate(); // a free slot is there: the copy takes it rather than be evicted, and writers keep out of it
            copyHead = active;
        }
        if (active == null || segmentSize - activePosition < needed) {
            return null; // it never evicts to make room: what does not fit is evicted with the victim
        }
        Segment s = active;
        long[] payloads = new long[lengths.length];
        long at = activePosition;
        for (int i = 0; i < lengths.length; i++) {
            try {
                s.write(RecordFormat.extentHeader(s.generation(), lengths[i]), at);
            } catch (StorageException e) {
                activePosition = at;
                sealActive(); // a torn header: nothing may follow it
                throw e;
            }
            payloads[i] = at + RecordFormat.RECORD_HEADER_BYTES;
            at = RecordFormat.align8(payloads[i] + lengths[i]);
            activePosition = at;
        }
        pinLocked(pins, s);
        return new CopyGrant(s, s.generation(), payloads);
    }

    /** The generation of the oldest sealed segment, or {@code Long.MAX_VALUE} if none is sealed; the store's lock held. */
    long oldestSealedGeneration() {
        long oldest = Long.MAX_VALUE;
        for (Segment s : sealed) {
            oldest = Math.min(oldest, s.generation());
        }
        for (Segment s : reclaiming) { // out of the queue, but their records are live until they are freed
            oldest = Math.min(oldest, s.generation());
        }
        return oldest;
    }

    /**
     * A record could not be written into the active segment: on a full file system the segment
     * ends there (it is sealed, and the next attempt rotates to a fresh one, on another disk if
     * one has room); a failed disk is out already. Returns the error, thrown if no attempt succeeds.
     */
    private StorageException ended(StorageException e) {
        if (e instanceof StorageFullException && active != null) {
            sealActive();
        }
        return e;
    }

    private void ensureRoom(long bytes) throws IOException {
        if (bytes > writerEnd - RecordFormat.SEGMENT_HEADER_AREA) {
            throw new StorageFullException("a record of " + bytes + " bytes does not fit in a segment of "
                    + segmentSize + "; raise segment-size");
        }
        for (int rotations = 0; active == null || !roomForRecord(bytes); rotations++) {
            if (rotations > segments.length) {
                throw new StorageFullException("raw-log found no segment with room for a record of " + bytes
                        + " bytes in " + rotations + " rotations");
            }
            rotate(); // a copy may fill the new segment meanwhile: then take another
        }
    }

    /**
     * Whether the active segment has room for a small record of {@code bytes}: up to where writers' appends end, or
     * into the room kept for copies while writers leave the free slots to a reclaim (so that a commit neither waits
     * for it nor takes the slot its copies need).
     */
    private boolean roomForRecord(long bytes) {
        if (writerEnd - activePosition >= bytes) {
            return true;
        }
        return segmentSize - activePosition >= bytes && slotsKeptForCopies();
    }

    /**
     * Whether a writer's extent of {@code minimum} bytes fits in the active segment, unless (but with {@code
     * ignoreCopies}) that is the copies' segment or the copies are short of slots.
     */
    private boolean writerRoom(long minimum, boolean ignoreCopies) {
        return active != null && payloadRoom() >= minimum
                && (ignoreCopies || (active != copyHead && !slotsShortForCopies()));
    }

    /**
     * Whether the reclaims queued or under way may need more slots than are free: writers then append nothing (they
     * wait) until one ends, so that their bytes do not take the room the copies need and make them be evicted.
     */
    private boolean slotsShortForCopies() {
        freeDrained();
        return !reclaiming.isEmpty() && free.size() < reclaiming.size();
    }

    /**
     * Whether writers leave the free slots to the reclaim queued or under way: the last one is its, so that copies
     * find room rather than be evicted with their victim (the victim's slot comes free when it ends).
     */
    private boolean slotsKeptForCopies() {
        freeDrained();
        return !reclaiming.isEmpty() && free.size() <= reclaiming.size();
    }

    /**
     * A writer out of room while the free slots are kept for copies waits up to {@link #RECLAIM_WAIT_NANOS} for the
     * background reclaim to end, releasing the store's lock meanwhile (the reclaim needs it to append its copies);
     * returns whether it may look again (a slot is its now, or another writer made room), false when the wait ran out
     * (it then rotates all the same, and the reclaim evicts what it has not copied). The store's lock held once.
     */
    private boolean awaitBackgroundReclaim(long minimum) {
        long start = System.nanoTime();
        long left = RECLAIM_WAIT_NANOS;
        reclaimWaits.increment();
        try {
            while (left > 0 && slotsKeptForCopies() && !writerRoom(minimum, false)) {
                left = slotFreed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            reclaimWaitNanos.add(System.nanoTime() - start);
        }
        return !slotsKeptForCopies() || writerRoom(minimum, false);
    }

    /** Payload bytes an extent could get in the active segment (block multiples with direct I/O). */
    private long payloadRoom() {
        long room = writerEnd - payloadStart(activePosition);
        return direct.on() ? room / direct.block() * direct.block() : room;
    }

    private long payloadStart(long headerAt) {
        long p = headerAt + RecordFormat.RECORD_HEADER_BYTES;
        return direct.on() ? DirectIo.alignUp(p, direct.block()) : p;
    }

    /** Where the next record goes after an extent: pages written with O_DIRECT are never shared with others. */
    private long extentEnd(long payload, long length) {
        return direct.on() ? payload + DirectIo.alignUp(length, direct.block()) : RecordFormat.align8(payload + length);
    }

    // ---------------------------------------------------------------- the active segment, for copies

    /** Returns the active segment, or null when none is (every slot pinned, or the disks full or out). */
    Segment active() {
        return active;
    }

    long activePosition() {
        return activePosition;
    }

    /** Moves the append position of the active segment past bytes written there directly. */
    void advanceActive(long position) {
        activePosition = position;
    }

    /**
     * Ends the active segment where it is, after bytes written there directly were left without a
     * valid record around them: nothing may follow them, since recovery stops at the first
     * invalid record.
     */
    void endActive() {
        sealActive();
    }

    // ---------------------------------------------------------------- rotation and reclaim

    private void sealActive() {
        if (active != null) {
            lookupLock.lock();
            try {
                active.seal();
            } finally {
                lookupLock.unlock();
            }
            sealed.addLast(active);
            active = null;
        }
    }

    /** Seals the active segment and activates a free one, reclaiming the oldest segments to keep {@link #KEPT_FREE} free. */
    private void rotate() throws IOException {
        sealActive();
        boolean[] fullDisks = null;
        StorageFullException refused = null;
        while (true) {
            if (!disks.anyOnline()) {
                throw new StorageException("raw-log has no online disk left: " + disks.summary());
            }
            if (free.isEmpty() && !freeDrained() && !awaitDrainedRatherThanLoseRead()) {
                evictOldest(); // no active segment to re-append into: everything in the victim is evicted
            }
            Segment s = takeFree(fullDisks);
            if (s == null) {
                if (refused == null) {
                    continue; // the reclaimed slot's disk failed meanwhile: reclaim another (or find no disk left)
                }
                throw refused; // every free slot is on a full file system
            }
            long generation = nextGeneration++;
            try {
                if (punchBeforeReuse) {
                    freshen(s);
                }
                s.write(RecordFormat.segmentHeader(s.slot, generation, segmentSize), 0);
            } catch (StorageFullException e) {
                if (disks.online(s.disk)) {
                    free.addFirst(s);
                }
                if (fullDisks == null) {
                    fullDisks = new boolean[disks.count()];
                }
                fullDisks[s.disk] = true;
                refused = e;
                continue;
            } catch (StorageException e) {
                continue; // the disk failed: DiskHealth took it out, this slot is DEAD now
            }
            lookupLock.lock();
            try {
                s.activate(generation);
            } finally {
                lookupLock.unlock();
            }
            active = s;
            activePosition = RecordFormat.SEGMENT_HEADER_AREA;
            lastDisk = s.disk;
            reclaimer.activated();
            if (active == null) {
                continue; // a carried tombstone met a full file system and ended the new segment: take another
            }
            for (int reclaims = 0; reclaims < KEPT_FREE && wantsReclaim(); reclaims++) {
                // chosen now, while the writer rotating pins what it is writing, and reclaimed off its path
                Segment victim = takeVictim();
                if (victim == null) {
                    break; // every sealed segment is pinned right now; the next rotation tries again
                }
                if (!reclaimer.reclaimLater(victim)) {
                    inlineReclaims.increment();
                    reclaimer.evict(victim);
                    freeReclaimed(victim, victim.generation());
                }
            }
            return;
        }
    }

    /** Takes the free slot on the disk after the last one used, skipping full ones; null if none is left. */
    private Segment takeFree(boolean[] fullDisks) {
        Segment best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Segment s : free) {
            if (fullDisks != null && fullDisks[s.disk]) {
                continue;
            }
            int distance = Math.floorMod(s.disk - lastDisk - 1, disks.count());
            if (distance < bestDistance) {
                best = s;
                bestDistance = distance;
                if (distance == 0) {
                    break;
                }
            }
        }
        if (best != null) {
            free.remove(best);
        }
        return best;
    }

    /**
     * With no free slot, a rotation has to reclaim a segment with nothing to re-append its objects into. When the slot
     * kept free is draining instead (readers pinned it while its read objects were re-appended, so every reclaim of a
     * segment of warm objects risks it) and that reclaim would evict objects the reclaimer keeps, waits up to
     * {@link #DRAIN_WAIT_NANOS} for the draining slot, once per slot; returns whether a slot is free now. The store's
     * lock held, the lookup lock not (readers release their pins under it alone, so lookups go on meanwhile).
     */
    private boolean awaitDrainedRatherThanLoseRead() {
        waitedOut.retainAll(draining);
        if (draining.isEmpty() || waitedOut.containsAll(draining)) {
            return false;
        }
        Segment next = null;
        lookupLock.lock();
        try {
            for (Segment s : sealed) {
                if (!s.isPinned()) {
                    next = s;
                    break;
                }
            }
        } finally {
            lookupLock.unlock();
        }
        if (next == null || !reclaimer.wouldLose(next)) {
            return false;
        }
        drainWaits.increment();
        long left = DRAIN_WAIT_NANOS;
        lookupLock.lock();
        try {
            while (left > 0 && draining.stream().allMatch(Segment::isPinned)) {
                left = drained.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lookupLock.unlock();
        }
        if (freeDrained()) {
            return true;
        }
        waitedOut.addAll(draining);
        return false;
    }

    /**
     * Evicts the oldest unpinned sealed segment whole and frees it, in the rotation that found no free slot. A lookup
     * may pin it meanwhile (the lookup lock is not held): it then drains before it is reused.
     */
    private void evictOldest() throws IOException {
        Segment victim = takeVictim();
        if (victim == null) {
            throw new StorageFullException("raw-log is full: all " + sealed.size()
                    + " segments holding data are pinned by open readers or writers");
        }
        inlineReclaims.increment();
        long generation = victim.generation();
        reclaimer.evict(victim);
        freeReclaimed(victim, generation);
    }

    /**
     * Takes the oldest sealed segment nothing pins out of the sealed queue for a reclaim, which ends with
     * {@link #freeReclaimed}; null if every sealed segment is pinned. The store's lock held.
     */
    private Segment takeVictim() {
        Segment victim = null;
        lookupLock.lock();
        try {
            for (Iterator<Segment> it = sealed.iterator(); it.hasNext(); ) {
                Segment s = it.next();
                if (!s.isPinned()) {
                    victim = s;
                    it.remove();
                    break;
                }
            }
        } finally {
            lookupLock.unlock();
        }
        if (victim != null) {
            reclaiming.addLast(victim);
        }
        return victim;
    }

    /**
     * Frees a victim of generation {@code generation} whose objects the reclaimer has evicted or copied, and wakes the
     * writers waiting for a slot. A lookup may pin it still: it then drains before it is reused. A victim that is no
     * longer that sealed generation (its disk failed meanwhile, and may even have been taken back) is only let go of.
     * The store's lock held.
     */
    void freeReclaimed(Segment victim, long generation) {
        reclaiming.remove(victim);
        copyHead = null;
        try {
            if (isVictim(victim, generation)) {
                freeVictim(victim);
            }
        } finally {
            slotFreed.signalAll();
        }
    }

    /** Whether {@code victim} still holds the sealed generation it was chosen with; the store's lock held. */
    boolean isVictim(Segment victim, long generation) {
        return victim.state() == SlotState.SEALED && victim.generation() == generation;
    }

    private void freeVictim(Segment victim) {
        if (victim.state() == SlotState.DEAD || !disks.online(victim.disk)) {
            return; // its disk failed while its objects were handled (a copy's read): the slot stays out with it
        }
        boolean pinned;
        lookupLock.lock();
        try {
            victim.free();
            pinned = victim.isPinned();
        } finally {
            lookupLock.unlock();
        }
        try {
            // the header's page holds no record, so a reader of a draining slot never reads what this clears
            victim.write(ByteBuffer.allocate(RecordFormat.SEGMENT_HEADER_BYTES), 0);
        } catch (StorageFullException e) {
            // not cleared for want of room: the next activation rewrites the header anyway
        } catch (StorageException e) {
            return; // the disk failed: DiskHealth took it out and the slot is DEAD; toFree would refuse it too
        }
        if (pinned) {
            draining.addLast(victim);
        } else {
            toFree(victim);
        }
    }

    /**
     * Whether a rotation that has just activated a segment reclaims one more: when no slot is free and none is being
     * reclaimed, or fewer than {@link #KEPT_FREE} are free, draining (a slot reclaimed while a reader pinned it, which
     * the next rotation may not have yet) or being reclaimed.
     */
    private boolean wantsReclaim() {
        boolean noneFree = !freeDrained();
        return (noneFree && reclaiming.isEmpty()) || free.size() + draining.size() + reclaiming.size() < KEPT_FREE;
    }

    /** Queues the draining slots that nothing pins any more; returns whether a slot is free now. */
    private boolean freeDrained() {
        if (draining.isEmpty()) {
            return !free.isEmpty();
        }
        java.util.List<Segment> drained = new java.util.ArrayList<>();
        lookupLock.lock();
        try {
            for (Iterator<Segment> it = draining.iterator(); it.hasNext(); ) {
                Segment s = it.next();
                if (!s.isPinned()) {
                    it.remove();
                    drained.add(s);
                }
            }
        } finally {
            lookupLock.unlock();
        }
        for (Segment s : drained) {
            toFree(s);
        }
        return !free.isEmpty();
    }

    /** Returns how many rotations found no free slot and waited for a draining one (stats, tests). */
    long drainWaits() {
        return drainWaits.sum();
    }

    /** Segments chosen for a reclaim and not freed yet; read without the store's lock for stats, so it may lag. */
    int reclaimingCount() {
        return reclaiming.size();
    }

    /** Returns how many times a writer waited for the background reclaim (stats, tests). */
    long reclaimWaits() {
        return reclaimWaits.sum();
    }

    /** Returns the milliseconds writers spent waiting for the background reclaim, summed (stats). */
    long reclaimWaitMillis() {
        return java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(reclaimWaitNanos.sum());
    }

    /** Returns how many reclaims a rotation did itself, evicting the victim whole (stats, tests). */
    long inlineReclaims() {
        return inlineReclaims.sum();
    }

    /** Returns how many reclaimed slots wait for their last pin before they are reused (stats, tests). */
    int drainingCount() {
        return draining.size();
    }

    /**
     * Queues a FREE slot for activation, unless its disk is not ONLINE: then the slot is DEAD (its disk is out, and
     * only {@link #takeBack} returns its slots), so that a failed disk's slot never comes back through the free list.
     */
    private void toFree(Segment s) {
        if (s.state() != SlotState.FREE || !disks.online(s.disk)) {
            if (s.state() != SlotState.DEAD) {
                lookupLock.lock();
                try {
                    s.kill();
                } finally {
                    lookupLock.unlock();
                }
            }
            return;
        }
        if (!free.contains(s)) {
            free.addLast(s);
        }
        punchLater(s);
    }

    /** Returns whether slot {@code s} is queued for activation (tests). */
    boolean isQueuedFree(Segment s) {
        return free.contains(s);
    }

    // ---------------------------------------------------------------- pins

    /** Pins {@code s} for {@code set}; the lookup lock held. */
    void pin(PinSet set, Segment s) {
        s.pin();
        set.add(s);
    }

    private void pinLocked(PinSet set, Segment s) {
        lookupLock.lock();
        try {
            pin(set, s);
        } finally {
            lookupLock.unlock();
        }
    }

    /**
     * Releases every pin of {@code set} (idempotent) under the lookup lock; while a disk is FAILING, also takes the
     * store's lock to retire the failed disks nobody pins any more.
     */
    void release(PinSet set) {
        lookupLock.lock();
        try {
            if (!set.markReleased()) {
                return;
            }
            for (int i = 0; i < set.size(); i++) {
                Segment s = set.get(i);
                s.unpin();
                if (!s.isPinned() && s.state() == SlotState.FREE) {
                    drained.signalAll(); // a draining slot may be reused now (see awaitDrainedRatherThanLoseRead)
                }
            }
        } finally {
            lookupLock.unlock();
        }
        for (int d = 0; d < disks.count(); d++) {
            if (disks.state(d) == DiskState.FAILING) {
                retireFailing();
                return;
            }
        }
    }

    private void retireFailing() {
        lock.lock();
        lookupLock.lock();
        try {
            for (int d = 0; d < disks.count(); d++) {
                if (disks.state(d) == DiskState.FAILING) {
                    retireIfUnpinned(d);
                }
            }
        } finally {
            lookupLock.unlock();
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- disks

    /**
     * Takes every slot of disk {@code d} out of the log; returns the generations whose bytes are lost, sorted. Both
     * locks held.
     */
    long[] killDisk(int d) {
        lookupLock.lock();
        try {
            return killDiskLocked(d);
        } finally {
            lookupLock.unlock();
        }
    }

    private long[] killDiskLocked(int d) {
        LongList lost = new LongList();
        for (Segment s : segments) {
            if (s.disk != d) {
                continue;
            }
            switch (s.state()) {
                case FREE -> {
                    free.remove(s);
                    draining.remove(s);
                }
                case SEALED -> sealed.remove(s);
                case ACTIVE -> active = null;
                case DEAD -> {
                    continue;
                }
            }
            if (s.generation() > 0) {
                lost.add(s.generation());
            }
            s.kill();
        }
        return lost.sorted();
    }

    /** Marks disk {@code d}'s slots DEAD without losing anything (its files could not be opened). */
    void deadAtOpen(int d) {
        for (Segment s : segments) {
            if (s.disk == d) {
                s.close();
                s.recovered(0);
                s.kill();
            }
        }
    }

    /**
     * Returns disk {@code d}'s slots to service, empty, once it has been re-opened (see {@link DiskReturn}): each DEAD
     * slot gets {@code channels[i]} (and {@code directChannels[i]}, null without direct I/O), in slot order of the
     * disk, holds nothing and is queued FREE. The disk must be ONLINE again (else its slots stay DEAD).
     */
    void takeBack(int d, java.nio.channels.FileChannel[] channels, java.nio.channels.FileChannel[] directChannels) {
        int i = 0;
        for (Segment s : segments) {
            if (s.disk != d) {
                continue;
            }
            s.open(channels[i]);
            if (directChannels[i] != null) {
                s.openDirect(directChannels[i]);
            }
            i++;
            lookupLock.lock();
            try {
                s.revive();
            } finally {
                lookupLock.unlock();
            }
            toFree(s);
        }
    }

    /** Closes a failed disk's files once nothing pins them, and marks it OFFLINE; both locks held. */
    void retireIfUnpinned(int d) {
        lookupLock.lock();
        try {
            retireIfUnpinnedLocked(d);
        } finally {
            lookupLock.unlock();
        }
    }

    private void retireIfUnpinnedLocked(int d) {
        for (Segment s : segments) {
            if (s.disk == d && s.isPinned()) {
                return;
            }
        }
        for (Segment s : segments) {
            if (s.disk == d) {
                s.close();
            }
        }
        disks.retired(d);
    }

    // ---------------------------------------------------------------- checkpoints and lifecycle

    /** Returns each slot's generation (0 = never activated), for a checkpoint. */
    long[] generations() {
        long[] g = new long[segments.length];
        for (Segment s : segments) {
            g[s.slot] = s.generation();
        }
        return g;
    }

    long nextGeneration() {
        return nextGeneration;
    }

    /** Returns the generation a checkpoint covers the log up to: the active segment's, or the next one. */
    long positionGeneration() {
        return active != null ? active.generation() : nextGeneration;
    }

    long positionOffset() {
        return active != null ? activePosition : RecordFormat.SEGMENT_HEADER_AREA;
    }

    /** Free slots; read without the store's lock for stats, so it may lag a rotation by a moment. */
    int freeCount() {
        return free.size();
    }

    int sealedCount() {
        return sealed.size();
    }

    /** Returns whether every segment's file is closed. */
    boolean allClosed() {
        for (Segment s : segments) {
            if (s.isOpen()) {
                return false;
            }
        }
        return true;
    }

    /** Forces every segment written since it was last forced; a disk that fails doing so is taken out. No lock needed. */
    void forceDirty() {
        for (Segment s : segments) {
            if (s.state() == SlotState.DEAD) {
                continue;
            }
            try {
                if (!s.forceIfDirty() && disks.online(s.disk)) {
                    return; // closed under us: the store is closing
                }
            } catch (StorageException e) {
                // judged by DiskHealth: a failing disk is out now
            }
        }
    }

    void closeAll() {
        if (puncher != null) {
            puncher.shutdown();
            try {
                puncher.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS); // a punch under way ends before its file closes
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (Segment s : segments) {
            s.close();
        }
    }
}
