package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.spi.AbstractStoredObject;
import org.edgelab.storage.spi.WriteProgress;

/**
 * A reader following a write in progress: it reads the temporary file through its own descriptor
 * (which stays valid after the rename on commit, and after the file is deleted on an abort) up to
 * the length the writer has published. Thread-safe: positional reads only; reads block on the file.
 */
final class FollowingFileObject extends AbstractStoredObject {

    private final FileChannel channel;
    private final int headerLength;

    FollowingFileObject(ObjectMetadata metadata, WriteProgress progress, FileChannel channel, int headerLength) {
        super(progress, metadata);
        this.channel = channel;
        this.headerLength = headerLength;
    }

    @Override
    protected int readAvailable(long position, ByteBuffer dst, int length) throws IOException {
        ByteBuffer target = dst.slice(dst.position(), length);
        while (target.hasRemaining()) {
            if (channel.read(target, headerLength + position + target.position()) < 0) {
                break; // cannot happen below the published length; report what was read
            }
        }
        dst.position(dst.position() + target.position());
        return target.position();
    }

    @Override
    protected void release() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // read-only descriptor
        }
    }
}
