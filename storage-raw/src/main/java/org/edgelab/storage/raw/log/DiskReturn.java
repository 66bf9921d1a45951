package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.edgelab.storage.raw.io.ReadAhead;

/**
 * Takes a {@code raw-log}'s OFFLINE disks back while the store runs, as MSE4 "resumes by itself after a disk failure is
 * detected": every {@code disk-probe-interval}, on a thread of its own (never an event loop, never with the store's
 * lock held), each OFFLINE disk is probed, whether it failed while the store ran or was already unusable when it
 * opened: its directory must still hold this store's layout file (so an unmounted mount point, or another file system
 * mounted there, does not pass; a disk OFFLINE since an open that could not make or read that file, and so has none
 * known, gets it written as open would have, if its directory exists), and a small file is written there, forced to
 * the device, read back, compared and removed. A disk that fails the probe stays out, its reason saying why. One that
 * answers is re-opened: every segment file is opened and sized again, its header cleared and forced, and its slots
 * return FREE, so the store admits objects onto it again at once.
 *
 * <p><b>It comes back empty.</b> What the disk held is not recovered, for two reasons. First, its objects were taken
 * out of the index when it failed, and while it was out the store went on: an object removed or replaced meanwhile
 * left no record that would outrank its old commit record on the failed disk (a removal of an object already lost
 * writes no tombstone), so replaying the disk's segments would serve removed or stale objects. Second, the failure
 * cut off writes the disk never completed ({@code sync=none} and {@code interval} leave recent ones in the page
 * cache, which a dead device drops) and a file system check may have repaired what it found, so its newest segments
 * cannot be trusted to end where the log thinks. Clearing the headers also keeps the next open from replaying them.
 * An object whose bytes were there is a miss until it is fetched again, as after the failure.
 *
 * <p><b>Bounded.</b> One daemon thread probes the disks in turn, at most one probe at a time, and the next round starts
 * {@code disk-probe-interval} after the last one ended: a probe that hangs on a device that stopped answering holds
 * that thread only, never a request, and probes do not pile up. Thread-safe; {@link #probeNow} blocks on the disks.
 */
final class DiskReturn {

    private static final System.Logger LOG = System.getLogger(DiskReturn.class.getName());
    /** The probe's file, removed after each probe. */
    static final String PROBE = "raw-log.probe";
    private static final int PROBE_BYTES = 4096;

    private final RawLogConfig config;
    private final ReentrantLock lock;
    private final SegmentSlots slots;
    private final DiskHealth disks;
    private final SegmentChannels opener;
    private final ReadAhead readAhead;
    private final BooleanSupplier closed;
    private final DiskPlace place;
    private final ScheduledExecutorService prober;
    private volatile DirectIo direct = DirectIo.off();

