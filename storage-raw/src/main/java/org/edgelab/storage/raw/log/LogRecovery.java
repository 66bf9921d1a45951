package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.StorageException;

/**
 * Opens a {@code raw-log}'s disks and rebuilds its index (Kafka's {@code LogLoader} plays this
 * part there): checks each disk's layout file, opens and sizes every segment file and reads its
 * header, loads the newest valid checkpoint, then replays the log written after it, cutting each
 * segment at its first invalid record. Objects whose bytes lie in a segment that has been reused
 * since (another generation) are left out. It tells {@link CarriedTombstones} which replayed records
 * superseded older ones, as the running store does. A disk that cannot be opened is OFFLINE; one that
 * fails while being read is taken out like at any other time.
 *
 * <p>Runs once, on the opening thread, before the store is shared; it takes the store's lock for
 * what it changes, so that a disk failure met during the scan is handled as usual.
 */
final class LogRecovery {

    private static final System.Logger LOG = System.getLogger(LogRecovery.class.getName());
    private static final String LAYOUT = "raw-log.layout";

    /** What recovery found: a one-line summary and how long it took. */
    record Result(String summary, long millis) {
    }

    private final RawLogConfig config;
    private final SegmentSlots slots;
    private final DiskHealth disks;
    private final LogIndex index;
    private final DiskPlace place;
    private final CarriedTombstones tombstones;
    /** Whether the log may end its recovery with no disk online (one disk's log of several); see {@link #openDisks}. */
    private boolean mayOpenOffline;

    LogRecovery(RawLogConfig config, DiskPlace place, SegmentSlots slots, DiskHealth disks, LogIndex index,
                CarriedTombstones tombstones) {
        this.config = config;
        this.tombstones = tombstones;
        this.place = place;
        this.slots = slots;
        this.disks = disks;
        this.index = index;
    }

    /**
     * Opens every disk's segment files (creating and sizing them if new) and reads their headers. A disk that cannot be
     * opened is OFFLINE; when none can, this fails unless {@code mayOpenOffline} (one disk's log of several, which the
     * others serve for meanwhile).
     */
    void openDisks(SegmentChannels opener, boolean mayOpenOffline) throws IOException {
        this.mayOpenOffline = mayOpenOffline;
        List<String> failures = new ArrayList<>();
        long segmentSize = config.segmentSize();
        for (int d = 0; d < disks.count(); d++) {
            Path dir = disks.dir(d);
            boolean laidOut = false;
            try {
                Files.createDirectories(dir);
                layOut(config, slots.count(), place, dir);
                laidOut = true;
                for (Segment s : slots.all()) {
                    if (s.disk != d) {
                        continue;
                    }
                    FileChannel ch = opener.open(d, dir.resolve(Segment.fileName(s.slot)));
                    s.open(ch);
                    if (ch.size() < segmentSize) {
                        ch.write(ByteBuffer.wrap(new byte[1]), segmentSize - 1);
                    }
                    ByteBuffer header = ByteBuffer.allocate(RecordFormat.SEGMENT_HEADER_BYTES);
                    Segment.readFully(ch, header, 0);
                    header.flip();
                    s.recovered(RecordFormat.segmentGeneration(header, s.slot, segmentSize));
                }
            } catch (IOException e) {
                failures.add(dir + ": " + e);
                disks.offlineAtOpen(d, e, laidOut);
                slots.deadAtOpen(d);
            }
        }
        if (failures.size() == disks.count() && !mayOpenOffline) {
            throw new IOException("raw-log could open none of its disks: " + String.join("; ", failures));
        }
    }

    /** What the layout file of the disk at {@code place} says when it belongs to this store. */
    static Properties expectedLayout(RawLogConfig config, int segments, DiskPlace place) {
        Properties expected = new Properties();
        expected.setProperty("format", Integer.toString(place.format()));
        expected.setProperty("segment-size", Long.toString(config.segmentSize()));
        expected.setProperty("segments", Integer.toString(segments));
        expected.setProperty("disks", Integer.toString(place.count()));
        expected.setProperty("disk", Integer.toString(place.index()));
        return expected;
    }

