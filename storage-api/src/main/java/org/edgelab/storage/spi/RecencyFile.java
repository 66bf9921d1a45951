package org.edgelab.storage.spi;

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
 * Keeps when each object of a store was last used (read or written), by key hash, in one file written whole and read
 * back at open. Stateless and thread-safe for different files; writes of one file must be serialised by the caller
 * (they share its temporary file). Both calls block on the file system.
 *
 * <p>Why: a store that gives its eviction policy the objects found at open in write order evicts, once full, the
 * oldest-written first, which is the hot set warmed first (the restart experiment of 2026-12-06 refetched 27 % of its
 * set at 1 MB with raw-files, 29 % with lmdb). Ordered by these times instead, it evicts what was used least recently
 * before it stopped. Format, version 1: the magic {@code ELRC}, the version and the pair count (three big-endian
 * ints), that many pairs of key hash and last use in epoch ms (two longs), and the CRC32C of everything before it (an
 * int). A crash leaves the previous whole file (a new one goes to {@code NAME.tmp} first); a missing or damaged file
 * gives no times and the engine falls back on its own order: the file is an optimisation, nothing is lost without it.
 */
public final class RecencyFile {

    private static final System.Logger LOG = System.getLogger(RecencyFile.class.getName());
    private static final int MAGIC = 0x454c5243; // "ELRC"
    private static final int VERSION = 1;
    private static final int HEADER = 12;
    private static final int PAIR = 16;

    private RecencyFile() {
    }

    /**
     * Writes {@code count} pairs of key hash and last use (epoch ms) to the file {@code name} in {@code dir}, replacing
     * the last one atomically (through {@code name.tmp}).
     */
    public static void write(Path dir, String name, long[] keyHashes, long[] lastUsedMillis, int count)
            throws IOException {
        ByteBuffer b = ByteBuffer.allocate(HEADER + count * PAIR + 4);
        b.putInt(MAGIC).putInt(VERSION).putInt(count);
        for (int i = 0; i < count; i++) {
            b.putLong(keyHashes[i]).putLong(lastUsedMillis[i]);
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue()).flip();
        Path tmp = dir.resolve(name + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
        Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Reads the last use of each key hash from the file {@code name} in {@code dir}; empty when there is no file (not
     * logged) or it is damaged (logged as a warning ending in {@code withoutIt}: what the engine does instead).
     */
    public static Map<Long, Long> read(Path dir, String name, String withoutIt) {
        Path file = dir.resolve(name);
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
            LOG.log(System.Logger.Level.WARNING, "ignoring the recency file {0} ({1}): {2}", file, e.getMessage(),
                    withoutIt);
            return Map.of();
        }
    }
}
