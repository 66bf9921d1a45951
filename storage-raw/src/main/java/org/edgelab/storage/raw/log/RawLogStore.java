package org.edgelab.storage.raw.log;

import java.util.Set;
import org.edgelab.storage.api.StoreCall;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoreCounters;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoreUsage;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.raw.io.FileSpace;
import org.edgelab.storage.raw.io.PageIn;
import org.edgelab.units.ByteSize;

/**
 * One disk's {@code raw-log}: a circular log of fixed-size segment files on that disk, an in-memory {@link LogIndex}
 * and a periodic {@link Checkpoint}; the engine keeps one per disk and places each object wholly on one of them
 * ({@link RawLogShards}), so that a failed disk loses only its own objects.
 *
 * <p><b>Layout.</b> Capacity / segment-size slots; slot {@code s} is file {@code %08d.seg},
 * created at segment-size with {@code ftruncate} (the file system allocates blocks as they are first written),
 * and the disk's layout file says which disk of how many it is ({@link DiskPlace}). One slot at a time is active and
 * takes appends; each activation stamps the slot with a new generation. A body is written as extents
 * of at most 1 MiB (exactly sized when the length is known up front, growing from 64 KiB when
 * not), then a commit record (key, metadata through {@code MetadataCodec}, extent list with a
 * CRC32C per extent, CRC32C of the record) makes it visible. See {@link RecordFormat}. A body may
 * span many segments and be as large as all segments but two (less 10 % for headers).
 * With {@code direct-io} extents start on block boundaries and are written with O_DIRECT from
 * aligned staging buffers; the small records stay buffered, on pages of their own.
 *
 * <p><b>Index.</b> 24 bytes per table slot, 30-45 bytes per object at the table's load factor
 * (measured: 36.4 bytes per object at one million objects); metadata is not held in memory: a
 * lookup reads the commit record (one small read) and checks the key, so two keys with equal
 * 64-bit hashes are told apart on disk.
 *
 * <p><b>Eviction.</b> Three slots are kept free (one for the next rotation, one for copies, a spare while a reclaimed
 * slot drains): whenever a rotation leaves fewer, it hands the oldest segments no reader or writer pins to a
 * background thread ({@link BackgroundReclaim}) that reclaims each whole. With the default policy {@code reinsert},
 * the bytes it holds of objects read since they were written are first re-appended to the active segment, one object
 * at a time beside the writers (each re-append costs the object one of its at most seven counted reads; writers leave
 * the last 1/32 of each segment to such copies), and the rest is evicted: the warm set survives the log wrapping
 * around. Policy {@code fifo} evicts the oldest segment whole. While the reclaims under way may need more slots than
 * are free, writers wait for them (up to two seconds, {@code writersWaitedForReclaim}) rather than take the room their
 * copies need; a rotation that finds no free slot and no reclaim under way evicts the oldest segment whole itself
 * ({@code segmentsEvictedInline}). When readers pinned a reclaimed segment while its objects were re-appended, it
 * drains before reuse, and the next rotation waits for it (up to a second, once) rather than evict the next segment's
 * read objects with nowhere to re-append them. Free space never fragments.
 *
 * <p><b>Reuse and zero-copy.</b> Hits are offered as file slices (sendfile). A socket keeps references to
 * the pages it was given until the client reads them, so a slot is punched out (its pages dropped,
 * {@link Segment#discardPages}) before it takes a new generation; overwritten in place, it would change
 * bytes already sent (RawLogSentBytesTest). Where a disk's file system cannot punch holes, no slices
 * are offered and hits are copied ({@code zeroCopy} in the stats says which).
 *
 * <p><b>Durability.</b> {@code commit()} returns once the commit record is written to the file
 * (in the page cache): the object survives a crash of the process. With {@code sync=commit} it
 * returns after an fsync of the object's segments, so it also survives a crash of the machine;
 * {@code interval} forces every second, {@code none} only before each checkpoint and at close.
 * Every extent carries a CRC32C. An object this process did not write is verified whole at its first lookup (unless
 * {@code verify=never}), so damage found after a restart makes that lookup a miss (a cache refetches it) instead of
 * failing a reader mid-reply; a damaged object is dropped (counted in corruptObjectsDropped). With {@code verify=once}
 * (the default) readers then trust it, as they trust what this process wrote, so a hit is offered as file slices
 * without being read first; with {@code always} every reader checks each extent before its bytes are served or
 * offered. Restart loads the newest checkpoint and replays the log written after it,
 * cutting each segment at its first invalid record.
 *
 * <p><b>Disks.</b> An I/O error on the disk marks it FAILING: its objects become misses and it takes
 * no more writes (the store's other disks take its keys meanwhile, see {@link RawLogShards}); once no reader pins it, its files are closed and it is OFFLINE. A full file
 * system is not a failed disk: the write is refused ({@code StorageFullException}), the disk stays
 * ONLINE and every stored object stays readable (see {@link DiskHealth}). An OFFLINE disk is probed every
 * {@code disk-probe-interval} and taken back, empty, once it answers ({@link DiskReturn} says how and why empty);
 * {@code disk.N.takenBack} and {@code disksTakenBack} count it, {@code disk.N.objectsCommitted} shows it storing
 * objects again.
 *
 * <p><b>Parts.</b> This class coordinates: the slots and appends are {@link SegmentSlots} (over
 * one {@link Segment} per slot), what a reclaim does to objects is {@link SegmentEviction} (and the
 * tombstones a reclaim out of order re-appends, {@link CarriedTombstones}), disk
 * states and the judging of I/O errors are {@link DiskHealth}, opening and rebuilding the index
 * is {@link LogRecovery}, checkpoints are {@link Checkpointer}. Writers reach the store only
 * through {@link LogWriter.Appender}, readers not at all.
 *
 * <p>Thread-safe, with two locks (see {@link SegmentSlots}): the store's lock orders appends, rotations and reclaims
 * and is held across their small record writes (not across a re-append's copy); the lookup lock guards the index, slot states
 * and pins and is never held across I/O. A lookup takes only the lookup lock, so a hit never waits for a write
 * (measured 2026-12-06: on loop-device ext4, whose buffered writes the kernel throttles for hundreds of milliseconds,
 * the one lock of before stalled every lookup for whole seconds; docs/BENCHMARKS.md). Body bytes are written and read
 * outside both.
 */
