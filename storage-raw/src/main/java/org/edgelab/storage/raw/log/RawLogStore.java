package org.edgelab.storage.raw.log;

import java.util.Set;
import org.edgelab.storage.api.StoreCall;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
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
import org.edgelab.units.ByteSize;

/**
 * A {@code raw-log} store: a circular log of fixed-size segment files spread round-robin over the
 * disks, an in-memory {@link LogIndex} and a periodic {@link Checkpoint}.
 *
 * <p><b>Layout.</b> Capacity / segment-size slots; slot {@code s} is file {@code %08d.seg} on disk
 * {@code s % disks}, created at segment-size with {@code ftruncate} (the file system allocates
 * blocks as they are first written). One slot at a time is active and takes appends, so the disks
 * take turns; each activation stamps the slot with a new generation. A body is written as extents
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
 * <p><b>Eviction.</b> When no slot is free the oldest segment no reader or writer pins is
 * reclaimed whole: its objects are evicted (policy {@code fifo}), or those read since written and
 * lying entirely in it are first re-appended (policy {@code reinsert}, up to half a segment per
 * reclaim). One slot is kept free so reinsertion always has room. Free space never fragments.
 *
 * <p><b>Durability.</b> {@code commit()} returns once the commit record is written to the file
 * (in the page cache): the object survives a crash of the process. With {@code sync=commit} it
 * returns after an fsync of the object's segments, so it also survives a crash of the machine;
 * {@code interval} forces every second, {@code none} only before each checkpoint and at close.
 * Whatever the mode, every extent is verified against its CRC32C before its bytes are served or
 * offered as a file slice, and a damaged object is dropped (counted in corruptObjectsDropped) and
 * becomes a miss. Restart loads the newest checkpoint and replays the log written after it,
 * cutting each segment at its first invalid record.
 *
 * <p><b>Disks.</b> An I/O error on a disk marks it FAILING: its objects become misses and it takes
 * no more writes; once no reader pins it, its files are closed and it is OFFLINE.
 *
 * <p>Thread-safe: index, slots and allocation are guarded by one lock held only for bookkeeping
 * and small record writes; body bytes are written and read outside it.
 */
final class RawLogStore implements ObjectStore {

    private static final System.Logger LOG = System.getLogger(RawLogStore.class.getName());
    private static final String LAYOUT = "raw-log.layout";
    private static final byte FREE = 0;
    private static final byte ACTIVE = 1;
    private static final byte SEALED = 2;
    private static final byte DEAD = 3;
    private static final long MAX_EXTENT = 1L << 20;
    private static final int COPY_BUFFER = 64 * 1024;
    private static final int STAGE = 1 << 20;

    private final String engineName;
    private final RawLogConfig config;
    private final long segmentSize;
    private final int slotCount;
    private final int diskCount;
    private final Path[] diskDirs;
    private final DiskState[] diskStates;
    private final String[] diskReasons;
    private final FileChannel[] channels;
    private final FileChannel[] directChannels; // O_DIRECT write channels, all null unless direct I/O is on
    private final ConcurrentLinkedQueue<ByteBuffer> stages = new ConcurrentLinkedQueue<>();
    private boolean directIo;
    private String directIoStatus = "off";
    private int block = 4096;
    private final long[] slotGeneration;
    private final int[] pins;
    private final boolean[] dirty; // written since last forced; racy by design, set before the write
    private final byte[] slotState;
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private final ArrayDeque<Integer> sealed = new ArrayDeque<>();
    private final LogIndex index = new LogIndex(1024);
    private final ReentrantLock lock = new ReentrantLock();
    private final Object checkpointLock = new Object();
    private final StoreCounters counters = new StoreCounters();
    private final LongAdder reinserted = new LongAdder();
    private final LongAdder lostToDiskFailure = new LongAdder();
    private final LongAdder checkpoints = new LongAdder();
    private final ScheduledExecutorService background;
    private int activeSlot = -1;
    private long activePosition;
    private long nextGeneration = 1;
    private int lastDisk = -1;
    private long liveBytes;
    private volatile boolean closed;
    private volatile long lastCheckpointMillis = -1;
    private String recoverySummary = "";
    private long recoveryMillis;

