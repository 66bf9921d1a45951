package org.edgelab.storage.raw.log;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.MetadataCodec;
import org.edgelab.storage.api.ObjectMetadata;

/**
 * The on-disk layout of {@code raw-log} segments, in one place. Big-endian throughout.
 *
 * <pre>
 * segment file (one per slot, preallocated to segment-size):
 *   [0, 4096)   segment header: magic "ELSEGMNT" | version int | slot int | generation long |
 *               segment size long | CRC32C int (of the preceding 32 bytes); zeroed when freed
 *   [4096, ...) records, each starting on an 8-byte boundary
 * record header (32 bytes): magic int | type byte | 3 pad | generation long (of the segment) |
 *               length long | CRC32C int (of the preceding 24 bytes) | 4 pad
 *   EXTENT    length = payload bytes reserved; the payload follows the header
 *   COMMIT    length = whole record; key length short | 2 pad | metadata length int |
 *             body length long | extent count int | key | metadata (MetadataCodec) |
 *             extents (slot int, generation long, offset long, length long, CRC32C int) |
 *             CRC32C int of the whole record before it
 *   TOMBSTONE length = whole record; key length short | key | CRC32C int
 * </pre>
 * A record is valid only if its generation equals its segment's, which is how a reused segment's
 * stale tail is told from new records. Stateless and thread-safe.
 */
final class RecordFormat {

    static final int SEGMENT_HEADER_AREA = 4096;
    static final int SEGMENT_HEADER_BYTES = 36;
    static final int RECORD_HEADER_BYTES = 32;
    static final int EXTENT_ENTRY_BYTES = 32;
    static final byte EXTENT = 1;
    static final byte COMMIT = 2;
    static final byte TOMBSTONE = 3;

    private static final long SEGMENT_MAGIC = 0x454C5345474D4E54L; // "ELSEGMNT"
    private static final int RECORD_MAGIC = 0x454C5247; // "ELRG"
    private static final int VERSION = 1;
    private static final int COMMIT_FIXED = RECORD_HEADER_BYTES + 2 + 2 + 4 + 8 + 4;

    private RecordFormat() {
    }

    static long align8(long n) {
        return (n + 7) & ~7L;
    }

    /** Returns the segment header for a slot activated with {@code generation}. */
    static ByteBuffer segmentHeader(int slot, long generation, long segmentSize) {
        ByteBuffer b = ByteBuffer.allocate(SEGMENT_HEADER_BYTES);
        b.putLong(SEGMENT_MAGIC).putInt(VERSION).putInt(slot).putLong(generation).putLong(segmentSize);
        b.putInt(crc(b.array(), 0, 32));
        return b.flip();
    }

    /** Returns the generation a segment header declares, or 0 if it is not a valid header of {@code slot}. */
    static long segmentGeneration(ByteBuffer b, int slot, long segmentSize) {
        if (b.remaining() < SEGMENT_HEADER_BYTES) {
            return 0;
        }
        byte[] raw = new byte[SEGMENT_HEADER_BYTES];
        b.get(raw);
        ByteBuffer h = ByteBuffer.wrap(raw);
        if (h.getLong() != SEGMENT_MAGIC || h.getInt() != VERSION || h.getInt() != slot) {
            return 0;
        }
        long generation = h.getLong();
        long size = h.getLong();
        if (h.getInt() != crc(raw, 0, 32) || generation <= 0) {
            return 0;
        }
        if (size != segmentSize) {
            throw new IllegalArgumentException("segment " + slot + " was written with segment-size " + size
                    + " but the store is opened with " + segmentSize + "; reopen with segment-size=" + size
                    + " or empty the disks");
        }
        return generation;
    }

    /** Returns an extent record header for {@code payloadLength} reserved bytes. */
    static ByteBuffer extentHeader(long generation, long payloadLength) {
        return recordHeader(EXTENT, generation, payloadLength).flip();
    }

    /** A decoded record header. */
    record Header(byte type, long generation, long length) {
    }

    /** Decodes a record header, or returns null if the bytes are not a valid header. */
    static Header decodeHeader(ByteBuffer b) {
        if (b.remaining() < RECORD_HEADER_BYTES) {
            return null;
        }
        int start = b.position();
        byte[] raw = new byte[RECORD_HEADER_BYTES];
        b.get(raw);
        ByteBuffer h = ByteBuffer.wrap(raw);
        if (h.getInt() != RECORD_MAGIC) {
            b.position(start);
            return null;
        }
        byte type = h.get();
        h.position(8);
        long generation = h.getLong();
        long length = h.getLong();
        if (h.getInt() != crc(raw, 0, 24) || type < EXTENT || type > TOMBSTONE || length < 0) {
            b.position(start);
            return null;
        }
        return new Header(type, generation, length);
    }

