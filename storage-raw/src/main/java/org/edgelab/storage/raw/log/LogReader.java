package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.api.StoreCounters;
import org.edgelab.storage.raw.io.PageIn;
import org.edgelab.storage.spi.AbstractStoredObject;
import org.edgelab.storage.spi.WriteProgress;

/**
 * A committed {@code raw-log} object opened for reading. Unless the store trusts its bytes ({@code verify=once} for an
 * object already checked or written by this process, or {@code verify=never}), each extent is checked against its
 * CRC32C the first time this reference touches it, before any of its bytes are copied out or offered as a
 * {@link FileSlice}; a mismatch drops the object from the store and fails with {@link CorruptObjectException}. A slice
 * is handed out with its bytes in memory ({@link PageIn}), so that its transfer does not wait for the device. Its
 * segments stay pinned until {@link #close()}. Thread-safe.
 */
final class LogReader extends AbstractStoredObject {

    private static final int VERIFY_BUFFER = 64 * 1024;

    private final CommitRecord record;
    private final Segment[] segments;
    private final PinSet pins;
    private final StoreCounters counters;
    private final Consumer<String> dropCorrupt;
    private final long[] starts;
    private final boolean[] verified; // guarded by this
    private final boolean zeroCopy;
    private final DirectIo direct;

    /**
     * A reader of {@code record}, whose extents lie in {@code segments} (pinned in {@code pins});
     * {@code dropCorrupt} drops the object from the store, given why, when its bytes fail verification;
     * {@code zeroCopy}: whether file slices may be offered (only where a reused segment gets fresh pages,
     * see {@link Segment#discardPages}, and not with direct I/O); {@code trusted}: whether its extents are served
     * without being checked.
     */
    LogReader(CommitRecord record, Segment[] segments, PinSet pins, StoreCounters counters, Consumer<String> dropCorrupt,
              boolean zeroCopy, boolean trusted, DirectIo direct) {
        super(WriteProgress.committed(record.key(), record.bodyLength()), record.metadata());
        this.direct = direct;
        this.zeroCopy = zeroCopy;
        this.record = record;
        this.segments = segments;
        this.pins = pins;
        this.counters = counters;
        this.dropCorrupt = dropCorrupt;
        this.starts = new long[record.extents().size()];
        long at = 0;
        for (int i = 0; i < starts.length; i++) {
            starts[i] = at;
            at += record.extents().get(i).length();
        }
        this.verified = new boolean[starts.length];
        if (trusted) {
            Arrays.fill(verified, true);
        }
    }

    @Override
    protected int readAvailable(long position, ByteBuffer dst, int length) throws IOException {
        int total = 0;
        long pos = position;
        while (total < length) {
            int i = extentAt(pos);
            verify(i);
            Extent e = record.extents().get(i);
            long within = pos - starts[i];
            int n = (int) Math.min(length - total, e.length() - within);
            ByteBuffer part = dst.slice(dst.position(), n);
            read(segments[i], part, e.offset() + within);
            if (part.hasRemaining()) {
                throw corrupt("segment " + e.slot() + " ends inside '" + record.key() + "'");
            }
            dst.position(dst.position() + n);
            pos += n;
            total += n;
        }
        counters.bytesRead.add(total);
        return total;
    }

    @Override
    protected Optional<FileSlice> fileSliceAvailable(long position, long length) {
        if (!zeroCopy) {
            return Optional.empty(); // copied by read() instead
        }
        int i = extentAt(position);
        try {
            verify(i);
            Extent e = record.extents().get(i);
            long within = position - starts[i];
            long n = Math.min(length, e.length() - within);
            // the loop that sends the slice must not wait for the device
            PageIn.resident(segments[i].channel(), e.offset() + within, n);
            counters.bytesRead.add(n);
            return Optional.of(new FileSlice(segments[i].channel(), e.offset() + within, n));
        } catch (IOException e) {
            return Optional.empty(); // read() reports the failure to the caller
        }
    }

    /** Verifies every extent now; throws {@link CorruptObjectException} (after dropping the object) at the first bad one. */
    void verifyAll() throws IOException {
        for (int i = 0; i < starts.length; i++) {
            verify(i);
        }
    }

    /** Reads past the page cache where the store writes that way ({@code direct-io=true}), else through it. */
    private void read(Segment segment, ByteBuffer dst, long position) throws StorageException {
        if (direct.on()) {
            segment.readDirect(dst, position, direct);
        } else {
            segment.read(dst, position);
        }
    }

    private int extentAt(long position) {
        int i = Arrays.binarySearch(starts, position);
        return i >= 0 ? i : -i - 2;
    }

    private synchronized void verify(int i) throws IOException {
        if (verified[i]) {
            return;
        }
        Extent e = record.extents().get(i);
        CRC32C crc = new CRC32C();
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(VERIFY_BUFFER, e.length()));
        for (long done = 0; done < e.length(); ) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), e.length() - done));
            read(segments[i], buffer, e.offset() + done);
            if (buffer.hasRemaining()) {
                throw corrupt("segment " + e.slot() + " ends inside '" + record.key() + "'");
            }
            buffer.flip();
            crc.update(buffer);
            done += buffer.limit();
        }
        if ((int) crc.getValue() != e.crc()) {
            throw corrupt("extent " + i + " of '" + record.key() + "' (segment " + e.slot() + ", offset "
                    + e.offset() + ") fails its CRC32C");
        }
        verified[i] = true;
    }

    private CorruptObjectException corrupt(String why) {
        dropCorrupt.accept(why);
        return new CorruptObjectException(why + "; the object was dropped");
    }

    @Override
    protected void release() {
        pins.release();
    }
}
