package org.edgelab.origin.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A regular file under the files root: validators from its size and modification time, bytes read
 * from a file channel opened on first use. Not thread-safe: one response's event loop uses it.
 */
final class FileRepresentation implements Representation {

    private final Path path;
    private final long size;
    private final long lastModifiedMillis;
    private final String etag;
    private FileChannel channel;

    FileRepresentation(Path path, BasicFileAttributes attributes) {
        this.path = path;
        this.size = attributes.size();
        long mtime = attributes.lastModifiedTime().toMillis();
        this.lastModifiedMillis = Math.floorDiv(mtime, 1000) * 1000;
        this.etag = '"' + Long.toHexString(size) + "-" + Long.toHexString(mtime) + '"';
    }

    @Override
    public long length() {
        return size;
    }

    @Override
    public String etag() {
        return etag;
    }

    @Override
    public long lastModifiedMillis() {
        return lastModifiedMillis;
    }

    @Override
    public ByteBuf read(ByteBufAllocator alloc, long offset, int length) throws IOException {
        FileChannel file = fileChannel();
        ByteBuf buf = alloc.directBuffer(length, length);
        try {
            long at = offset;
            while (buf.writableBytes() > 0) {
                int n = buf.writeBytes(file, at, buf.writableBytes());
                if (n < 0) {
                    throw new EOFException(path + " ended at " + at + " though it had " + size + " bytes when the response began");
                }
                at += n;
            }
            return buf;
        } catch (IOException | RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    @Override
    public FileChannel fileChannel() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        }
        return channel;
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing was written through it; closing a read channel cannot lose data
            }
        }
    }
}
