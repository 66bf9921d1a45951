package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Optional;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.raw.io.PageIn;
import org.edgelab.storage.spi.AbstractStoredObject;

/**
 * A committed object file opened for reading. Its body was verified against its checksum before
 * this reference was handed out, so reads and {@link #fileSlice} serve the file directly; a slice
 * is handed out with its bytes in memory ({@link PageIn}), so that its transfer does not wait for
 * the device. The file stays readable after removal (the open descriptor keeps it). Thread-safe:
 * positional reads only; reads and slices block on the file.
 */
final class CommittedFileObject extends AbstractStoredObject {

    private final RawFilesStore store;
    private final IndexEntry entry;
    private final FileChannel channel;

    CommittedFileObject(RawFilesStore store, IndexEntry entry, FileChannel channel, ObjectMetadata metadata) {
        super(entry.progress, metadata);
        this.store = store;
        this.entry = entry;
        this.channel = channel;
    }

    IndexEntry entry() {
        return entry;
    }

    @Override
    protected int readAvailable(long position, ByteBuffer dst, int length) throws IOException {
        ByteBuffer target = dst.slice(dst.position(), length);
        while (target.hasRemaining()) {
            if (channel.read(target, entry.headerLength + position + target.position()) < 0) {
                store.dropCorrupt(entry, "file shrank under a reader");
                throw new CorruptObjectException("object file of '" + entry.key + "' was truncated: " + entry.path);
            }
        }
        dst.position(dst.position() + length);
        store.countRead(length);
        return length;
    }

    @Override
    protected Optional<FileSlice> fileSliceAvailable(long position, long length) {
        try {
            // the loop that sends the slice must not wait for the device
            PageIn.resident(channel, entry.headerLength + position, length, store.pageInMethod());
        } catch (IOException e) {
            return Optional.empty(); // read() meets the same failure and judges it (a file cut short is dropped)
        }
        store.countRead(length);
        return Optional.of(new FileSlice(channel, entry.headerLength + position, length));
    }

    @Override
    protected void release() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing was written through this channel: closing cannot lose data
        }
        store.releaseReader(entry);
    }
}
