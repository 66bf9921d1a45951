package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoreCounters;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.spi.WriteProgress;

/**
 * A streaming write into a {@code raw-log} store, with a running CRC32C per extent; a commit
 * record appended at {@link #commit} makes the object visible. With buffered I/O each chunk goes
 * straight to the file at its place in the current extent; with direct I/O chunks are staged in
 * a block-aligned 1 MiB buffer and written in whole blocks (the last, partial block padded and
 * rewritten as it fills; at once after each chunk while someone follows the write). Followers
 * see the bytes that have reached the file. Written by one thread at a time; {@link #follow()}
 * and the followers' calls are safe from any thread.
 */
final class LogWriter implements ObjectWriter {

    /** What a writer needs of its store: room for extents, and the commit that makes an object visible. */
    interface Appender {
        /** Grants up to {@code want} payload bytes in the active segment, pinning it in {@code pins}. */
        SegmentSlots.Allocation allocate(PinSet pins, long want) throws IOException;

        /** Gives back the unused tail of an extent if nothing was appended after it. */
        void trim(SegmentSlots.Allocation a, long used);

        /** Appends the commit record and makes the object visible under its key. */
        void commit(CommitRecord record, PinSet pins) throws IOException;
    }

    /** The bounds and sync mode a writer follows. */
    record Limits(long maxObjectBytes, long maxExtentBytes, boolean syncOnCommit) {
    }

    /** A piece of the body followers can read: segment, file position and readable length. */
    record Piece(Segment segment, long fileOffset, long length) {
    }

    private static final long FIRST_UNKNOWN_EXTENT = 64 * 1024;

    private final Appender log;
    private final DirectIo direct;
    private final StoreCounters counters;
    private final Limits limits;
    private final CacheKey key;
    private final ObjectMetadata initial;
    private final PinSet pins;
    private final CRC32C crc = new CRC32C();
    private final List<Extent> extents = new ArrayList<>(); // guarded by this
    private final List<Segment> extentSegments = new ArrayList<>(); // the segment of each extent; guarded by this
    private SegmentSlots.Allocation current; // guarded by this for followers
    private long currentFilled; // guarded by this
    private volatile long written;
    private final WriteProgress progress; // bytes in the file, visible to followers
    private long finishedBytes; // body bytes in finished extents; guarded by this
    private ByteBuffer stage; // direct I/O only: bytes of the current extent from stageOffset
    private long stageOffset; // file offset of stage[0], block-aligned
    private int followers; // guarded by this
    private int holders = 1; // the writer and its open followers; guarded by this

    LogWriter(Appender log, PinSet pins, DirectIo direct, StoreCounters counters, Limits limits, CacheKey key,
              ObjectMetadata initial) {
        this.log = log;
        this.pins = pins;
        this.direct = direct;
        this.counters = counters;
        this.limits = limits;
        this.key = key;
        this.initial = initial;
        this.progress = WriteProgress.writing(key);
    }

    @Override
    public CacheKey key() {
        return key;
    }

    @Override
    public long written() {
        return written;
    }