    /** Reads the layout file of the disk at {@code dir}; fails if there is none or it cannot be read. */
    static Properties readLayout(Path dir) throws IOException {
        Properties found = new Properties();
        try (var in = Files.newInputStream(dir.resolve(LAYOUT))) {
            found.load(in);
        }
        return found;
    }

    /**
     * Checks the layout file of disk {@code d} at {@code dir} against this store's, or writes it (durably) when there is
     * none; another store's layout is an {@code IllegalArgumentException}. At open, and by {@link DiskReturn} for a disk
     * whose layout open never reached.
     */
    static void layOut(RawLogConfig config, int segments, DiskPlace place, Path dir) throws IOException {
        Path file = dir.resolve(LAYOUT);
        Properties expected = expectedLayout(config, segments, place);
        if (Files.exists(file)) {
            Properties found = readLayout(dir);
            if (!found.equals(expected)) {
                throw new IllegalArgumentException("raw-log disk " + dir + " was formatted as " + found
                        + " but is opened as " + expected + "; reopen with the original disks (in their order),"
                        + " capacity and segment-size, or empty the directory"
                        + (found.getProperty("format", "1").equals("1") && place.format() == 2
                        ? " (format 1 spread one log over every disk; format 2 keeps one log per disk, so that a"
                        + " failed disk loses only its own objects)" : ""));
            }
            return;
        }
        Path tmp = dir.resolve(LAYOUT + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            expected.store(bytes, "raw-log disk layout; do not edit");
            ByteBuffer b = ByteBuffer.wrap(bytes.toByteArray());
            while (b.hasRemaining()) {
                out.write(b);
            }
            out.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        // durable at once: a disk that fails and heals is known by its layout file (DiskReturn's probe)
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        }
    }

