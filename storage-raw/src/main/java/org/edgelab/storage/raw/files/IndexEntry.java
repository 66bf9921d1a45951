package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.spi.WriteProgress;

/**
 * What the in-memory index keeps per object file: where it is, its shape and body checksum, the
 * readers that have it open, and whether its body was verified. The reader count, the unlinked
 * flag and the last use are guarded by the store's lookup lock; the verification is done at most
 * once, under this entry's monitor.
 */
final class IndexEntry {

    private static final int UNVERIFIED = 0;
    private static final int VERIFIED = 1;
    private static final int CORRUPT = 2;
    private static final int VERIFY_CHUNK = 256 * 1024;

    final CacheKey key;
    final Path path;
    final int headerLength;
    final long bodyLength;
    final int bodyCrc;
    /** The complete progress every reader of this file shares. */
    final WriteProgress progress;

    /** Open readers; guarded by the store's lookup lock. */
    int readers;
    /** Whether the file was unlinked (removed, evicted or replaced); guarded by the store's lookup lock. */
    boolean unlinked;
    /** When the object was last read or written (epoch ms), for the recency file; guarded by the store's lookupLock. */
    long lastUsedMillis;

    private volatile int verification;

    IndexEntry(CacheKey key, Path path, int headerLength, long bodyLength, int bodyCrc, boolean verified) {
        this.key = key;
        this.path = path;
        this.headerLength = headerLength;
        this.bodyLength = bodyLength;
        this.bodyCrc = bodyCrc;
        this.progress = WriteProgress.committed(key, bodyLength);
        this.verification = verified ? VERIFIED : UNVERIFIED;
    }

    long fileLength() {
        return headerLength + bodyLength;
    }

    boolean isVerified() {
        return verification == VERIFIED;
    }

    /**
     * Checks the body against its CRC32C once per entry, reading it through {@code channel}; later
     * calls return the cached answer. Returns the bytes read to verify (0 when cached), negated when
     * the body is corrupt.
     */
    synchronized long verify(FileChannel channel) throws IOException {
        if (verification == VERIFIED) {
            return 0;
        }
        if (verification == CORRUPT) {
            return -1;
        }
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(VERIFY_CHUNK, Math.max(1, bodyLength)));
        long pos = 0;
        while (pos < bodyLength) {
            buf.clear().limit((int) Math.min(buf.capacity(), bodyLength - pos));
            int n = channel.read(buf, headerLength + pos);
            if (n < 0) {
                break;
            }
            buf.flip();
            crc.update(buf);
            pos += n;
        }
        boolean ok = pos == bodyLength && (int) crc.getValue() == bodyCrc;
        verification = ok ? VERIFIED : CORRUPT;
        return ok ? Math.max(pos, 1) : -Math.max(pos, 1);
    }
}