    private RawLogStore(String engineName, RawLogConfig config) {
        this.engineName = engineName;
        this.config = config;
        this.segmentSize = config.segmentSize();
        this.slotCount = config.segmentCount();
        this.diskCount = config.disks().size();
        this.diskDirs = config.disks().toArray(new Path[0]);
        this.diskStates = new DiskState[diskCount];
        this.diskReasons = new String[diskCount];
        this.channels = new FileChannel[slotCount];
        this.directChannels = new FileChannel[slotCount];
        this.slotGeneration = new long[slotCount];
        this.pins = new int[slotCount];
        this.dirty = new boolean[slotCount];
        this.slotState = new byte[slotCount];
        this.background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "raw-log-checkpoint");
            t.setDaemon(true);
            return t;
        });
    }

    /** Opens (or creates) the store: disks, segment headers, checkpoint, then a scan of the log after it. */
    static RawLogStore open(String engineName, RawLogConfig config, SegmentChannels opener) throws IOException {
        RawLogStore store = new RawLogStore(engineName, config);
        try {
            store.openDisks(opener);
            store.openDirectChannels();
            store.recover();
        } catch (IOException | RuntimeException e) {
            store.closeChannels();
            store.background.shutdownNow();
            throw e;
        }
        store.startBackground();
        return store;
    }

    // ---------------------------------------------------------------- opening and recovery

    private void openDisks(SegmentChannels opener) throws IOException {
        List<String> failures = new ArrayList<>();
        for (int d = 0; d < diskCount; d++) {
            diskStates[d] = DiskState.ONLINE;
            try {
                Files.createDirectories(diskDirs[d]);
                checkLayout(d);
                for (int s = d; s < slotCount; s += diskCount) {
                    FileChannel ch = opener.open(d, diskDirs[d].resolve(String.format("%08d.seg", s)));
                    channels[s] = ch;
                    if (ch.size() < segmentSize) {
                        ch.write(ByteBuffer.wrap(new byte[1]), segmentSize - 1);
                    }
                    ByteBuffer header = ByteBuffer.allocate(RecordFormat.SEGMENT_HEADER_BYTES);
                    readFully(ch, header, 0);
                    header.flip();
                    slotGeneration[s] = RecordFormat.segmentGeneration(header, s, segmentSize);
                }
            } catch (IOException e) {
                failures.add(diskDirs[d] + ": " + e);
                diskStates[d] = DiskState.OFFLINE;
                diskReasons[d] = "could not be opened: " + e;
                LOG.log(System.Logger.Level.WARNING, "raw-log disk " + diskDirs[d] + " is OFFLINE: " + e);
                for (int s = d; s < slotCount; s += diskCount) {
                    closeQuietly(channels[s]);
                    channels[s] = null;
                    slotGeneration[s] = 0;
                    slotState[s] = DEAD;
                }
            }
        }
        if (failures.size() == diskCount) {
            throw new IOException("raw-log could open none of its disks: " + String.join("; ", failures));
        }
    }

    /** With direct-io=true, opens an O_DIRECT channel per segment, or falls back to buffered writes saying why. */
    private void openDirectChannels() {
        if (!config.directIo()) {
            return;
        }
        try {
            for (int d = 0; d < diskCount; d++) {
                if (diskStates[d] == DiskState.ONLINE) {
                    block = Math.max(block, (int) Math.min(1 << 16, Files.getFileStore(diskDirs[d]).getBlockSize()));
                }
            }
            if (segmentSize % block != 0) {
                throw new IOException("segment-size " + segmentSize + " is not a multiple of the block size " + block);
            }
            for (int s = 0; s < slotCount; s++) {
                if (channels[s] != null) {
                    directChannels[s] = FileChannel.open(diskDirs[s % diskCount].resolve(String.format("%08d.seg", s)),
                            StandardOpenOption.WRITE, com.sun.nio.file.ExtendedOpenOption.DIRECT);
                }
            }
            directIo = true;
            directIoStatus = "on (block " + block + " B)";
        } catch (IOException | UnsupportedOperationException e) {
            for (int s = 0; s < slotCount; s++) {
                closeQuietly(directChannels[s]);
                directChannels[s] = null;
            }
            directIoStatus = "off: " + e;
            LOG.log(System.Logger.Level.WARNING, "direct-io=true, but O_DIRECT is not available on " + config.disks()
                    + " (" + e + "); raw-log writes through the page cache instead");
        }
    }

    private void checkLayout(int d) throws IOException {
        Path file = diskDirs[d].resolve(LAYOUT);
        Properties expected = new Properties();
        expected.setProperty("format", "1");
        expected.setProperty("segment-size", Long.toString(segmentSize));
        expected.setProperty("segments", Integer.toString(slotCount));
        expected.setProperty("disks", Integer.toString(diskCount));
        expected.setProperty("disk", Integer.toString(d));
        if (Files.exists(file)) {
            Properties found = new Properties();
            try (var in = Files.newInputStream(file)) {
                found.load(in);
            }
            if (!found.equals(expected)) {
                throw new IllegalArgumentException("raw-log disk " + diskDirs[d] + " was formatted as " + found
                        + " but is opened as " + expected + "; reopen with the original disks, capacity and"
                        + " segment-size, or empty the directory");
            }
            return;
        }
        Path tmp = diskDirs[d].resolve(LAYOUT + ".tmp");
        try (var out = Files.newOutputStream(tmp)) {
            expected.store(out, "raw-log disk layout; do not edit");
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private void recover() throws IOException {
        long started = System.nanoTime();
        Checkpoint checkpoint = newestCheckpoint();
        long scanFromGeneration = 0;
        long scanFromOffset = RecordFormat.SEGMENT_HEADER_AREA;
        int fromCheckpoint = 0;
        if (checkpoint != null) {
            fromCheckpoint = loadCheckpoint(checkpoint);
            scanFromGeneration = checkpoint.positionGeneration();
            scanFromOffset = checkpoint.positionOffset();
            nextGeneration = Math.max(nextGeneration, checkpoint.nextGeneration());
        }
        Integer[] used = java.util.stream.IntStream.range(0, slotCount)
                .filter(s -> slotState[s] != DEAD && slotGeneration[s] > 0).boxed()
                .sorted((a, b) -> Long.compare(slotGeneration[a], slotGeneration[b])).toArray(Integer[]::new);
        long scanned = 0;
        long lastEnd = -1;
        for (int i = 0; i < used.length; i++) {
            int s = used[i];
            long g = slotGeneration[s];
            nextGeneration = Math.max(nextGeneration, g + 1);
            if (slotState[s] == DEAD) {
                continue; // its disk failed earlier in this scan
            }
            slotState[s] = SEALED;
            sealed.addLast(s);
            if (g < scanFromGeneration) {
                continue;
            }
            long from = g == scanFromGeneration ? scanFromOffset : RecordFormat.SEGMENT_HEADER_AREA;
            try {
                long[] result = scanSegment(s, g, from);
                scanned += result[1];
                if (i == used.length - 1) {
                    lastEnd = result[0];
                }
            } catch (IOException e) {
                diskFailed(s % diskCount, e);
            }
        }
        if (!anyDiskOnline()) {
            throw new IOException("raw-log lost every disk while recovering: " + diskSummary());
        }
        if (used.length > 0 && lastEnd >= 0 && segmentSize - lastEnd >= 4096
                && slotState[used[used.length - 1]] == SEALED) {
            int last = used[used.length - 1];
            sealed.removeLast();
            slotState[last] = ACTIVE;
            activeSlot = last;
            activePosition = lastEnd;
        }
        for (int s = 0; s < slotCount; s++) {
            if (slotState[s] == FREE) {
                free.addLast(s);
            }
        }
        recoveryMillis = (System.nanoTime() - started) / 1_000_000;
        recoverySummary = (checkpoint == null ? "no checkpoint" : "checkpoint entries " + fromCheckpoint)
                + ", log records replayed " + scanned + ", objects " + index.size();
        LOG.log(System.Logger.Level.INFO, "raw-log recovered in " + recoveryMillis + " ms: " + recoverySummary);
    }

    private Checkpoint newestCheckpoint() {
        Checkpoint best = null;
        for (int d = 0; d < diskCount; d++) {
            if (diskStates[d] != DiskState.ONLINE) {
                continue;
            }
            try {
                Checkpoint c = Checkpoint.readFrom(diskDirs[d]);
                if (c == null) {
                    continue;
                }
                if (c.segmentSize() != segmentSize || c.slotGenerations().length != slotCount) {
                    LOG.log(System.Logger.Level.WARNING, "ignoring checkpoint in " + diskDirs[d]
                            + ": written for another layout");
                    continue;
                }
                if (best == null || c.positionGeneration() > best.positionGeneration()
                        || (c.positionGeneration() == best.positionGeneration()
                        && c.positionOffset() > best.positionOffset())) {
                    best = c;
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "ignoring damaged checkpoint in " + diskDirs[d]
                        + " (the log will be scanned instead): " + e.getMessage());
            }
        }
        return best;
    }

    /** Keeps the checkpoint's entries whose segments still hold the generations they had; returns how many. */
    private int loadCheckpoint(Checkpoint c) {
        long[] then = c.slotGenerations();
        LongList lost = new LongList();
        for (int s = 0; s < slotCount; s++) {
            if (then[s] != 0 && then[s] != slotGeneration[s]) {
                lost.add(then[s]);
            }
        }
        long[] lostSorted = lost.sorted();
        long[] e = c.entries();
        int kept = 0;
        for (int i = 0; i < e.length; i += 3) {
            long location = e[i + 1];
            long extent = e[i + 2];
            int cs = LogIndex.slot(location);
            if (cs >= slotCount || then[cs] == 0 || slotGeneration[cs] != then[cs] || slotState[cs] == DEAD) {
                continue;
            }
            long high = then[cs];
            if (touches(lostSorted, high - LogIndex.span(extent), high)) {
                continue;
            }
            putEntry(e[i], location, extent);
            kept++;
        }
        return kept;
    }

    /** Replays one segment from {@code from}; returns {end offset, records replayed}. */
    private long[] scanSegment(int slot, long generation, long from) throws IOException {
        SegmentWindow window = new SegmentWindow(channels[slot], segmentSize);
        long pos = RecordFormat.align8(Math.max(from, RecordFormat.SEGMENT_HEADER_AREA));
        long records = 0;
        while (pos + RecordFormat.RECORD_HEADER_BYTES <= segmentSize) {
            ByteBuffer hb = window.bytes(pos, RecordFormat.RECORD_HEADER_BYTES);
            RecordFormat.Header h = hb == null ? null : RecordFormat.decodeHeader(hb);
            if (h == null || h.generation() != generation) {
                break;
            }
            long length = h.type() == RecordFormat.EXTENT ? RecordFormat.RECORD_HEADER_BYTES + h.length() : h.length();
            if (length < RecordFormat.RECORD_HEADER_BYTES || length > segmentSize - pos) {
                break;
            }
            if (h.type() != RecordFormat.EXTENT) {
                ByteBuffer record = length > Integer.MAX_VALUE - 8 ? null : window.bytes(pos, (int) length);
                if (record == null) {
                    break;
                }
                try {
                    if (h.type() == RecordFormat.COMMIT) {
                        replayCommit(slot, pos, generation, RecordFormat.decodeCommit(record, generation), length);
                    } else {
                        removeEntry(RecordFormat.decodeTombstone(record).hash64());
                    }
                } catch (CorruptObjectException e) {
                    LOG.log(System.Logger.Level.WARNING, "raw-log segment " + slot + " ends at damaged record "
                            + pos + ": " + e.getMessage());
                    break;
                }
            }
            records++;
            pos = RecordFormat.align8(pos + length);
        }
        return new long[] {pos, records};
    }

    /** Sequential reads of a segment through a 1 MiB window, so a scan costs one read per MiB of small records. */
    private static final class SegmentWindow {
        private static final int WINDOW = 1 << 20;
        private final FileChannel channel;
        private final long limit;
        private ByteBuffer window = ByteBuffer.allocate(0);
        private long windowStart;

        SegmentWindow(FileChannel channel, long limit) {
            this.channel = channel;
            this.limit = limit;
        }

        /** Returns {@code length} bytes at {@code position} (a view valid until the next call), or null past the end. */
        ByteBuffer bytes(long position, int length) throws IOException {
            if (position < windowStart || position + length > windowStart + window.limit()) {
                int size = (int) Math.min(Math.max(WINDOW, length), limit - position);
                if (size < length) {
                    return null;
                }
                window = window.capacity() >= size ? window.clear().limit(size) : ByteBuffer.allocate(size);
                windowStart = position;
                if (!readFully(channel, window, position)) {
                    window.flip();
                    return null;
                }
                window.flip();
            }
            return window.slice((int) (position - windowStart), length);
        }
    }

    private void replayCommit(int slot, long pos, long generation, CommitRecord r, long length) {
        for (Extent e : r.extents()) {
            if (e.slot() >= slotCount || slotState[e.slot()] == DEAD || slotGeneration[e.slot()] != e.generation()
                    || e.offset() + e.length() > segmentSize) {
                return; // a segment holding part of the body was reused since
            }
        }
        long span = generation - r.lowestGeneration(generation);
        if (span < 0 || span > LogIndex.MAX_SPAN) {
            return;
        }
        putEntry(r.key().hash64(), LogIndex.location(slot, pos, 0),
                LogIndex.extent((int) span, RecordFormat.storedBytes(length, r.extents())));
    }

    private void startBackground() {
        if (config.checkpointIntervalMillis() > 0) {
            long every = config.checkpointIntervalMillis();
            background.scheduleWithFixedDelay(() -> {
                try {
                    checkpoint();
                } catch (IOException | RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "raw-log checkpoint failed: " + e);
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
        if (config.sync() == RawLogConfig.SyncMode.INTERVAL) {
            background.scheduleWithFixedDelay(this::forceAll, 1, 1, TimeUnit.SECONDS);
        }
    }

    // ---------------------------------------------------------------- ObjectStore

    @Override
    public String engineName() {
        return engineName;
    }

    /**
     * Everything but views (there are none): lookups and file slices read and verify records, writes,
     * commits and removals write (and fsync with {@code sync=commit}), and all of them take the
     * store's lock, which is held across segment I/O.
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
        counters.lookupHits.increment();
        Opened o = opened.get();
        return Optional.of(new LogReader(this, o.record(), key.hash64(), o.location(), o.pins()));
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        ensureOpen();
        if (metadata.length() > maxObjectBytes()) {
            throw new StorageFullException("an object of " + ByteSize.format(metadata.length())
                    + " cannot fit in raw-log of " + ByteSize.format(config.capacityBytes()) + " (at most "
                    + ByteSize.format(maxObjectBytes()) + ")");
        }
        counters.writesBegun.increment();
        return new LogWriter(this, key, metadata);
    }

    @Override
    public boolean remove(CacheKey key) throws IOException {
        ensureOpen();
        long hash = key.hash64();
        byte[] keyBytes = key.toBytes();
        lock.lock();
        try {
            if (index.find(hash) < 0) {
                return false;
            }
            int length = RecordFormat.tombstoneLength(keyBytes);
            appendRecord(length, (slot, generation) -> RecordFormat.tombstone(generation, keyBytes), null);
            if (removeEntry(hash)) {
                counters.removals.increment();
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
            lock.lock();
            try {
                int pos = index.find(key.hash64());
                if (pos < 0 || !sameRecord(index.locationAt(pos), o.location())) {
                    return pos >= 0; // replaced by a newer object meanwhile, or gone
                }
                publish(updated, o.pins(), LogIndex.hits(index.locationAt(pos)));
                return true;
            } finally {
                lock.unlock();
            }
        } finally {
            release(o.pins());
        }
    }

    @Override
    public StoreUsage usage() {
        lock.lock();
        try {
            return new StoreUsage(config.capacityBytes(), Math.min(liveBytes, config.capacityBytes()), index.size());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public StoreStats stats() {
        Map<String, Object> extra = new LinkedHashMap<>();
        lock.lock();
        try {
            for (int d = 0; d < diskCount; d++) {
                extra.put("disk." + d + ".path", diskDirs[d].toString());
                extra.put("disk." + d + ".state", diskStates[d].name());
                if (diskReasons[d] != null) {
                    extra.put("disk." + d + ".reason", diskReasons[d]);
                }
            }
            extra.put("segments", slotCount);
            extra.put("segmentSize", segmentSize);
            extra.put("segmentsFree", free.size());
            extra.put("segmentsSealed", sealed.size());
            extra.put("policy", config.policy().name().toLowerCase(java.util.Locale.ROOT));
            extra.put("sync", config.sync().name().toLowerCase(java.util.Locale.ROOT));
            extra.put("directIo", directIoStatus);
            extra.put("indexBytes", index.allocatedBytes());
            extra.put("indexBytesPerObject", index.size() == 0 ? 0.0 : (double) index.allocatedBytes() / index.size());
            extra.put("reinsertedObjects", reinserted.sum());
            extra.put("objectsLostToDiskFailure", lostToDiskFailure.sum());
            extra.put("checkpointsWritten", checkpoints.sum());
            extra.put("lastCheckpointMillis", lastCheckpointMillis);
            extra.put("recoveryMillis", recoveryMillis);
            extra.put("recovery", recoverySummary);
        } finally {
            lock.unlock();
        }
        return counters.snapshot(extra);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        background.shutdown();
        try {
            background.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            checkpoint();
        } finally {
            lock.lock();
            try {
                closeChannels();
            } finally {
                lock.unlock();
            }
        }
    }

    // ---------------------------------------------------------------- index operations (lock held)

    private void putEntry(long hash, long location, long extent) {
        long previous = index.put(hash, location, extent);
        if (previous >= 0) {
            liveBytes -= LogIndex.storedBytes(previous);
        }
        liveBytes += LogIndex.storedBytes(extent);
    }

    private boolean removeEntry(long hash) {
        int pos = index.find(hash);
        if (pos < 0) {
            return false;
        }
        liveBytes -= LogIndex.storedBytes(index.extentAt(pos));
        index.removeAt(pos);
        return true;
    }

    private static boolean sameRecord(long a, long b) {
        return (a >>> 3) == (b >>> 3);
    }

    private static boolean touches(long[] sortedGenerations, long low, long high) {
        int i = Arrays.binarySearch(sortedGenerations, low);
        if (i >= 0) {
            return true;
        }
        int insertion = -i - 1;
        return insertion < sortedGenerations.length && sortedGenerations[insertion] <= high;
    }

    /** Drops every entry whose body may lie in a segment of one of {@code generations}; returns how many. */
    private int dropTouching(long[] sortedGenerations, LongAdder counter, LongAdder bytesCounter) {
        if (sortedGenerations.length == 0) {
            return 0;
        }
        LongList victims = new LongList();
        index.forEach((hash, location, extent) -> {
            long high = slotGeneration[LogIndex.slot(location)];
            if (touches(sortedGenerations, high - LogIndex.span(extent), high)) {
                victims.add(hash);
            }
        });
        for (int i = 0; i < victims.size(); i++) {
            int pos = index.find(victims.get(i));
            long bytes = LogIndex.storedBytes(index.extentAt(pos));
            liveBytes -= bytes;
            index.removeAt(pos);
            counter.increment();
            if (bytesCounter != null) {
                bytesCounter.add(bytes);
            }
        }
        return victims.size();
    }

    // ---------------------------------------------------------------- lookups

    /** What a lookup found: the decoded commit record, where it is, and the pins that keep it readable. */
    record Opened(CommitRecord record, long location, PinSet pins) {
    }

    private Optional<Opened> openCommitted(CacheKey key, boolean countHit) throws IOException {
        long hash = key.hash64();
        PinSet pinSet = new PinSet();
        long location;
        int slot;
        long generation;
        lock.lock();
        try {
            int pos = index.find(hash);
            if (pos < 0) {
                return Optional.empty();
            }
            location = index.locationAt(pos);
            if (countHit && LogIndex.hits(location) < 7) {
                index.setLocationAt(pos, location + 1);
            }
            slot = LogIndex.slot(location);
            generation = slotGeneration[slot];
            pin(pinSet, slot);
        } finally {
            lock.unlock();
        }
        boolean keep = false;
        try {
            CommitRecord record;
            try {
                record = RecordFormat.decodeCommit(readRecord(slot, LogIndex.offset(location)), generation);
            } catch (CorruptObjectException e) {
                dropCorrupt(hash, location, e.getMessage());
                return Optional.empty();
            } catch (StorageException e) {
                return Optional.empty(); // the disk failed; its objects are misses
            }
            if (!record.key().equals(key)) {
                return Optional.empty(); // another key with the same 64-bit hash
            }
            lock.lock();
            try {
                for (Extent e : record.extents()) {
                    if (e.slot() >= slotCount || slotState[e.slot()] == DEAD
                            || slotGeneration[e.slot()] != e.generation()) {
                        int pos = index.find(hash);
                        if (pos >= 0 && sameRecord(index.locationAt(pos), location)) {
                            liveBytes -= LogIndex.storedBytes(index.extentAt(pos));
                            index.removeAt(pos);
                        }
                        return Optional.empty();
                    }
                    pin(pinSet, e.slot());
                }
            } finally {
                lock.unlock();
            }
            keep = true;
            return Optional.of(new Opened(record, location, pinSet));
        } finally {
            if (!keep) {
                release(pinSet);
            }
        }
    }

    private ByteBuffer readRecord(int slot, long offset) throws IOException {
        FileChannel ch = channel(slot);
        ByteBuffer head = ByteBuffer.allocate(Math.min(4096, (int) Math.min(Integer.MAX_VALUE, segmentSize - offset)));
        try {
            readFully(ch, head, offset);
        } catch (IOException e) {
            throw ioFailure(slot, e);
        }
        head.flip();
        RecordFormat.Header h = RecordFormat.decodeHeader(head.duplicate());
        if (h == null || h.type() != RecordFormat.COMMIT) {
            throw new CorruptObjectException("no valid commit record at segment " + slot + " offset " + offset);
        }
        if (h.length() > segmentSize - offset || h.length() > Integer.MAX_VALUE - 8) {
            throw new CorruptObjectException("commit record length " + h.length() + " runs past its segment");
        }
        if (h.length() <= head.remaining()) {
            return head.limit((int) h.length());
        }
        ByteBuffer all = ByteBuffer.allocate((int) h.length());
        try {
            readFully(ch, all, offset);
        } catch (IOException e) {
            throw ioFailure(slot, e);
        }
        return all.flip();
    }

    /** Drops the object if the index still points at the damaged record; counts it once. */
    void dropCorrupt(long hash, long location, String why) {
        lock.lock();
        try {
            int pos = index.find(hash);
            if (pos >= 0 && sameRecord(index.locationAt(pos), location)) {
                liveBytes -= LogIndex.storedBytes(index.extentAt(pos));
                index.removeAt(pos);
                counters.corruptObjectsDropped.increment();
                LOG.log(System.Logger.Level.WARNING, "raw-log dropped a corrupt object: " + why);
            }
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- writing (used by LogWriter)

    /**
     * A region of the active segment granted to a writer: the extent header is already written and
     * {@code capacity} payload bytes start at {@code payloadOffset} (block-aligned with direct I/O).
     */
    record Allocation(int slot, long generation, long headerOffset, long payloadOffset, long capacity) {
    }

    /** The largest body accepted: all segments but the active and the spare one, less room for extent headers. */
    long maxObjectBytes() {
        return (slotCount - 2) * (segmentSize - RecordFormat.SEGMENT_HEADER_AREA) / 10 * 9;
    }

    long maxExtentBytes() {
        return Math.min(MAX_EXTENT, (segmentSize - RecordFormat.SEGMENT_HEADER_AREA) / 4);
    }

    StoreCounters counters() {
        return counters;
    }

    RawLogConfig config() {
        return config;
    }

    /** Grants the writer up to {@code want} payload bytes in the active segment, pinning it. */
    Allocation allocateExtent(PinSet writerPins, long want) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            long minimum = directIo ? block : Math.min(want, 4096);
            for (int attempt = 0; ; attempt++) {
                if (activeSlot < 0 || payloadRoom() < minimum) {
                    rotate();
                }
                long room = payloadRoom();
                if (room < minimum) {
                    throw new StorageFullException("segment-size " + segmentSize + " is too small for an extent");
                }
                int slot = activeSlot;
                long generation = slotGeneration[slot];
                long at = activePosition;
                long payload = payloadStart(at);
                long granted = directIo ? Math.min(alignUp(want, block), room) : Math.min(want, room);
                try {
                    writeRaw(slot, RecordFormat.extentHeader(generation, payload - at - RecordFormat.RECORD_HEADER_BYTES
                            + granted), at);
                } catch (IOException e) {
                    diskFailed(slot % diskCount, e);
                    if (attempt > diskCount) {
                        throw e;
                    }
                    continue;
                }
                activePosition = extentEnd(payload, granted);
                pin(writerPins, slot);
                return new Allocation(slot, generation, at, payload, granted);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Payload bytes an extent could get in the active segment (block multiples with direct I/O). */
    private long payloadRoom() {
        long room = segmentSize - payloadStart(activePosition);
        return directIo ? room / block * block : room;
    }

    private long payloadStart(long headerAt) {
        long p = headerAt + RecordFormat.RECORD_HEADER_BYTES;
        return directIo ? alignUp(p, block) : p;
    }

    /** Where the next record goes after an extent: pages written with O_DIRECT are never shared with others. */
    private long extentEnd(long payload, long length) {
        return directIo ? payload + alignUp(length, block) : RecordFormat.align8(payload + length);
    }

    private static long alignUp(long n, long alignment) {
        return (n + alignment - 1) / alignment * alignment;
    }

    /** Gives back the unused tail of the writer's last extent if nothing was appended after it. */
    void trimExtent(Allocation a, long used) {
        lock.lock();
        try {
            if (closed || activeSlot != a.slot() || slotGeneration[a.slot()] != a.generation()
                    || activePosition != extentEnd(a.payloadOffset(), a.capacity())) {
                return;
            }
            long kept = directIo ? alignUp(used, block) : used;
            try {
                writeRaw(a.slot(), RecordFormat.extentHeader(a.generation(),
                        a.payloadOffset() - a.headerOffset() - RecordFormat.RECORD_HEADER_BYTES + kept), a.headerOffset());
                activePosition = extentEnd(a.payloadOffset(), kept);
            } catch (IOException e) {
                diskFailed(a.slot() % diskCount, e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Returns whether body extents are written with O_DIRECT (then through {@link #writeDirect}). */
    boolean directIo() {
        return directIo;
    }

    int blockSize() {
        return block;
    }

    /** Lends a block-aligned direct buffer for staging O_DIRECT writes; give it back with {@link #returnStage}. */
    ByteBuffer borrowStage() {
        ByteBuffer b = stages.poll();
        return b != null ? b.clear() : ByteBuffer.allocateDirect(STAGE + block).alignedSlice(block).limit(STAGE);
    }

    void returnStage(ByteBuffer stage) {
        if (stages.size() < 32) {
            stages.add(stage.clear().limit(STAGE));
        }
    }

    /** Writes whole blocks from an aligned buffer at a block-aligned position with O_DIRECT. */
    void writeDirect(int slot, ByteBuffer src, long position) throws IOException {
        try {
            FileChannel ch = directChannels[slot];
            if (ch == null || channels[slot] == null) {
                throw new StorageException("segment " + slot + " is on disk " + diskDirs[slot % diskCount]
                        + " which is " + diskStates[slot % diskCount]);
            }
            dirty[slot] = true;
            long at = position;
            while (src.hasRemaining()) {
                at += ch.write(src, at);
            }
        } catch (IOException e) {
            throw ioFailure(slot, e);
        }
    }

    /** Appends the commit record of a finished write and makes the object visible. */
    void commit(CommitRecord record, PinSet writerPins) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            publish(record, writerPins, 0);
        } finally {
            lock.unlock();
        }
    }

    private void publish(CommitRecord record, PinSet holderPins, int hits) throws IOException {
        for (Extent e : record.extents()) {
            if (slotState[e.slot()] == DEAD || slotGeneration[e.slot()] != e.generation()) {
                throw new StorageException("a disk holding part of '" + record.key() + "' failed while it was written");
            }
        }
        int length = RecordFormat.commitLength(record.key().toBytes(), record.metadata(), record.extents().size());
        long[] placed = appendRecord(length, (slot, generation) -> RecordFormat.commit(generation, record), holderPins);
        for (Extent e : record.extents()) { // a disk may have failed while appending
            if (slotState[e.slot()] == DEAD || slotGeneration[e.slot()] != e.generation()) {
                throw new StorageException("a disk holding part of '" + record.key() + "' failed while it was written");
            }
        }
        int slot = (int) placed[0];
        long generation = slotGeneration[slot];
        long span = generation - record.lowestGeneration(generation);
        if (span > LogIndex.MAX_SPAN) {
            throw new StorageException("'" + record.key() + "' spans " + span + " segment generations; at most "
                    + LogIndex.MAX_SPAN + " are indexed");
        }
        putEntry(record.key().hash64(), LogIndex.location(slot, placed[1], hits),
                LogIndex.extent((int) span, RecordFormat.storedBytes(length, record.extents())));
    }

    /** Encodes a record for the segment it lands in. */
    private interface RecordEncoder {
        ByteBuffer encode(int slot, long generation);
    }

    /** Appends a small record to the active segment (lock held); returns {slot, offset}. */
    private long[] appendRecord(int length, RecordEncoder encoder, PinSet holderPins) throws IOException {
        for (int attempt = 0; ; attempt++) {
            ensureRoom(RecordFormat.align8(length));
            int slot = activeSlot;
            long at = activePosition;
            try {
                writeRaw(slot, encoder.encode(slot, slotGeneration[slot]), at);
            } catch (IOException e) {
                diskFailed(slot % diskCount, e);
                if (attempt > diskCount) {
                    throw e;
                }
                continue;
            }
            activePosition = RecordFormat.align8(at + length);
            if (holderPins != null) {
                pin(holderPins, slot);
            }
            return new long[] {slot, at};
        }
    }

    private void ensureRoom(long bytes) throws IOException {
        if (bytes > segmentSize - RecordFormat.SEGMENT_HEADER_AREA) {
            throw new StorageFullException("a record of " + bytes + " bytes does not fit in a segment of "
                    + segmentSize + "; raise segment-size");
        }
        if (activeSlot >= 0 && segmentSize - activePosition >= bytes) {
            return;
        }
        rotate();
    }

    /** Seals the active segment and activates a free one, reclaiming the oldest segment to keep one free. */
    private void rotate() throws IOException {
        if (activeSlot >= 0) {
            slotState[activeSlot] = SEALED;
            sealed.addLast(activeSlot);
            activeSlot = -1;
        }
        while (true) {
            if (!anyDiskOnline()) {
                throw new StorageException("raw-log has no online disk left: " + diskSummary());
            }
            if (free.isEmpty()) {
                reclaim(false);
            }
            int slot = takeFree();
            long generation = nextGeneration++;
            try {
                writeRaw(slot, RecordFormat.segmentHeader(slot, generation, segmentSize), 0);
            } catch (IOException e) {
                free.addFirst(slot);
                diskFailed(slot % diskCount, e);
                continue;
            }
            slotGeneration[slot] = generation;
            slotState[slot] = ACTIVE;
            activeSlot = slot;
            activePosition = RecordFormat.SEGMENT_HEADER_AREA;
            lastDisk = slot % diskCount;
            if (free.isEmpty()) {
                try {
                    reclaim(config.policy() == RawLogConfig.Policy.REINSERT);
                } catch (StorageFullException e) {
                    // every sealed segment is pinned right now; the next rotation tries again
                }
            }
            return;
        }
    }

    private int takeFree() {
        Iterator<Integer> it = free.iterator();
        Integer best = null;
        int bestDistance = Integer.MAX_VALUE;
        while (it.hasNext()) {
            int s = it.next();
            int distance = Math.floorMod(s % diskCount - lastDisk - 1, diskCount);
            if (distance < bestDistance) {
                best = s;
                bestDistance = distance;
                if (distance == 0) {
                    break;
                }
            }
        }
        free.remove(best);
        return best;
    }

    /** Frees the oldest unpinned sealed segment, evicting (or, if asked, re-appending) its objects. */
    private void reclaim(boolean reinsert) throws IOException {
        Integer victim = null;
        for (Iterator<Integer> it = sealed.iterator(); it.hasNext(); ) {
            int s = it.next();
            if (pins[s] == 0) {
                victim = s;
                it.remove();
                break;
            }
        }
        if (victim == null) {
            throw new StorageFullException("raw-log is full: all " + sealed.size()
                    + " segments holding data are pinned by open readers or writers");
        }
        long generation = slotGeneration[victim];
        if (reinsert) {
            reinsertHot(victim, generation);
        }
        dropTouching(new long[] {generation}, counters.evictions, counters.evictedBytes);
        slotState[victim] = FREE;
        try {
            writeRaw(victim, ByteBuffer.allocate(RecordFormat.SEGMENT_HEADER_BYTES), 0);
            free.addLast(victim);
        } catch (IOException e) {
            diskFailed(victim % diskCount, e);
        }
    }

    /** Re-appends objects of the victim segment that were read since written (CacheLib-style reinsertion). */
    private void reinsertHot(int victim, long generation) {
        LongList hot = new LongList();
        index.forEach((hash, location, extent) -> {
            if (LogIndex.slot(location) == victim && LogIndex.span(extent) == 0 && LogIndex.hits(location) > 0
                    && LogIndex.storedBytes(extent) <= segmentSize / 8) {
                hot.add(hash);
            }
        });
        long budget = (segmentSize - RecordFormat.SEGMENT_HEADER_AREA) / 2;
        for (int i = 0; i < hot.size() && activeSlot >= 0; i++) {
            int pos = index.find(hot.get(i));
            long location = index.locationAt(pos);
            long stored = LogIndex.storedBytes(index.extentAt(pos));
            if (stored > budget || segmentSize - activePosition < stored + 64) {
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

    private boolean copyForward(int victim, long generation, long offset) throws IOException {
        CommitRecord old = RecordFormat.decodeCommit(readRecord(victim, offset), generation);
        int slot = activeSlot;
        long newGeneration = slotGeneration[slot];
        long header = activePosition;
        long payload = header + RecordFormat.RECORD_HEADER_BYTES;
        CRC32C crc = new CRC32C();
        ByteBuffer buffer = ByteBuffer.allocate(COPY_BUFFER);
        long written = 0;
        for (Extent e : old.extents()) {
            CRC32C check = new CRC32C();
            for (long done = 0; done < e.length(); ) {
                buffer.clear().limit((int) Math.min(COPY_BUFFER, e.length() - done));
                if (!readFully(channels[e.slot()], buffer, e.offset() + done)) {
                    return false;
                }
                buffer.flip();
                check.update(buffer.duplicate());
                crc.update(buffer.duplicate());
                writeRaw(slot, buffer, payload + written);
                done += buffer.limit();
                written += buffer.limit();
            }
            if ((int) check.getValue() != e.crc()) {
                return false; // damaged: let it be evicted rather than copied
            }
        }
        List<Extent> extents = new ArrayList<>();
        long commitAt = header;
        if (written > 0) {
            writeRaw(slot, RecordFormat.extentHeader(newGeneration, written), header);
            extents.add(new Extent(slot, newGeneration, payload, written, (int) crc.getValue()));
            commitAt = RecordFormat.align8(payload + written);
        }
        CommitRecord copy = new CommitRecord(old.key(), old.metadata(), old.bodyLength(), extents);
        ByteBuffer encoded = RecordFormat.commit(newGeneration, copy);
        int length = encoded.remaining();
        writeRaw(slot, encoded, commitAt);
        activePosition = RecordFormat.align8(commitAt + length);
        putEntry(old.key().hash64(), LogIndex.location(slot, commitAt, 0),
                LogIndex.extent(0, RecordFormat.storedBytes(length, extents)));
        return true;
    }

    // ---------------------------------------------------------------- pins, channels, disks

    private void pin(PinSet set, int slot) {
        pins[slot]++;
        set.add(slot);
    }

    /** Releases every pin of {@code set}; idempotent. */
    void release(PinSet set) {
        lock.lock();
        try {
            if (set.released()) {
                return;
            }
            set.markReleased();
            for (int i = 0; i < set.size(); i++) {
                pins[set.get(i)]--;
            }
            for (int d = 0; d < diskCount; d++) {
                if (diskStates[d] == DiskState.FAILING) {
                    tryRetire(d);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Forces the segments of {@code set} to the device (sync=commit). */
    void force(PinSet set) throws IOException {
        int[] slots;
        lock.lock();
        try {
            slots = set.distinct();
        } finally {
            lock.unlock();
        }
        for (int s : slots) {
            try {
                channel(s).force(false);
            } catch (IOException e) {
                throw ioFailure(s, e);
            }
        }
    }

    FileChannel channel(int slot) throws StorageException {
        FileChannel ch = channels[slot];
        if (ch == null) {
            throw new StorageException("segment " + slot + " is on disk " + diskDirs[slot % diskCount] + " which is "
                    + diskStates[slot % diskCount]);
        }
        return ch;
    }

    /** Writes all of {@code src} at {@code position} of the slot's file; I/O errors take the disk out. */
    void write(int slot, ByteBuffer src, long position) throws IOException {
        try {
            writeRaw(slot, src, position);
        } catch (IOException e) {
            throw ioFailure(slot, e);
        }
    }

    private void writeRaw(int slot, ByteBuffer src, long position) throws IOException {
        FileChannel ch = channel(slot);
        dirty[slot] = true;
        long at = position;
        while (src.hasRemaining()) {
            at += ch.write(src, at);
        }
    }

    /** Reads into {@code dst} from {@code position} of the slot's file until full or end of file. */
    void read(int slot, ByteBuffer dst, long position) throws IOException {
        try {
            readFully(channel(slot), dst, position);
        } catch (IOException e) {
            throw ioFailure(slot, e);
        }
    }

    private static boolean readFully(FileChannel ch, ByteBuffer dst, long position) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = ch.read(dst, at);
            if (n < 0) {
                return false;
            }
            at += n;
        }
        return true;
    }

    /** Takes the slot's disk out after an I/O error (unless the store is closing) and returns what to throw. */
    StorageException ioFailure(int slot, IOException e) {
        if (e instanceof StorageException se) {
            return se;
        }
        if (closed && e instanceof ClosedChannelException) {
            return new StorageException("raw-log is closed", e);
        }
        diskFailed(slot % diskCount, e);
        return new StorageException("I/O error on raw-log disk " + diskDirs[slot % diskCount] + ": " + e, e);
    }

    private void diskFailed(int d, IOException cause) {
        lock.lock();
        try {
            if (diskStates[d] != DiskState.ONLINE || closed) {
                return;
            }
            diskStates[d] = DiskState.FAILING;
            diskReasons[d] = String.valueOf(cause);
            LOG.log(System.Logger.Level.ERROR, "raw-log disk " + diskDirs[d] + " is FAILING and taken out: " + cause);
            LongList lost = new LongList();
            for (int s = d; s < slotCount; s += diskCount) {
                if (slotState[s] == FREE) {
                    free.remove(s);
                } else if (slotState[s] == SEALED) {
                    sealed.remove(s);
                } else if (slotState[s] == ACTIVE) {
                    activeSlot = -1;
                }
                if (slotState[s] != DEAD && slotGeneration[s] > 0) {
                    lost.add(slotGeneration[s]);
                }
                slotState[s] = DEAD;
            }
            dropTouching(lost.sorted(), lostToDiskFailure, null);
            tryRetire(d);
        } finally {
            lock.unlock();
        }
    }

    private void tryRetire(int d) {
        for (int s = d; s < slotCount; s += diskCount) {
            if (pins[s] > 0) {
                return;
            }
        }
        for (int s = d; s < slotCount; s += diskCount) {
            closeQuietly(channels[s]);
            channels[s] = null;
            closeQuietly(directChannels[s]);
            directChannels[s] = null;
        }
        diskStates[d] = DiskState.OFFLINE;
    }

    private boolean anyDiskOnline() {
        for (DiskState s : diskStates) {
            if (s == DiskState.ONLINE) {
                return true;
            }
        }
        return false;
    }

    private String diskSummary() {
        StringBuilder b = new StringBuilder();
        for (int d = 0; d < diskCount; d++) {
            b.append(d == 0 ? "" : ", ").append(diskDirs[d]).append('=').append(diskStates[d]);
        }
        return b.toString();
    }

    // ---------------------------------------------------------------- checkpoints and lifecycle

    /** Writes a checkpoint of the index covering the log up to now (after forcing the segments). */
    void checkpoint() throws IOException {
        synchronized (checkpointLock) {
            Checkpoint snapshot;
            int target = -1;
            lock.lock();
            try {
                for (int d = 0; d < diskCount && target < 0; d++) {
                    if (diskStates[d] == DiskState.ONLINE) {
                        target = d;
                    }
                }
                if (target < 0 || allChannelsClosed()) {
                    return;
                }
                long[] entries = new long[index.size() * 3];
                int[] n = {0};
                index.forEach((hash, location, extent) -> {
                    entries[n[0]++] = hash;
                    entries[n[0]++] = location;
                    entries[n[0]++] = extent;
                });
                long positionGeneration = activeSlot >= 0 ? slotGeneration[activeSlot] : nextGeneration;
                long positionOffset = activeSlot >= 0 ? activePosition : RecordFormat.SEGMENT_HEADER_AREA;
                snapshot = new Checkpoint(segmentSize, nextGeneration, positionGeneration, positionOffset,
                        slotGeneration.clone(), entries);
            } finally {
                lock.unlock();
            }
            long started = System.nanoTime();
            forceAll();
            snapshot.writeTo(diskDirs[target]);
            checkpoints.increment();
            lastCheckpointMillis = (System.nanoTime() - started) / 1_000_000;
        }
    }

    private boolean allChannelsClosed() {
        for (FileChannel ch : channels) {
            if (ch != null) {
                return false;
            }
        }
        return true;
    }

    private void forceAll() {
        for (int s = 0; s < slotCount; s++) {
            FileChannel ch = channels[s];
            if (ch != null && slotState[s] != DEAD && dirty[s]) {
                dirty[s] = false;
                try {
                    ch.force(false);
                } catch (ClosedChannelException e) {
                    return;
                } catch (IOException e) {
                    diskFailed(s % diskCount, e);
                }
            }
        }
    }

    private void closeChannels() {
        for (int s = 0; s < slotCount; s++) {
            closeQuietly(channels[s]);
            channels[s] = null;
            closeQuietly(directChannels[s]);
            directChannels[s] = null;
        }
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // nothing left to do with a channel that fails to close
            }
        }
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this raw-log store is closed");
        }
    }
}