final class RawLogStore implements ObjectStore {

    private static final System.Logger LOG = System.getLogger(RawLogStore.class.getName());

    private final String engineName;
    private final RawLogConfig config;
    private final DiskPlace place;
    private final ReentrantLock lock = new ReentrantLock();
    private final ReentrantLock lookupLock = new ReentrantLock();
    private final LogIndex index = new LogIndex(1024);
    private final StoreCounters counters = new StoreCounters();
    private final LongAdder lostToDiskFailure = new LongAdder();
    private final DiskHealth disks;
    private final SegmentSlots slots;
    private final SegmentEviction eviction;
    private final BackgroundReclaim reclaim;
    private final CarriedTombstones tombstones;
    private final Checkpointer checkpointer;
    private final DiskReturn diskReturn;
    /** Objects committed with their commit record on each disk: shows when a disk taken back stores objects again. */
    private final LongAdder[] committedOnDisk;
    private final LogWriter.Limits limits;
    private final LogWriter.Appender appender = new StoreAppender();
    private DirectIo direct = DirectIo.off();
    /** Why hits are copied rather than sent with sendfile (a reused segment cannot get fresh pages); null when they are sent. */
    private volatile String zeroCopy = "not open";
    private LogRecovery.Result recovery = new LogRecovery.Result("", 0);
    private volatile boolean closed;

    private RawLogStore(String engineName, RawLogConfig config, DiskPlace place, SegmentChannels opener) {
        if (config.disks().size() != 1) {
            throw new IllegalArgumentException("a RawLogStore is one disk's log, got " + config.disks()
                    + "; RawLogShards keeps one per disk");
        }
        this.engineName = engineName;
        this.config = config;
        this.place = place;
        this.disks = new DiskHealth(config.disks(), lock);
        this.slots = new SegmentSlots(config.segmentCount(), config.segmentSize(), disks, lock, lookupLock);
        this.tombstones = new CarriedTombstones(index, slots);
        this.eviction = new SegmentEviction(config.policy(), index, slots, counters, tombstones);
        this.checkpointer = new Checkpointer(config, lock, index, slots, disks);
        this.diskReturn = new DiskReturn(config, place, lock, slots, disks, opener, () -> closed);
        this.committedOnDisk = new LongAdder[disks.count()];
        for (int d = 0; d < committedOnDisk.length; d++) {
            committedOnDisk[d] = new LongAdder();
        }
        this.limits = new LogWriter.Limits(slots.maxObjectBytes(), slots.maxExtentBytes(),
                config.sync() == RawLogConfig.SyncMode.COMMIT);
        disks.listener(this::diskFailed);
        this.reclaim = new BackgroundReclaim(slots, eviction, String.valueOf(disks.dir(0).getFileName()));
        slots.reclaimer(reclaim);
    }

