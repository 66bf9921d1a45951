package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.spi.AbstractStoredObject;

/**
 * A reader following a {@link LogWriter}: reads the bytes written so far straight from the
 * segment files and keeps the writer's segments pinned until closed, so what was written stays
 * readable after an abort too. Thread-safe; reads block on the segment files.
 */
final class FollowReader extends AbstractStoredObject {

    private final LogWriter writer;

    FollowReader(LogWriter writer) {
        super(writer.progress(), writer.initialMetadata());
        this.writer = writer;
    }

    @Override
    protected int readAvailable(long position, ByteBuffer dst, int length) throws IOException {
        int total = 0;
        long pos = position;
        while (total < length) {
            LogWriter.Piece piece = writer.locate(pos);
            if (piece == null) {
                break;
            }
            int n = (int) Math.min(length - total, piece.length());
            ByteBuffer part = dst.slice(dst.position(), n);
            if (!piece.segment().read(part, piece.fileOffset())) {
                throw new StorageException("segment " + piece.segment().slot + " ends inside the bytes written of '"
                        + writer.key() + "'");
            }
            dst.position(dst.position() + n);
            total += n;
            pos += n;
        }
        writer.counters().bytesRead.add(total);
        return total;
    }

    @Override
    protected void release() {
        writer.followerClosed();
        writer.releaseHolder();
    }
}
