package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.spi.FileSystemErrors;

/**
 * The health of a {@code raw-log}'s disks, and the one place its I/O errors are judged (Kafka's
 * {@code LogDirFailureChannel} plays this part there). A full file system is a refusal: the disk
 * stays ONLINE, the write fails with a {@code StorageFullException} and the store keeps serving.
 * Any other I/O error marks the disk FAILING, and the store's {@link Listener} takes it out (its
 * objects become misses); once no reader pins it, it is OFFLINE, and {@link DiskReturn} probes it until it
 * answers and takes it back ({@link #back}), counted in {@code disk.N.takenBack} and {@code disksTakenBack}.
 *
 * <p>Thread-safety: states change under the store's lock, which {@link #failure} takes, and {@link #online} may read
 * them without it; the listener runs with that lock held. No method blocks but on the lock.
 */
final class DiskHealth {

    private static final System.Logger LOG = System.getLogger(DiskHealth.class.getName());

    /** What the store does when a disk fails. */
    interface Listener {
        /** Takes disk {@code disk} out of service; called once per disk, with the store's lock held. */
        void diskFailed(int disk);
    }

    private final ReentrantLock lock;
    private final Path[] dirs;
    /** Written under the store's lock; read without it by {@link #online} (a store of several disks routes by it). */
    private final AtomicReferenceArray<DiskState> states;
    private final String[] reasons;
    private final long[] takenBack;
    private final long[] probesFailed;
    private final boolean[] laidOut;
    private final LongAdder fullRefusals = new LongAdder();
    private Listener listener = disk -> { };
    private volatile boolean closing;

    DiskHealth(List<Path> dirs, ReentrantLock lock) {
        this.lock = lock;
        this.dirs = dirs.toArray(new Path[0]);
        this.states = new AtomicReferenceArray<>(this.dirs.length);
        this.reasons = new String[this.dirs.length];
        this.takenBack = new long[this.dirs.length];
        this.probesFailed = new long[this.dirs.length];
        this.laidOut = new boolean[this.dirs.length];
        for (int d = 0; d < this.dirs.length; d++) {
            states.set(d, DiskState.ONLINE);
        }
        java.util.Arrays.fill(laidOut, true);
    }

    void listener(Listener l) {
        this.listener = l;
    }

    int count() {
        return dirs.length;
    }

    Path dir(int disk) {
        return dirs[disk];
    }

    DiskState state(int disk) {
        return states.get(disk);
    }

    boolean online(int disk) {
        return states.get(disk) == DiskState.ONLINE;
    }

    boolean anyOnline() {
        for (int d = 0; d < states.length(); d++) {
            if (states.get(d) == DiskState.ONLINE) {
                return true;
            }
        }
        return false;
    }

    /**
     * Records that a disk could not be opened: it is OFFLINE from the start, and {@link DiskReturn} probes it like a
     * disk that failed while the store ran. {@code laidOut}: whether open read (or wrote) its layout file first; if not,
     * the probe lays it out as open would have (see {@link #laidOut(int)}).
     */
    void offlineAtOpen(int disk, IOException cause, boolean laidOut) {
        states.set(disk, DiskState.OFFLINE);
        this.laidOut[disk] = laidOut;
        reasons[disk] = "could not be opened: " + cause;
        LOG.log(System.Logger.Level.WARNING, "raw-log disk " + dirs[disk] + " is OFFLINE: " + cause);
    }

    /**
     * Whether the disk's layout file is known to this store (lock held): true but for a disk OFFLINE since an open that
     * could not make or read it, which the probe then lays out as open would have.
     */
    boolean laidOut(int disk) {
        return laidOut[disk];
    }

    /** Records that a failed disk's files are closed: it is OFFLINE now. */
    void retired(int disk) {
        states.set(disk, DiskState.OFFLINE);
    }

    /**
     * Records that an OFFLINE disk answered its probe and was re-opened ({@link DiskReturn}; lock held): it is
     * ONLINE again, and the transition is counted.
     */
    void back(int disk, String how) {
        states.set(disk, DiskState.ONLINE);
        laidOut[disk] = true;
        reasons[disk] = null;
        takenBack[disk]++;
        LOG.log(System.Logger.Level.WARNING, "raw-log disk " + dirs[disk] + " is ONLINE again (taken back "
                + takenBack[disk] + " time(s)): " + how);
    }

    /** Records a probe of an OFFLINE disk that failed (lock held): it stays out, and says why. */
    void probeFailed(int disk, String why) {
        probesFailed[disk]++;
        reasons[disk] = why;
    }

    /** The store is closing: errors from channels it closes are not disk failures. */
    void closing() {
        closing = true;
    }

    /**
     * Judges an I/O error met on disk {@code disk} and returns what to throw: a full file system
     * gives a {@code StorageFullException} (the disk stays ONLINE); any other error marks the disk
     * FAILING and takes it out through the listener.
     */
    StorageException failure(int disk, IOException e) {
        if (e instanceof StorageException se) {
            return se;
        }
        if (closing && e instanceof ClosedChannelException) {
            return new StorageException("raw-log is closed", e);
        }
        if (FileSystemErrors.isNoSpace(e, dirs[disk])) {
            fullRefusals.increment();
            return FileSystemErrors.full("raw-log disk " + disk, dirs[disk], e);
        }
        failed(disk, e);
        return new StorageException("I/O error on raw-log disk " + dirs[disk] + ": " + e, e);
    }

    /** Marks the disk FAILING (once) and lets the listener take it out. */
    void failed(int disk, IOException cause) {
        lock.lock();
        try {
            if (states.get(disk) != DiskState.ONLINE || closing) {
                return;
            }
            states.set(disk, DiskState.FAILING);
            reasons[disk] = String.valueOf(cause);
            LOG.log(System.Logger.Level.ERROR, "raw-log disk " + dirs[disk] + " is FAILING and taken out: " + cause);
            listener.diskFailed(disk);
        } finally {
            lock.unlock();
        }
    }

    /** Returns "dir=STATE, ..." for error messages. */
    String summary() {
        StringBuilder b = new StringBuilder();
        for (int d = 0; d < dirs.length; d++) {
            b.append(d == 0 ? "" : ", ").append(dirs[d]).append('=').append(states.get(d));
        }
        return b.toString();
    }

    /**
     * Adds each disk's path, state, reason, times taken back and failed probes, the disks taken back in all, and the
     * full-file-system refusals, to a stats map (lock held).
     */
    void describe(Map<String, Object> extra) {
        for (int d = 0; d < dirs.length; d++) {
            extra.put("disk." + d + ".path", dirs[d].toString());
            extra.put("disk." + d + ".state", states.get(d).name());
            if (reasons[d] != null) {
                extra.put("disk." + d + ".reason", reasons[d]);
            }
            extra.put("disk." + d + ".takenBack", takenBack[d]);
            extra.put("disk." + d + ".probesFailed", probesFailed[d]);
        }
        long back = 0;
        for (long n : takenBack) {
            back += n;
        }
        extra.put("disksTakenBack", back);
        extra.put("fileSystemFullRefusals", fullRefusals.sum());
    }
}