    DiskReturn(RawLogConfig config, DiskPlace place, ReentrantLock lock, SegmentSlots slots, DiskHealth disks,
               SegmentChannels opener, BooleanSupplier closed) {
        this.config = config;
        this.place = place;
        this.lock = lock;
        this.slots = slots;
        this.disks = disks;
        this.opener = opener;
        this.readAhead = config.readAhead();
        this.closed = closed;
        this.prober = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "raw-log-disk-probe");
            t.setDaemon(true);
            return t;
        });
    }

    /** Where body writes of a re-opened disk go with O_DIRECT: as the store opened its other disks. */
    void direct(DirectIo d) {
        this.direct = d;
    }

    /** Starts the periodic probes; none when {@code disk-probe-interval} is 0. */
    void start() {
        long every = config.diskProbeIntervalMillis();
        if (every > 0) {
            prober.scheduleWithFixedDelay(() -> {
                try {
                    probeNow();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "raw-log disk probe failed: " + e);
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /** Stops probing without waiting for a probe that hangs on a device (its thread is a daemon). */
    void stop() {
        prober.shutdownNow();
    }

    /** Probes every OFFLINE disk now and takes back those that answer; returns how many came back. Blocks on the disks. */
    int probeNow() {
        int back = 0;
        for (int d = 0; d < disks.count(); d++) {
            if (closed.getAsBoolean()) {
                return back;
            }
            int disk = d;
            if (locked(() -> disks.state(disk)) == DiskState.OFFLINE && takeBack(d)) {
                back++;
            }
        }
        return back;
    }

    private boolean takeBack(int d) {
        Path dir = disks.dir(d);
        FileChannel[] channels = new FileChannel[slotsOn(d)];
        FileChannel[] directChannels = new FileChannel[channels.length];
        boolean handedOver = false;
        try {
            probe(d, dir);
            int i = 0;
            for (Segment s : slots.all()) {
                if (s.disk != d) {
                    continue;
                }
                Path file = dir.resolve(Segment.fileName(s.slot));
                FileChannel ch = opener.open(d, file);
                channels[i] = ch;
                if (ch.size() < config.segmentSize()) {
                    ch.write(ByteBuffer.wrap(new byte[1]), config.segmentSize() - 1);
                }
                ByteBuffer cleared = ByteBuffer.allocate(RecordFormat.SEGMENT_HEADER_BYTES);
                while (cleared.hasRemaining()) {
                    ch.write(cleared, cleared.position());
                }
                ch.force(false);
                readAhead.apply(ch);
                if (direct.on()) {
                    directChannels[i] = DirectIo.openChannel(file);
                }
                i++;
            }
            lock.lock();
            try {
                if (closed.getAsBoolean() || disks.state(d) != DiskState.OFFLINE) {
                    return false;
                }
                disks.back(d, "it answered a probe (" + PROBE_BYTES + " B written, forced, read back) and its "
                        + channels.length + " segment files were re-opened empty");
                slots.takeBack(d, channels, directChannels);
                handedOver = true;
                return true;
            } finally {
                lock.unlock();
            }
        } catch (IOException | RuntimeException e) {
            lock.lock();
            try {
                disks.probeFailed(d, "OFFLINE; the last probe failed: " + e);
            } finally {
                lock.unlock();
            }
            LOG.log(System.Logger.Level.DEBUG, "raw-log disk " + dir + " stays OFFLINE: " + e);
            return false;
        } finally {
            if (!handedOver) {
                closeAll(channels);
                closeAll(directChannels);
            }
        }
    }

    /**
     * Fails unless the disk answers: its directory holds this store's layout file, and a small file written there,
     * forced, reads back the same before it is removed.
     */
    private void probe(int d, Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + " is not a directory (not mounted?)");
        }
        if (!locked(() -> disks.laidOut(d))) {
            // OFFLINE since an open that could not make or read its layout file: laid out now as open would have
            LogRecovery.layOut(config, slots.count(), place, dir);
        }
        java.util.Properties expected = LogRecovery.expectedLayout(config, slots.count(), place);
        java.util.Properties found = LogRecovery.readLayout(dir);
        if (!found.equals(expected)) {
            throw new IOException(dir + " holds another layout " + found + " than this store's disk " + d);
        }
        byte[] written = new byte[PROBE_BYTES];
        ThreadLocalRandom.current().nextBytes(written);
        Path file = dir.resolve(PROBE);
        try {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                ByteBuffer out = ByteBuffer.wrap(written);
                while (out.hasRemaining()) {
                    ch.write(out, out.position());
                }
                ch.force(true);
                ByteBuffer in = ByteBuffer.allocate(PROBE_BYTES);
                if (!Segment.readFully(ch, in, 0) || !Arrays.equals(in.array(), written)) {
                    throw new IOException("the probe file " + file + " did not read back what was written");
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** What {@code read} returns, read under the store's lock (which guards the disks' states). */
    private <T> T locked(java.util.function.Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    private int slotsOn(int d) {
        int n = 0;
        for (Segment s : slots.all()) {
            if (s.disk == d) {
                n++;
            }
        }
        return n;
    }

    private static void closeAll(FileChannel[] channels) {
        for (FileChannel ch : channels) {
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // a channel on a disk that stays out
                }
            }
        }
    }
}