    @Override
    public void write(ByteBuffer chunk) throws IOException {
        requireOpen();
        try {
            while (chunk.hasRemaining()) {
                if (current == null || currentFilled == current.capacity()) {
                    finishExtent();
                    if (written + chunk.remaining() > limits.maxObjectBytes()) {
                        throw new StorageFullException("'" + key + "' grew past the largest object this raw-log holds ("
                                + limits.maxObjectBytes() + " bytes)");
                    }
                    SegmentSlots.Allocation a = log.allocate(pins, nextExtentSize());
                    synchronized (this) {
                        current = a;
                        currentFilled = 0;
                    }
                }
                int n = (int) Math.min(chunk.remaining(), current.capacity() - currentFilled);
                ByteBuffer part = chunk.slice(chunk.position(), n);
                crc.update(part.duplicate());
                if (stage == null && !direct.on()) {
                    current.segment().write(part, current.payloadOffset() + currentFilled);
                } else {
                    stageBytes(part);
                }
                chunk.position(chunk.position() + n);
                synchronized (this) {
                    currentFilled += n;
                    written += n;
                }
                if (direct.on()) {
                    boolean followed;
                    synchronized (this) {
                        followed = followers > 0;
                    }
                    if (followed) {
                        flushStage(true);
                    }
                } else {
                    published(written);
                }
                counters.bytesWritten.add(n);
            }
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    /** Copies {@code part} into the stage, writing it out whenever it fills. */
    private synchronized void stageBytes(ByteBuffer part) throws IOException {
        if (stage == null) {
            stage = direct.borrow();
            stageOffset = current.payloadOffset() + currentFilled;
        }
        while (part.hasRemaining()) {
            int take = Math.min(part.remaining(), stage.remaining());
            stage.put(part.slice(part.position(), take));
            part.position(part.position() + take);
            if (!stage.hasRemaining()) {
                flushStage(false);
            }
        }
    }

    /**
     * Writes the stage's whole blocks (and, if {@code padTail}, its partial last block padded with
     * zeros) with O_DIRECT, then keeps only the partial block, to be rewritten as it fills.
     */
    private synchronized void flushStage(boolean padTail) throws IOException {
        if (stage == null || stage.position() == 0) {
            return;
        }
        int block = direct.block();
        int data = stage.position();
        int whole = data / block * block;
        int length = padTail ? (data + block - 1) / block * block : whole;
        if (length == 0) {
            return;
        }
        ByteBuffer out = stage.duplicate();
        out.position(data).limit(length);
        while (out.hasRemaining()) {
            out.put((byte) 0);
        }
        out.position(0).limit(length);
        current.segment().writeDirect(out, stageOffset);
        long inFile = stageOffset + data - current.payloadOffset();
        int partial = data - whole;
        if (whole > 0) {
            ByteBuffer tail = stage.duplicate().position(whole).limit(data);
            stage.clear().put(tail);
            stageOffset += whole;
        }
        stage.limit(stage.capacity()).position(partial);
        published(finishedBytes() + (padTail ? inFile : stageOffset - current.payloadOffset()));
    }

    private synchronized long finishedBytes() {
        return finishedBytes;
    }

    /** Records that followers may read {@code upTo} bytes and wakes those waiting for them. */
    private void published(long upTo) {
        progress.advance(upTo);
    }

    private synchronized void releaseStage() {
        if (stage != null) {
            direct.giveBack(stage);
            stage = null;
        }
    }

    private long nextExtentSize() {
        long max = limits.maxExtentBytes();
        long known = initial.length();
        if (known != ObjectMetadata.UNKNOWN_LENGTH && known > written) {
            return Math.min(max, known - written);
        }
        int finished;
        synchronized (this) {
            finished = extents.size();
        }
        return Math.min(max, FIRST_UNKNOWN_EXTENT << Math.min(finished, 6));
    }

    private void finishExtent() throws IOException {
        if (current == null) {
            return;
        }
        SegmentSlots.Allocation a = current;
        long filled = currentFilled;
        synchronized (this) {
            if (stage != null) {
                flushStage(true);
                releaseStage();
            }
        }
        if (filled < a.capacity()) {
            log.trim(a, filled);
        }
        synchronized (this) {
            if (filled > 0) {
                extents.add(new Extent(a.segment().slot, a.generation(), a.payloadOffset(), filled,
                        (int) crc.getValue()));
                extentSegments.add(a.segment());
            }
            finishedBytes += filled;
            current = null;
            currentFilled = 0;
        }
        crc.reset();
    }

    @Override
    public StoredObject follow() {
        synchronized (this) {
            if (progress.state() != WriteProgress.State.WRITING || holders == 0) {
                throw new IllegalStateException("the write of '" + key + "' has finished: look the object up instead");
            }
            holders++;
            followers++;
            try {
                flushStage(true); // direct I/O: let the follower see what is staged
            } catch (IOException e) {
                // the writer's next call fails the same way and aborts; the follower then sees the abort
            }
        }
        return new FollowReader(this);
    }

    @Override
    public void commit(ObjectMetadata finalMetadata) throws IOException {
        requireOpen();
        ObjectMetadata m = finalMetadata.length() == ObjectMetadata.UNKNOWN_LENGTH
                ? finalMetadata.withLength(written) : finalMetadata;
        if (m.length() != written) {
            throw new IllegalArgumentException("commit of '" + key + "' declares length " + m.length() + " but "
                    + written + " bytes were written");
        }
        try {
            finishExtent();
            List<Extent> body;
            synchronized (this) {
                body = List.copyOf(extents);
            }
            log.commit(new CommitRecord(key, m, written, body), pins);
            if (limits.syncOnCommit()) {
                pins.force();
            }
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
        progress.commit(written);
        counters.writesCommitted.increment();
        releaseHolder();
    }

    @Override
    public void commit() throws IOException {
        commit(initial.withLength(written));
    }

    @Override
    public void abort() {
        if (!progress.abort()) {
            return;
        }
        counters.writesAborted.increment();
        releaseStage();
        releaseHolder();
    }

    @Override
    public void close() {
        abort();
    }

    private void requireOpen() {
        if (progress.state() != WriteProgress.State.WRITING) {
            throw new IllegalStateException("the write of '" + key + "' was already "
                    + (progress.isCommitted() ? "committed" : "aborted"));
        }
    }

    // ---------------------------------------------------------------- for followers

    ObjectMetadata initialMetadata() {
        return initial;
    }

    /** Returns how many bytes have reached the file, which followers may read. */
    WriteProgress progress() {
        return progress;
    }

    /** A follower closed. */
    synchronized void followerClosed() {
        followers--;
    }

    StoreCounters counters() {
        return counters;
    }

    /** Returns the readable piece holding body byte {@code position}, or null if not written yet. */
    synchronized Piece locate(long position) {
        long start = 0;
        for (int i = 0; i < extents.size(); i++) {
            Extent e = extents.get(i);
            if (position < start + e.length()) {
                return new Piece(extentSegments.get(i), e.offset() + (position - start), e.length() - (position - start));
            }
            start += e.length();
        }
        if (current != null && position < start + currentFilled) {
            return new Piece(current.segment(), current.payloadOffset() + (position - start),
                    currentFilled - (position - start));
        }
        return null;
    }

    /** Drops one holder (the writer when done, or a follower when closed); the last one releases the pins. */
    void releaseHolder() {
        boolean last;
        synchronized (this) {
            last = --holders == 0;
        }
        if (last) {
            pins.release();
        }
    }
}
