package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.raw.io.FileSpace;

/**
 * One segment slot: its file on one disk, its {@link SlotState}, the generation it was last
 * activated with, and how many readers and writers pin it (a pinned slot is never reclaimed).
 * File I/O goes through here, and every I/O error is judged once by {@link DiskHealth}: a full
 * file system is a refusal, anything else takes the disk out.
 *
 * <p>Thread-safety: state, generation and pins change under the lookup lock (see {@link SegmentSlots}), and state and
 * generation also under the store's lock, so either lock reads them; the I/O methods take no lock and may be called
 * from any thread (they block on the file).
 */
final class Segment {

    final int slot;
    final int disk;
    final long size;
    private final DiskHealth disks;
    private volatile FileChannel channel;
    /** O_DIRECT write channel, null unless direct I/O is on. */
    private volatile FileChannel direct;
    /** Written since last forced; racy by design, set before the write. */
    private volatile boolean dirty;
    private SlotState state = SlotState.FREE;
    private long generation;
    /**
     * Set when the slot is reclaimed: the bytes of its generation are given up (the next activation
     * overwrites them), so it no longer holds that generation although the number stays until then.
     */
    private boolean vacated;
    private int pins;
    /** Whether the file may hold pages written since its last punch (or since it was created); store lock. */
    private boolean usedPages;
    /** The background punch of this free slot under way, or null; store lock. */
    private java.util.concurrent.CompletableFuture<Void> punching;

    Segment(int slot, int disk, long size, DiskHealth disks) {
        this.slot = slot;
        this.disk = disk;
        this.size = size;
        this.disks = disks;
    }

    /** The file name of slot {@code slot}: zero-padded, so that {@code ls} sorts slots. */
    static String fileName(int slot) {
        return String.format("%08d.seg", slot);
    }

    // ---------------------------------------------------------------- state (see the class comment for the locks)

    SlotState state() {
        return state;
    }

    long generation() {
        return generation;
    }

    /**
     * Returns whether this slot still holds what was written into it with {@code g}: not once it
     * was reclaimed (a pin does not keep a free slot from being activated and overwritten).
     */
    boolean holds(long g) {
        return state != SlotState.DEAD && !vacated && generation == g;
    }

    void recovered(long g) {
        generation = g;
        usedPages = g > 0;
    }

    void activate(long g) {
        generation = g;
        vacated = false;
        usedPages = true;
        state = SlotState.ACTIVE;
    }

    boolean usedPages() {
        return usedPages;
    }

    /** The slot's pages were punched out: nothing written before can change under a socket that holds them. */
    void pagesFresh() {
        usedPages = false;
    }

    java.util.concurrent.CompletableFuture<Void> punching() {
        return punching;
    }

    void punching(java.util.concurrent.CompletableFuture<Void> f) {
        punching = f;
    }

    void seal() {
        state = SlotState.SEALED;
    }

    /** The slot was reclaimed: what it held is given up. */
    void free() {
        state = SlotState.FREE;
        vacated = true;
    }

    /** The slot's disk was taken back empty: FREE, holding no generation. */
    void revive() {
        state = SlotState.FREE;
        generation = 0;
        vacated = true;
    }

    void kill() {
        state = SlotState.DEAD;
    }

    boolean isPinned() {
        return pins > 0;
    }

    void pin() {
        pins++;
    }

    void unpin() {
        pins--;
    }

    // ---------------------------------------------------------------- files

    void open(FileChannel ch) {
        channel = ch;
    }

    void openDirect(FileChannel ch) {
        direct = ch;
    }

    boolean hasDirect() {
        return direct != null;
    }

    /** Returns the open channel, for zero-copy slices; fails once the disk is out. */
    FileChannel channel() throws StorageException {
        FileChannel ch = channel;
        if (ch == null) {
            throw closedError();
        }
        return ch;
    }

    private StorageException closedError() {
        return new StorageException("segment " + slot + " is on disk " + disks.dir(disk) + " which is "
                + disks.state(disk));
    }

    /** Writes all of {@code src} at {@code position}. */
    void write(ByteBuffer src, long position) throws StorageException {
        writeThrough(channel, src, position);
    }

    /** Writes whole blocks from an aligned buffer at a block-aligned position with O_DIRECT. */
    void writeDirect(ByteBuffer src, long position) throws StorageException {
        writeThrough(channel == null ? null : direct, src, position);
    }

    private void writeThrough(FileChannel ch, ByteBuffer src, long position) throws StorageException {
        if (ch == null) {
            throw closedError();
        }
        dirty = true;
        try {
            long at = position;
            while (src.hasRemaining()) {
                at += ch.write(src, at);
            }
        } catch (IOException e) {
            throw disks.failure(disk, e);
        }
    }