    /** Rebuilds the index and the slots' states from the newest checkpoint and the log after it. */
    Result recover() throws IOException {
        long started = System.nanoTime();
        Checkpoint checkpoint = newestCheckpoint();
        long scanFromGeneration = 0;
        long scanFromOffset = RecordFormat.SEGMENT_HEADER_AREA;
        long nextGeneration = 1;
        int fromCheckpoint = 0;
        if (checkpoint != null) {
            fromCheckpoint = loadCheckpoint(checkpoint);
            scanFromGeneration = checkpoint.positionGeneration();
            scanFromOffset = checkpoint.positionOffset();
            nextGeneration = checkpoint.nextGeneration();
        }
        Segment[] used = Arrays.stream(slots.all())
                .filter(s -> s.state() != SlotState.DEAD && s.generation() > 0)
                .sorted(Comparator.comparingLong(Segment::generation)).toArray(Segment[]::new);
        long scanned = 0;
        long lastEnd = -1;
        for (int i = 0; i < used.length; i++) {
            Segment s = used[i];
            long g = s.generation();
            nextGeneration = Math.max(nextGeneration, g + 1);
            if (s.state() == SlotState.DEAD) {
                continue; // its disk failed earlier in this scan
            }
            slots.sealRecovered(s);
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
            } catch (StorageException e) {
                // judged by DiskHealth: a failed disk is out now, a full one only refuses writes
            }
        }
        if (!disks.anyOnline() && !mayOpenOffline) {
            throw new IOException("raw-log lost every disk while recovering: " + disks.summary());
        }
        if (used.length > 0 && lastEnd >= 0 && config.segmentSize() - lastEnd >= 4096
                && used[used.length - 1].state() == SlotState.SEALED) {
            slots.activateRecovered(used[used.length - 1], lastEnd);
        }
        slots.finishRecovery(nextGeneration);
        long millis = (System.nanoTime() - started) / 1_000_000;
        String summary = (checkpoint == null ? "no checkpoint" : "checkpoint entries " + fromCheckpoint)
                + ", log records replayed " + scanned + ", objects " + index.size();
        LOG.log(System.Logger.Level.INFO, "raw-log recovered in " + millis + " ms: " + summary);
        return new Result(summary, millis);
    }

    private Checkpoint newestCheckpoint() {
        Checkpoint best = null;
        for (int d = 0; d < disks.count(); d++) {
            if (!disks.online(d)) {
                continue;
            }
            try {
                Checkpoint c = Checkpoint.readFrom(disks.dir(d));
                if (c == null) {
                    continue;
                }
                if (c.segmentSize() != config.segmentSize() || c.slotGenerations().length != slots.count()) {
                    LOG.log(System.Logger.Level.WARNING, "ignoring checkpoint in " + disks.dir(d)
                            + ": written for another layout");
                    continue;
                }
                if (best == null || c.positionGeneration() > best.positionGeneration()
                        || (c.positionGeneration() == best.positionGeneration()
                        && c.positionOffset() > best.positionOffset())) {
                    best = c;
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "ignoring damaged checkpoint in " + disks.dir(d)
                        + " (the log will be scanned instead): " + e.getMessage());
            }
        }
        return best;
    }

    /** Keeps the checkpoint's entries whose segments still hold the generations they had; returns how many. */
    private int loadCheckpoint(Checkpoint c) {
        long[] then = c.slotGenerations();
        LongList lost = new LongList();
        for (Segment s : slots.all()) {
            if (then[s.slot] != 0 && then[s.slot] != s.generation()) {
                lost.add(then[s.slot]);
            }
        }
        long[] lostSorted = lost.sorted();
        long[] e = c.entries();
        int kept = 0;
        for (int i = 0; i < e.length; i += 3) {
            long location = e[i + 1];
            long extent = e[i + 2];
            int cs = LogIndex.slot(location);
            if (cs >= slots.count() || then[cs] == 0 || !slots.get(cs).holds(then[cs])) {
                continue;
            }
            long high = then[cs];
            if (LogIndex.touches(lostSorted, high - LogIndex.span(extent), high)) {
                continue;
            }
            index.put(e[i], location, LogIndex.verified(extent, false)); // verified again at first lookup
            kept++;
        }
        return kept;
    }

    /** Replays one segment from {@code from}; returns {end offset, records replayed}. */
    private long[] scanSegment(Segment segment, long generation, long from) throws StorageException {
        long segmentSize = config.segmentSize();
        SegmentWindow window = new SegmentWindow(segment, segmentSize);
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
                        replayCommit(segment.slot, pos, generation, RecordFormat.decodeCommit(record, generation), length);
                    } else {
                        int previous = tombstones.supersede(segment.slot, generation,
                                RecordFormat.decodeTombstone(record));
                        if (previous >= 0) {
                            index.removeAt(previous);
                        }
                    }
                } catch (CorruptObjectException e) {
                    LOG.log(System.Logger.Level.WARNING, "raw-log segment " + segment.slot + " ends at damaged record "
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
        private final Segment segment;
        private final long limit;
        private ByteBuffer window = ByteBuffer.allocate(0);
        private long windowStart;

        SegmentWindow(Segment segment, long limit) {
            this.segment = segment;
            this.limit = limit;
        }

        /** Returns {@code length} bytes at {@code position} (a view valid until the next call), or null past the end. */
        ByteBuffer bytes(long position, int length) throws StorageException {
            if (position < windowStart || position + length > windowStart + window.limit()) {
                int size = (int) Math.min(Math.max(WINDOW, length), limit - position);
                if (size < length) {
                    return null;
                }
                window = window.capacity() >= size ? window.clear().limit(size) : ByteBuffer.allocate(size);
                windowStart = position;
                if (!segment.read(window, position)) {
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
            if (e.slot() >= slots.count() || !slots.get(e.slot()).holds(e.generation())
                    || e.offset() + e.length() > config.segmentSize()) {
                return; // a segment holding part of the body was reused since
            }
        }
        long span = generation - r.lowestGeneration(generation);
        if (span < 0 || span > LogIndex.MAX_SPAN) {
            return;
        }
        tombstones.supersede(slot, generation, r.key());
        index.put(r.key().hash64(), LogIndex.location(slot, pos, 0),
                LogIndex.extent((int) span, RecordFormat.storedBytes(length, r.extents())));
    }
}