    /** Opens (or creates) the log of a store's one disk; fails if the disk cannot be opened. */
    static RawLogStore open(String engineName, RawLogConfig config, SegmentChannels opener) throws IOException {
        return open(engineName, config, DiskPlace.ALONE, opener, false);
    }

    /**
     * Opens (or creates) the log of the disk at {@code place}: its segment headers, checkpoint, then a scan of the log
     * after it. A disk that cannot be opened fails the open, unless {@code mayOpenOffline}: it is then OFFLINE, probed
     * and taken back as one that failed while the store ran.
     */
    static RawLogStore open(String engineName, RawLogConfig config, DiskPlace place, SegmentChannels opener,
                            boolean mayOpenOffline) throws IOException {
        RawLogStore store = new RawLogStore(engineName, config, place, opener);
        try {
            LogRecovery recovery = new LogRecovery(config, place, store.slots, store.disks, store.index, store.tombstones);
            recovery.openDisks(opener, mayOpenOffline);
            store.zeroCopy = store.holesUnsupported();
            store.slots.punchBeforeReuse(store.zeroCopy == null);
            if (store.zeroCopy != null) {
                LOG.log(System.Logger.Level.WARNING, "raw-log cannot give reused segments fresh pages (" + store.zeroCopy
                        + "): hits are copied, not sent with sendfile, which would let a reused segment change bytes"
                        + " a socket still holds");
            }
            store.direct = DirectIo.open(config, store.slots, store.disks);
            if (store.zeroCopy == null && store.direct.on()) {
                store.zeroCopy = "direct-io: hits are read past the page cache and copied"; // a slice would fill it
            }
            store.slots.direct(store.direct);
            store.diskReturn.direct(store.direct);
            store.recovery = recovery.recover();
            // Recovery scans the log in order with the kernel's read-ahead; serving reads at random without it.
            for (Segment s : store.slots.all()) {
                if (s.isOpen()) {
                    config.readAhead().apply(s.channel());
                }
            }
        } catch (IOException | RuntimeException e) {
            store.slots.closeAll();
            store.checkpointer.abandon();
            store.diskReturn.stop();
            throw e;
        }
        store.reclaim.start();
        store.checkpointer.start();
        store.diskReturn.start();
        return store;
    }