    /** Returns the length of the commit record of {@code key} with {@code metadata} and {@code extentCount} extents. */
    static int commitLength(byte[] key, ObjectMetadata metadata, int extentCount) {
        long n = COMMIT_FIXED + key.length + (long) MetadataCodec.encodedLength(metadata)
                + (long) extentCount * EXTENT_ENTRY_BYTES + 4;
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("commit record too large: " + n);
        }
        return (int) n;
    }

    /** Encodes a commit record to land in a segment of {@code generation}. */
    static ByteBuffer commit(long generation, CommitRecord record) {
        byte[] key = record.key().toBytes();
        ByteBuffer meta = MetadataCodec.encode(record.metadata());
        int length = commitLength(key, record.metadata(), record.extents().size());
        ByteBuffer b = ByteBuffer.allocate(length);
        b.put(recordHeader(COMMIT, generation, length).array());
        b.putShort((short) key.length).putShort((short) 0).putInt(meta.remaining()).putLong(record.bodyLength())
                .putInt(record.extents().size());
        b.put(key).put(meta);
        for (Extent e : record.extents()) {
            b.putInt(e.slot()).putLong(e.generation()).putLong(e.offset()).putLong(e.length()).putInt(e.crc());
        }
        b.putInt(crc(b.array(), 0, length - 4));
        return b.flip();
    }

    /** Decodes a whole commit record (header included) that must belong to a segment of {@code generation}. */
    static CommitRecord decodeCommit(ByteBuffer b, long generation) throws CorruptObjectException {
        try {
            int start = b.position();
            Header h = decodeHeader(b);
            if (h == null || h.type() != COMMIT) {
                throw new CorruptObjectException("no commit record header");
            }
            if (h.generation() != generation) {
                throw new CorruptObjectException("commit record of generation " + h.generation() + ", expected "
                        + generation);
            }
            int length = (int) h.length();
            if (h.length() < COMMIT_FIXED + 4 || b.limit() - start < length) {
                throw new CorruptObjectException("commit record length " + h.length() + " out of range");
            }
            byte[] all = new byte[length];
            b.position(start);
            b.get(all);
            ByteBuffer r = ByteBuffer.wrap(all);
            if (r.getInt(length - 4) != crc(all, 0, length - 4)) {
                throw new CorruptObjectException("commit record checksum mismatch");
            }
            r.position(RECORD_HEADER_BYTES);
            int keyLength = r.getShort() & 0xffff;
            r.getShort();
            int metaLength = r.getInt();
            long bodyLength = r.getLong();
            int count = r.getInt();
            if (keyLength == 0 || metaLength < 0 || count < 0 || bodyLength < 0
                    || COMMIT_FIXED + keyLength + (long) metaLength + (long) count * EXTENT_ENTRY_BYTES + 4 != length) {
                throw new CorruptObjectException("commit record fields inconsistent");
            }
            byte[] key = new byte[keyLength];
            r.get(key);
            ByteBuffer meta = r.slice(r.position(), metaLength);
            ObjectMetadata metadata = MetadataCodec.decode(meta);
            r.position(r.position() + metaLength);
            List<Extent> extents = new ArrayList<>(count);
            long total = 0;
            for (int i = 0; i < count; i++) {
                Extent e = new Extent(r.getInt(), r.getLong(), r.getLong(), r.getLong(), r.getInt());
                if (e.slot() < 0 || e.offset() < SEGMENT_HEADER_AREA || e.length() <= 0) {
                    throw new CorruptObjectException("commit record lists an impossible extent " + e);
                }
                total += e.length();
                extents.add(e);
            }
            if (total != bodyLength || metadata.length() != bodyLength) {
                throw new CorruptObjectException("extents hold " + total + " bytes, body length is " + bodyLength);
            }
            return new CommitRecord(CacheKey.of(new String(key, StandardCharsets.UTF_8)), metadata, bodyLength,
                    extents);
        } catch (BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptObjectException("damaged commit record: " + e, e);
        }
    }

    /** Returns the length of a tombstone record for {@code key}. */
    static int tombstoneLength(byte[] key) {
        return RECORD_HEADER_BYTES + 2 + key.length + 4;
    }

    /** Encodes a tombstone that removes {@code key}. */
    static ByteBuffer tombstone(long generation, byte[] key) {
        int length = tombstoneLength(key);
        ByteBuffer b = ByteBuffer.allocate(length);
        b.put(recordHeader(TOMBSTONE, generation, length).array());
        b.putShort((short) key.length).put(key);
        b.putInt(crc(b.array(), 0, length - 4));
        return b.flip();
    }

    /** Decodes a whole tombstone record and returns the removed key. */
    static CacheKey decodeTombstone(ByteBuffer b) throws CorruptObjectException {
        try {
            int start = b.position();
            Header h = decodeHeader(b);
            if (h == null || h.type() != TOMBSTONE || b.limit() - start < h.length()) {
                throw new CorruptObjectException("damaged tombstone");
            }
            int length = (int) h.length();
            byte[] all = new byte[length];
            b.position(start);
            b.get(all);
            ByteBuffer r = ByteBuffer.wrap(all);
            if (r.getInt(length - 4) != crc(all, 0, length - 4)) {
                throw new CorruptObjectException("tombstone checksum mismatch");
            }
            r.position(RECORD_HEADER_BYTES);
            int keyLength = r.getShort() & 0xffff;
            if (RECORD_HEADER_BYTES + 2 + keyLength + 4 != length || keyLength == 0) {
                throw new CorruptObjectException("tombstone fields inconsistent");
            }
            byte[] key = new byte[keyLength];
            r.get(key);
            return CacheKey.of(new String(key, StandardCharsets.UTF_8));
        } catch (BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptObjectException("damaged tombstone: " + e, e);
        }
    }

    /** Returns the bytes an object occupies in the log: its extents with their headers and its commit record. */
    static long storedBytes(long commitLength, List<Extent> extents) {
        long n = align8(commitLength);
        for (Extent e : extents) {
            n += align8(RECORD_HEADER_BYTES + e.length());
        }
        return n;
    }

    private static ByteBuffer recordHeader(byte type, long generation, long length) {
        ByteBuffer b = ByteBuffer.allocate(RECORD_HEADER_BYTES);
        b.putInt(RECORD_MAGIC).put(type).put((byte) 0).putShort((short) 0).putLong(generation).putLong(length);
        b.putInt(crc(b.array(), 0, 24)).putInt(0);
        return b;
    }

    static int crc(byte[] bytes, int offset, int length) {
        CRC32C c = new CRC32C();
        c.update(bytes, offset, length);
        return (int) c.getValue();
    }
}
