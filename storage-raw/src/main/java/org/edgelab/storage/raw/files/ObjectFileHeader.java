package org.edgelab.storage.raw.files;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.MetadataCodec;
import org.edgelab.storage.api.ObjectMetadata;

/**
 * The header at the start of every object file, followed directly by the body.
 *
 * <pre>
 *  0  int   magic 0x45444746 ("EDGF")
 *  4  short format version (1)
 *  6  short key length in UTF-8 bytes
 *  8  int   header length: bytes before the body (a multiple of 512, zero padded)
 * 12  int   metadata length
 * 16  long  body length
 * 24  int   CRC32C of the body
 * 28  int   CRC32C of bytes 0..28, the key and the metadata
 * 32  key, then the metadata in {@link MetadataCodec} form, then zeros up to the header length
 * </pre>
 * Immutable and thread-safe.
 */
record ObjectFileHeader(CacheKey key, ObjectMetadata metadata, int headerLength, long bodyLength, int bodyCrc) {

    static final int MAGIC = 0x45444746;
    static final short VERSION = 1;
    static final int FIXED_LENGTH = 32;
    static final int ALIGNMENT = 512;
    /** Headers are read in one go when no longer than this (the scan reads this much per file). */
    static final int TYPICAL_READ = 4096;
    private static final int MAX_HEADER_LENGTH = 64 << 20;

    /** Returns the smallest header length that holds the key and metadata, rounded up to {@link #ALIGNMENT}. */
    static int lengthFor(CacheKey key, ObjectMetadata metadata) {
        int needed = FIXED_LENGTH + key.toBytes().length + MetadataCodec.encodedLength(metadata);
        return (needed + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    /** Encodes the header into a buffer of exactly {@link #headerLength()} bytes, flipped for writing. */
    ByteBuffer encode() {
        byte[] keyBytes = key.toBytes();
        int metaLength = MetadataCodec.encodedLength(metadata);
        if (FIXED_LENGTH + keyBytes.length + metaLength > headerLength) {
            throw new IllegalStateException("header does not fit in " + headerLength + " bytes");
        }
        ByteBuffer b = ByteBuffer.allocate(headerLength);
        b.putInt(MAGIC).putShort(VERSION).putShort((short) keyBytes.length).putInt(headerLength).putInt(metaLength)
                .putLong(bodyLength).putInt(bodyCrc);
        b.position(FIXED_LENGTH);
        b.put(keyBytes);
        MetadataCodec.encode(metadata, b);
        int end = b.position();
        b.putInt(28, checksum(b, end));
        b.position(0).limit(headerLength);
        return b;
    }

    /**
     * Returns the header length announced by the first {@link #FIXED_LENGTH} bytes of {@code start}
     * (absolute reads), after checking magic and version.
     */
    static int peekHeaderLength(ByteBuffer start) throws CorruptObjectException {
        if (start.limit() < FIXED_LENGTH) {
            throw new CorruptObjectException("file is shorter than an object header");
        }
        if (start.getInt(0) != MAGIC) {
            throw new CorruptObjectException("not an object file (bad magic)");
        }
        if (start.getShort(4) != VERSION) {
            throw new CorruptObjectException("unknown object file version " + start.getShort(4));
        }
        int headerLength = start.getInt(8);
        if (headerLength < FIXED_LENGTH || headerLength > MAX_HEADER_LENGTH || headerLength % ALIGNMENT != 0) {
            throw new CorruptObjectException("implausible header length " + headerLength);
        }
        return headerLength;
    }

    /** Decodes and verifies a whole header held in {@code buf} from index 0 (at least the header length). */
    static ObjectFileHeader decode(ByteBuffer buf) throws CorruptObjectException {
        int headerLength = peekHeaderLength(buf);
        if (buf.limit() < headerLength) {
            throw new CorruptObjectException("file is shorter than its header");
        }
        int keyLength = buf.getShort(6) & 0xffff;
        int metaLength = buf.getInt(12);
        long bodyLength = buf.getLong(16);
        int bodyCrc = buf.getInt(24);
        int storedCrc = buf.getInt(28);
        if (keyLength == 0 || keyLength > CacheKey.MAX_BYTES || metaLength < 0
                || (long) FIXED_LENGTH + keyLength + metaLength > headerLength || bodyLength < 0) {
            throw new CorruptObjectException("implausible header fields");
        }
        int end = FIXED_LENGTH + keyLength + metaLength;
        if (checksum(buf, end) != storedCrc) {
            throw new CorruptObjectException("header checksum mismatch");
        }
        byte[] keyBytes = new byte[keyLength];
        buf.get(FIXED_LENGTH, keyBytes);
        CacheKey key;
        try {
            key = new CacheKey(new String(keyBytes, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new CorruptObjectException("bad key in header: " + e.getMessage(), e);
        }
        ObjectMetadata metadata = MetadataCodec.decode(buf.slice(FIXED_LENGTH + keyLength, metaLength));
        if (metadata.length() != bodyLength) {
            throw new CorruptObjectException("metadata length " + metadata.length() + " != body length " + bodyLength);
        }
        return new ObjectFileHeader(key, metadata, headerLength, bodyLength, bodyCrc);
    }

    /** Returns the file's total length: header plus body. */
    long fileLength() {
        return headerLength + bodyLength;
    }

    private static int checksum(ByteBuffer b, int end) {
        CRC32C crc = new CRC32C();
        crc.update(b.slice(0, 28));
        crc.update(b.slice(FIXED_LENGTH, end - FIXED_LENGTH));
        return (int) crc.getValue();
    }
}
