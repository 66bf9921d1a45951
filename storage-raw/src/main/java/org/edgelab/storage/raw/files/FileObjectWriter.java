package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.spi.WriteProgress;

/**
 * Writes one object into a temporary file beside its final place: the body after a reserved
 * header, checksummed as it streams; on commit the header is written, the file synced as the
 * store's {@link SyncMode} says, and renamed into place. Space is reserved in the store's budget
 * before bytes are written. Written by one thread at a time; {@link #follow()} from any thread.
 */
final class FileObjectWriter implements ObjectWriter {

    private static final long RESERVE_STEP = 1 << 20;

    private final RawFilesStore store;
    private final CacheKey key;
    private final ObjectMetadata initialMetadata;
    final Path finalPath;
    private Path tempPath;
    private FileChannel channel;
    private int headerLength;
    private final CRC32C crc = new CRC32C();
    private final WriteProgress progress;
    private long written;
    /**
     * Bytes of the store's budget held by this write; changed under the store's lookup lock, read without it by the
     * writing thread (the only one that grows it).
     */
    long reserved;
    private volatile boolean done;

    FileObjectWriter(RawFilesStore store, CacheKey key, ObjectMetadata metadata, Path finalPath, Path tempPath,
                     FileChannel channel, int headerLength, long reserved) {
        this.store = store;
        this.key = key;
        this.initialMetadata = metadata;
        this.finalPath = finalPath;
        this.tempPath = tempPath;
        this.channel = channel;
        this.headerLength = headerLength;
        this.reserved = reserved;
        this.progress = WriteProgress.writing(key);
    }

    @Override
    public CacheKey key() {
        return key;
    }

    @Override
    public void write(ByteBuffer chunk) throws IOException {
        ensureWritable();
        int n = chunk.remaining();
        if (n == 0) {
            return;
        }
        long need = headerLength + written + n;
        try {
            if (need > reserved) {
                long minimum = need - reserved;
                long step = Math.min(Math.min(RESERVE_STEP, store.capacity() / 32), store.capacity() - reserved);
                store.reserve(this, Math.max(minimum, step));
            }
            crc.update(chunk.duplicate());
            long pos = headerLength + written;
            while (chunk.hasRemaining()) {
                pos += channel.write(chunk, pos);
            }
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
        written += n;
        progress.advance(written);
    }

    /** Aborts after a failed write or commit; returns what to throw (a full file system as StorageFullException). */
    private IOException failed(Exception e) {
        abort();
        if (e instanceof RuntimeException re) {
            throw re;
        }
        return store.judged((IOException) e);
    }

    @Override
    public long written() {
        return written;
    }

    @Override
    public synchronized StoredObject follow() {
        if (done) {
            throw new IllegalStateException("the write of '" + key + "' was already "
                    + (progress.isCommitted() ? "committed: look the object up instead" : "aborted"));
        }
        try {
            FileChannel reader = FileChannel.open(tempPath, StandardOpenOption.READ);
            return new FollowingFileObject(initialMetadata, progress, reader, headerLength);
        } catch (IOException e) {
            throw new IllegalStateException("cannot follow the write of '" + key + "': " + e, e);
        }
    }

    @Override
    public void commit() throws IOException {
        commit(initialMetadata.withLength(written));
    }

    @Override
    public void commit(ObjectMetadata finalMetadata) throws IOException {
        ensureWritable();
        if (finalMetadata.length() != written) {
            throw new IllegalArgumentException("final metadata length " + finalMetadata.length()
                    + " differs from the " + written + " bytes written to '" + key + "'");
        }
        try {
            int needed = ObjectFileHeader.lengthFor(key, finalMetadata);
            if (needed > headerLength) {
                relocateBody(needed);
            }
            ObjectFileHeader header = new ObjectFileHeader(key, finalMetadata, headerLength, written,
                    (int) crc.getValue());
            ByteBuffer h = header.encode();
            long pos = 0;
            while (h.hasRemaining()) {
                pos += channel.write(h, pos);
            }
            if (store.syncMode() != SyncMode.NONE) {
                channel.force(false);
            }
            channel.close();
            store.publish(this, header, tempPath);
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
        synchronized (this) {
            done = true;
        }
        progress.commit(written);
        store.writerFinished(this);
        store.syncDirectory(finalPath.getParent());
    }

    /** Moves the body to a new temporary file with a larger header (final metadata grew). */
    private void relocateBody(int newHeaderLength) throws IOException {
        Path newTemp = FileLayout.tempPathFor(finalPath, store.nextNonce());
        FileChannel out = FileChannel.open(newTemp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.READ);
        try {
            store.reserve(this, newHeaderLength - headerLength);
            long copied = 0;
            while (copied < written) {
                copied += channel.transferTo(headerLength + copied, written - copied,
                        out.position(newHeaderLength + copied));
            }
        } catch (IOException | RuntimeException e) {
            out.close();
            Files.deleteIfExists(newTemp);
            throw e;
        }
        Path oldTemp = tempPath;
        FileChannel oldChannel = channel;
        synchronized (this) { // follow() opens tempPath with headerLength: swap both at once
            channel = out;
            tempPath = newTemp;
            headerLength = newHeaderLength;
        }
        oldChannel.close();
        Files.deleteIfExists(oldTemp); // followers keep reading it through their own descriptors
    }

    @Override
    public void abort() {
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // the file is deleted next
        }
        try {
            Files.deleteIfExists(tempPath);
        } catch (IOException e) {
            store.logLeftover(tempPath, e);
        }
        progress.abort();
        store.writerAborted(this);
    }

    @Override
    public void close() {
        abort();
    }

    private void ensureWritable() {
        if (done) {
            throw new IllegalStateException("the write of '" + key + "' was already "
                    + (progress.isCommitted() ? "committed" : "aborted"));
        }
    }
}