    /** Reads into {@code dst} from {@code position} until it is full; false if the file ends first. */
    boolean read(ByteBuffer dst, long position) throws StorageException {
        try {
            return readFully(channel(), dst, position);
        } catch (IOException e) {
            throw disks.failure(disk, e);
        }
    }

    /**
     * Reads into {@code dst} from {@code position} until it is full with O_DIRECT, past the page cache: the blocks
     * around each piece of the range are read into one of {@code io}'s aligned staging buffers and the piece copied
     * out. False if the file ends first.
     */
    boolean readDirect(ByteBuffer dst, long position, DirectIo io) throws StorageException {
        FileChannel ch = channel == null ? null : direct;
        if (ch == null) {
            throw closedError();
        }
        ByteBuffer stage = io.borrow();
        try {
            long at = position;
            while (dst.hasRemaining()) {
                long start = at / io.block() * io.block();
                int skip = (int) (at - start);
                int room = stage.capacity() / io.block() * io.block();
                int want = (int) Math.min(room, DirectIo.alignUp(skip + (long) dst.remaining(), io.block()));
                stage.clear().limit(want);
                boolean whole = readFully(ch, stage, start);
                int got = stage.position() - skip;
                if (got <= 0) {
                    return false;
                }
                int n = Math.min(got, dst.remaining());
                dst.put(stage.duplicate().position(skip).limit(skip + n));
                at += n;
                if (!whole && dst.hasRemaining()) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            throw disks.failure(disk, e);
        } finally {
            io.giveBack(stage);
        }
    }

    /**
     * Reads the commit record at {@code offset} (one read of up to 4 KiB for the usual small one).
     *
     * @throws CorruptObjectException if no valid commit record starts there
     */
    ByteBuffer readCommitRecord(long offset) throws StorageException {
        ByteBuffer head = ByteBuffer.allocate((int) Math.min(4096, size - offset));
        read(head, offset);
        head.flip();
        RecordFormat.Header h = RecordFormat.decodeHeader(head.duplicate());
        if (h == null || h.type() != RecordFormat.COMMIT) {
            throw new CorruptObjectException("no valid commit record at segment " + slot + " offset " + offset);
        }
        if (h.length() > size - offset || h.length() > Integer.MAX_VALUE - 8) {
            throw new CorruptObjectException("commit record length " + h.length() + " runs past its segment");
        }
        if (h.length() <= head.remaining()) {
            return head.limit((int) h.length());
        }
        ByteBuffer all = ByteBuffer.allocate((int) h.length());
        read(all, offset);
        return all.flip();
    }

    /**
     * Gives the slot fresh pages before it is written again: punches its whole file out
     * ({@link FileSpace#punchHole}), as a socket may still hold the old pages of bytes sent from it
     * with {@code sendfile}, which an overwrite in place would change under the client. An I/O error
     * is judged by {@link DiskHealth} (takes the store's lock).
     */
    void discardPages() throws StorageException {
        try {
            discardPagesUnjudged();
        } catch (StorageException e) {
            throw e;
        } catch (IOException e) {
            throw disks.failure(disk, e);
        }
    }

    /** {@link #discardPages} for a background thread: takes no lock, and leaves judging an error to the caller. */
    void discardPagesUnjudged() throws IOException {
        FileSpace.punchHole(channel(), 0, size);
    }

    /** Forces what was written to the device. */
    void force() throws StorageException {
        try {
            channel().force(false);
        } catch (IOException e) {
            throw disks.failure(disk, e);
        }
    }

    /** Forces the file if it was written since the last force; false if it is closed. */
    boolean forceIfDirty() throws StorageException {
        FileChannel ch = channel;
        if (ch == null) {
            return false;
        }
        if (dirty) {
            dirty = false;
            try {
                ch.force(false);
            } catch (IOException e) {
                throw disks.failure(disk, e);
            }
        }
        return true;
    }

    /** The open channel, or null once the disk is out. */
    FileChannel channelOrNull() {
        return channel;
    }

    boolean isOpen() {
        return channel != null;
    }

    /** Closes the file (the disk is out, or the store closes). */
    void close() {
        closeQuietly(channel);
        channel = null;
        closeQuietly(direct);
        direct = null;
    }

    /** Closes only the O_DIRECT channel (direct I/O could not be set up). */
    void closeDirect() {
        closeQuietly(direct);
        direct = null;
    }

    static boolean readFully(FileChannel ch, ByteBuffer dst, long position) throws IOException {
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

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // nothing left to do with a channel that fails to close
            }
        }
    }

    @Override
    public String toString() {
        return "Segment[" + slot + ", disk " + disk + ", " + state + ", generation " + generation + "]";
    }
}