    /** Why a hole cannot be punched in some online disk's segments (see {@link FileSpace}); null when it can in all. */
    private String holesUnsupported() {
        for (int d = 0; d < disks.count(); d++) {
            if (disks.state(d) != DiskState.OFFLINE) {
                Optional<String> why = FileSpace.unsupportedIn(disks.dir(d));
                if (why.isPresent()) {
                    return disks.dir(d) + ": " + why.get();
                }
            }
        }
        for (Segment s : slots.all()) {
            if (s.isOpen()) {
                Optional<String> why = FileSpace.unsupportedFor(s.channelOrNull());
                if (why.isPresent()) {
                    return why.get();
                }
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- ObjectStore

    @Override
    public String engineName() {
        return engineName;
    }

    /**
     * Everything but views (there are none): lookups and file slices read and verify records, writes,
     * commits and removals write (and fsync with {@code sync=commit}), and writes wait for the store's
     * lock, which is held across segment I/O (lookups do not take it).
     */
    @Override
    public Set<StoreCall> blockingCalls() {
        return StoreCall.allExcept(StoreCall.VIEW);
    }

    @Override
    public Optional<StoredObject> lookup(CacheKey key) throws IOException {
        ensureOpen();
        counters.lookups.increment();
        Optional<Opened> opened = openCommitted(key, true);
        if (opened.isEmpty()) {
            return Optional.empty();
        }
        Opened o = opened.get();
        RawLogConfig.Verify verify = config.verify();
        boolean trusted = verify == RawLogConfig.Verify.NEVER || (verify == RawLogConfig.Verify.ONCE && o.verified());
        LogReader reader = new LogReader(o.record(), o.segments(), o.pins(), counters,
                why -> dropCorrupt(key.hash64(), o.location(), why), zeroCopy == null, trusted, direct);
        if (!o.verified() && verify != RawLogConfig.Verify.NEVER) {
            // First lookup since the store opened: check the whole body now, so that damage makes
            // this lookup a miss rather than failing a reader whose reply has begun.
            try {
                reader.verifyAll();
            } catch (StorageException e) {
                reader.close(); // corrupt (dropped and counted), or its disk failed: a miss either way
                return Optional.empty();
            }
            markVerified(key.hash64(), o.location());
        }
        counters.lookupHits.increment();
        return Optional.of(reader);
    }

    private void markVerified(long hash, long location) {
        lookupLock.lock();
        try {
            int pos = index.find(hash);
            if (pos >= 0 && LogIndex.sameRecord(index.locationAt(pos), location)) {
                index.markVerifiedAt(pos);
            }
        } finally {
            lookupLock.unlock();
        }
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        ensureOpen();
        if (metadata.length() > limits.maxObjectBytes()) {
            throw new StorageFullException("an object of " + ByteSize.format(metadata.length())
                    + " cannot fit in raw-log of " + ByteSize.format(config.capacityBytes()) + " (at most "
                    + ByteSize.format(limits.maxObjectBytes()) + ")");
        }
        counters.writesBegun.increment();
        return new LogWriter(appender, slots.newPins(), direct, counters, limits, key, metadata);
    }

    @Override
    public boolean remove(CacheKey key) throws IOException {
        ensureOpen();
        long hash = key.hash64();
        byte[] keyBytes = key.toBytes();
        lock.lock(); // orders the tombstone after any commit of the key
        try {
            if (!indexed(hash)) {
                return false;
            }
            int length = RecordFormat.tombstoneLength(keyBytes);
            long[] placed = slots.appendRecord(length, (slot, generation) -> RecordFormat.tombstone(generation, keyBytes),
                    null);
            lookupLock.lock();
            try {
                int pos = tombstones.supersede((int) placed[0], slots.get((int) placed[0]).generation(), key);
                if (pos >= 0) {
                    index.removeAt(pos);
                    counters.removals.increment();
                }
            } finally {
                lookupLock.unlock();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean updateMetadata(CacheKey key, ObjectMetadata metadata) throws IOException {
        ensureOpen();
        Optional<Opened> opened = openCommitted(key, false);
        if (opened.isEmpty()) {
            return false;
        }
        Opened o = opened.get();
        try {
            CommitRecord old = o.record();
            ObjectMetadata m = metadata.length() == ObjectMetadata.UNKNOWN_LENGTH
                    ? metadata.withLength(old.bodyLength()) : metadata;
            if (m.length() != old.bodyLength()) {
                throw new IllegalArgumentException("updateMetadata keeps the body: length " + m.length()
                        + " differs from the stored " + old.bodyLength());
            }
            CommitRecord updated = new CommitRecord(key, m, old.bodyLength(), old.extents());
            lock.lock(); // no writer replaces it between the check and the new record
            try {
                int hits;
                boolean verified;
                lookupLock.lock();
                try {
                    int pos = index.find(key.hash64());
                    if (pos < 0 || !LogIndex.sameRecord(index.locationAt(pos), o.location())) {
                        return pos >= 0; // replaced by a newer object meanwhile, or gone
                    }
                    hits = LogIndex.hits(index.locationAt(pos));
                    verified = LogIndex.verified(index.extentAt(pos));
                } finally {
                    lookupLock.unlock();
                }
                publish(updated, o.pins(), hits, verified);
                return true;
            } finally {
                lock.unlock();
            }
        } finally {
            o.pins().release();
        }
    }

    @Override
    public StoreUsage usage() {
        lookupLock.lock();
        try {
            return new StoreUsage(config.capacityBytes(), Math.min(index.liveBytes(), config.capacityBytes()),
                    index.size());
        } finally {
            lookupLock.unlock();
        }
    }

    private boolean indexed(long hash) {
        lookupLock.lock();
        try {
            return index.find(hash) >= 0;
        } finally {
            lookupLock.unlock();
        }
    }

    @Override
    public StoreStats stats() {
        Map<String, Object> extra = new LinkedHashMap<>();
        // not the store's lock, which a throttled write may hold for long: the slot counts below may lag a moment
        lookupLock.lock();
        try {
            disks.describe(extra);
            for (int d = 0; d < committedOnDisk.length; d++) {
                extra.put("disk." + d + ".objectsCommitted", committedOnDisk[d].sum());
            }
            extra.put("segments", slots.count());
            extra.put("segmentSize", config.segmentSize());
            extra.put("segmentsFree", slots.freeCount());
            extra.put("segmentsSealed", slots.sealedCount());
            extra.put("segmentsDraining", slots.drainingCount());
            extra.put("rotationsWaitedForDrain", slots.drainWaits());
            extra.put("segmentsBeingReclaimed", slots.reclaimingCount());
            extra.put("segmentsReclaimedInBackground", reclaim.reclaimed());
            extra.put("writersWaitedForReclaim", slots.reclaimWaits());
            extra.put("writersWaitedForReclaimMillis", slots.reclaimWaitMillis());
            extra.put("segmentsEvictedInline", slots.inlineReclaims());
            extra.put("policy", config.policy().name().toLowerCase(Locale.ROOT));
            extra.put("sync", config.sync().name().toLowerCase(Locale.ROOT));
            extra.put("directIo", direct.status());
            extra.put("zeroCopy", zeroCopy == null ? "sendfile (reused segments punched out first)" : "off: " + zeroCopy);
            extra.put("readAhead", config.readAhead().status());
            extra.put("pageIn", PageIn.status());
            extra.put("verify", config.verify().name().toLowerCase(Locale.ROOT));
            extra.put("indexBytes", index.allocatedBytes());
            extra.put("indexBytesPerObject", index.size() == 0 ? 0.0 : (double) index.allocatedBytes() / index.size());
            extra.put("reinsertedObjects", eviction.reinserted());
            extra.put("evictedAfterRead", eviction.evictedAfterRead());
            extra.put("tombstonesCarried", tombstones.carried());
            extra.put("objectsLostToDiskFailure", lostToDiskFailure.sum());
            extra.put("checkpointsWritten", checkpointer.written());
            extra.put("lastCheckpointMillis", checkpointer.lastMillis());
            extra.put("recoveryMillis", recovery.millis());
            extra.put("recovery", recovery.summary());
        } finally {
            lookupLock.unlock();
        }
        return counters.snapshot(extra);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        diskReturn.stop();
        reclaim.stop();
        checkpointer.stop();
        try {
            checkpointer.checkpoint();
        } catch (IOException e) {
            // nothing is lost: the log is the record, and the next open scans what no checkpoint covers
            LOG.log(System.Logger.Level.WARNING, "raw-log could not write its closing checkpoint (the next open"
                    + " scans the log instead): " + e);
        } finally {
            disks.closing();
            lock.lock();
            try {
                slots.closeAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Whether the disk takes objects now (ONLINE); read without the lock, so it may lag a change by a moment. */
    boolean online() {
        return disks.online(0);
    }

    /** The most bytes one object may have in this log. */
    long maxObjectBytes() {
        return limits.maxObjectBytes();
    }

    /** Probes the OFFLINE disks now and takes back those that answer; returns how many (tests; the store probes every disk-probe-interval). */
    int probeDisksNow() {
        return diskReturn.probeNow();
    }

    /** Writes a checkpoint now (tests; the store also writes them periodically and at close). */
    void checkpoint() throws IOException {
        checkpointer.checkpoint();
    }

    // ---------------------------------------------------------------- lookups

    /**
     * What a lookup found: the commit record, where it is, its extents' segments and the pins that
     * keep them, and whether this process has verified its body.
     */
    private record Opened(CommitRecord record, long location, Segment[] segments, PinSet pins, boolean verified) {
    }

    private Optional<Opened> openCommitted(CacheKey key, boolean countHit) throws IOException {
        long hash = key.hash64();
        PinSet pins = slots.newPins();
        long location;
        Segment segment;
        long generation;
        boolean verified;
        lookupLock.lock();
        try {
            int pos = index.find(hash);
            if (pos < 0) {
                return Optional.empty();
            }
            location = index.locationAt(pos);
            verified = LogIndex.verified(index.extentAt(pos));
            if (countHit && LogIndex.hits(location) < 7) {
                index.setLocationAt(pos, location + 1);
            }
            segment = slots.get(LogIndex.slot(location));
            generation = segment.generation();
            slots.pin(pins, segment);
        } finally {
            lookupLock.unlock();
        }
        boolean keep = false;
        try {
            CommitRecord record;
            try {
                record = RecordFormat.decodeCommit(segment.readCommitRecord(LogIndex.offset(location)), generation);
            } catch (CorruptObjectException e) {
                dropCorrupt(hash, location, e.getMessage());
                return Optional.empty();
            } catch (StorageException e) {
                return Optional.empty(); // the disk failed; its objects are misses
            }
            if (!record.key().equals(key)) {
                return Optional.empty(); // another key with the same 64-bit hash
            }
            Segment[] segments = new Segment[record.extents().size()];
            lookupLock.lock();
            try {
                for (int i = 0; i < segments.length; i++) {
                    Extent e = record.extents().get(i);
                    if (e.slot() >= slots.count() || !slots.get(e.slot()).holds(e.generation())) {
                        index.removeIfAt(hash, location);
                        return Optional.empty();
                    }
                    segments[i] = slots.get(e.slot());
                    slots.pin(pins, segments[i]);
                }
            } finally {
                lookupLock.unlock();
            }
            keep = true;
            return Optional.of(new Opened(record, location, segments, pins, verified));
        } finally {
            if (!keep) {
                pins.release();
            }
        }
    }

    /** Drops the object if the index still points at the damaged record; counts it once. */
    private void dropCorrupt(long hash, long location, String why) {
        lookupLock.lock();
        try {
            if (index.removeIfAt(hash, location)) {
                counters.corruptObjectsDropped.increment();
                LOG.log(System.Logger.Level.WARNING, "raw-log dropped a corrupt object: " + why);
            }
        } finally {
            lookupLock.unlock();
        }
    }

    // ---------------------------------------------------------------- commits

    /**
     * Appends the commit record of {@code record} and points the index at it (the store's lock held, not the lookup
     * lock, which it takes for the index); {@code
     * verified} says whether this process knows the body's bytes good (it wrote or checked them).
     */
    private void publish(CommitRecord record, PinSet holderPins, int hits, boolean verified) throws IOException {
        requireExtentsLive(record);
        int length = RecordFormat.commitLength(record.key().toBytes(), record.metadata(), record.extents().size());
        long[] placed = slots.appendRecord(length, (slot, generation) -> RecordFormat.commit(generation, record),
                holderPins);
        requireExtentsLive(record); // a disk may have failed while appending
        int slot = (int) placed[0];
        committedOnDisk[slots.get(slot).disk].increment();
        long generation = slots.get(slot).generation();
        long span = generation - record.lowestGeneration(generation);
        if (span > LogIndex.MAX_SPAN) {
            throw new StorageException("'" + record.key() + "' spans " + span + " segment generations; at most "
                    + LogIndex.MAX_SPAN + " are indexed");
        }
        lookupLock.lock();
        try {
            tombstones.supersede(slot, generation, record.key());
            index.put(record.key().hash64(), LogIndex.location(slot, placed[1], hits),
                    LogIndex.verified(LogIndex.extent((int) span, RecordFormat.storedBytes(length, record.extents())),
                            verified));
        } finally {
            lookupLock.unlock();
        }
    }

    private void requireExtentsLive(CommitRecord record) throws StorageException {
        for (Extent e : record.extents()) {
            if (!slots.get(e.slot()).holds(e.generation())) {
                throw new StorageException("a disk holding part of '" + record.key() + "' failed while it was written");
            }
        }
    }

    /** The writers' view of the store: extents and commits, under the lock. */
    private final class StoreAppender implements LogWriter.Appender {
        @Override
        public SegmentSlots.Allocation allocate(PinSet pins, long want) throws IOException {
            lock.lock();
            try {
                ensureOpen();
                return slots.allocateExtent(pins, want);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void trim(SegmentSlots.Allocation a, long used) {
            lock.lock();
            try {
                if (!closed) {
                    slots.trimExtent(a, used);
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void commit(CommitRecord record, PinSet pins) throws IOException {
            lock.lock();
            try {
                ensureOpen();
                publish(record, pins, 0, true); // the writer checksummed what it wrote
            } finally {
                lock.unlock();
            }
        }
    }

    // ---------------------------------------------------------------- disks

    /**
     * Takes a failed disk out (DiskHealth's listener; the store's lock held): its slots, and every object with bytes on
     * it, in one hold of the lookup lock.
     */
    private void diskFailed(int disk) {
        lookupLock.lock();
        try {
            long[] lost = slots.killDisk(disk);
            index.removeTouching(lost, slot -> slots.get(slot).generation(), lostToDiskFailure, null);
            slots.retireIfUnpinned(disk);
        } finally {
            lookupLock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this raw-log store is closed");
        }
    }
}
