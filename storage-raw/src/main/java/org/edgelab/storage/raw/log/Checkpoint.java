package org.edgelab.storage.raw.log;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * A checkpoint of the {@code raw-log} index: the log position it covers, every slot's generation,
 * and the index entries, followed by a CRC32C of all of it. Written to a temporary file, forced,
 * renamed over {@value #FILE} and the directory forced, so a reader sees the old or the new
 * checkpoint, never a torn one. Immutable; the static methods are thread-safe for distinct directories.
 *
 * @param segmentSize        the segment size the log was written with
 * @param nextGeneration     the next segment generation to hand out
 * @param positionGeneration generation of the segment being appended to when the checkpoint was taken
 * @param positionOffset     the append offset in that segment: records from there on are not covered
 * @param slotGenerations    each slot's generation (0 = free)
 * @param entries            index entries as (hash, location, extent) triples
 */
record Checkpoint(long segmentSize, long nextGeneration, long positionGeneration, long positionOffset,
                  long[] slotGenerations, long[] entries) {

    static final String FILE = "index.ckpt";
    private static final long MAGIC = 0x454C434B50543031L; // "ELCKPT01"

    /** Returns the number of index entries held. */
    int entryCount() {
        return entries.length / 3;
    }

    /**
     * Writes this checkpoint atomically into {@code dir}. If it cannot be written whole (a full
     * file system, say) the temporary file is deleted and the previous checkpoint stays.
     */
    void writeTo(Path dir) throws IOException {
        Path tmp = dir.resolve(FILE + ".tmp");
        try {
            writeFile(tmp);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException ignored) {
            // some file systems cannot force a directory; the rename is still atomic
        }
    }

    private void writeFile(Path tmp) throws IOException {
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            OutputStream raw = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
            CheckedOutputStream checked = new CheckedOutputStream(raw, new CRC32C());
            DataOutputStream out = new DataOutputStream(checked);
            out.writeLong(MAGIC);
            out.writeLong(segmentSize);
            out.writeLong(nextGeneration);
            out.writeLong(positionGeneration);
            out.writeLong(positionOffset);
            out.writeInt(slotGenerations.length);
            for (long g : slotGenerations) {
                out.writeLong(g);
            }
            out.writeInt(entryCount());
            for (long v : entries) {
                out.writeLong(v);
            }
            out.flush();
            new DataOutputStream(raw).writeLong(checked.getChecksum().getValue());
            raw.flush();
            ch.force(true);
        }
    }

    /** Reads the checkpoint in {@code dir}; null if there is none; throws if it is damaged. */
    static Checkpoint readFrom(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        long fileSize;
        try {
            fileSize = Files.size(file);
        } catch (NoSuchFileException e) {
            return null;
        }
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            CheckedInputStream checked = new CheckedInputStream(raw, new CRC32C());
            DataInputStream in = new DataInputStream(checked);
            if (in.readLong() != MAGIC) {
                throw new IOException("not a raw-log checkpoint");
            }
            long segmentSize = in.readLong();
            long nextGeneration = in.readLong();
            long positionGeneration = in.readLong();
            long positionOffset = in.readLong();
            int slots = in.readInt();
            if (slots < 0 || slots > LogIndex.MAX_SLOTS || 8L * slots > fileSize) {
                throw new IOException("checkpoint claims " + slots + " slots");
            }
            long[] slotGenerations = new long[slots];
            for (int i = 0; i < slots; i++) {
                slotGenerations[i] = in.readLong();
            }
            int count = in.readInt();
            if (count < 0 || 24L * count > fileSize) {
                throw new IOException("checkpoint claims " + count + " entries in " + fileSize + " bytes");
            }
            long[] entries = new long[count * 3];
            for (int i = 0; i < entries.length; i++) {
                entries[i] = in.readLong();
            }
            long expected = checked.getChecksum().getValue();
            long stored = new DataInputStream(raw).readLong();
            if (expected != stored) {
                throw new IOException("checkpoint checksum mismatch");
            }
            if (raw.read() != -1) {
                throw new IOException("trailing bytes after the checkpoint");
            }
            return new Checkpoint(segmentSize, nextGeneration, positionGeneration, positionOffset, slotGenerations,
                    entries);
        } catch (EOFException e) {
            throw new IOException("checkpoint is truncated", e);
        }
    }
}
