package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The file in which a raw-files store keeps when each object was last read or written, by the 64-bit hash of its key,
 * so that the index rebuilt at open orders the eviction policy by use as it was. Without it a restarted store ordered
 * its objects by when their files were written and, once full, evicted the oldest-written first: the hot set, warmed
 * first. Written whole to a temporary file and renamed over the last one, so a crash leaves the previous file; a
 * missing or damaged file gives no times (the rebuild then orders by the files' modification times). Stateless; the
 * caller serialises writes. Both calls block on the file system.
 */
final class RecencyCheckpoint {

    /** The file's name in the store's root directory (the index scan reads only the hashed directories). */
    static final String FILE = "raw-files.recency";

    private static final System.Logger LOG = System.getLogger(RecencyCheckpoint.class.getName());
    private static final int MAGIC = 0x454c5243; // "ELRC"
    private static final int VERSION = 1;
    private static final int HEADER = 12;
    private static final int PAIR = 16;

    private RecencyCheckpoint() {
    }

    /** Writes {@code count} pairs of key hash and last use (epoch ms) into {@code dir}, replacing the last file. */
    static void write(Path dir, long[] keyHashes, long[] lastUsedMillis, int count) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(HEADER + count * PAIR + 4);
        b.putInt(MAGIC).putInt(VERSION).putInt(count);
        for (int i = 0; i < count; i++) {
            b.putLong(keyHashes[i]).putLong(lastUsedMillis[i]);
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue()).flip();
        Path tmp = dir.resolve(FILE + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
        Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Reads the last use of each key hash from {@code dir}; empty when there is no file or it is damaged (logged). */
    static Map<Long, Long> read(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return Map.of();
        }
        try {
            byte[] bytes = Files.readAllBytes(file);
            ByteBuffer b = ByteBuffer.wrap(bytes);
            if (bytes.length < HEADER + 4 || b.getInt() != MAGIC || b.getInt() != VERSION) {
                throw new IOException("not a recency file of this version");
            }
            int count = b.getInt();
            if (count < 0 || bytes.length != HEADER + (long) count * PAIR + 4) {
                throw new IOException(bytes.length + " bytes do not hold the " + count + " entries it announces");
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes, 0, bytes.length - 4);
            if ((int) crc.getValue() != ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt()) {
                throw new IOException("its CRC32C does not match");
            }
            Map<Long, Long> lastUsed = new HashMap<>(Math.max(16, count * 2));
            for (int i = 0; i < count; i++) {
                long hash = b.getLong();
                lastUsed.put(hash, b.getLong());
            }
            return lastUsed;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "ignoring the raw-files recency file {0} ({1}): the rebuilt index orders"
                    + " objects by when their files were written", file, e.getMessage());
            return Map.of();
        }
    }
}
