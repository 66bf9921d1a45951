package org.edgelab.storage.lmdb;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.MetadataCodec;
import org.edgelab.storage.api.ObjectMetadata;

/**
 * The on-disk layout. Chunk database: key = object id (8 bytes, big-endian) + chunk index
 * (4 bytes, big-endian), so an object's chunks sort together and in order; value = the chunk's
 * body bytes, then (format 2) a CRC32C of the key and those bytes (4 bytes, big-endian), which
 * also catches a chunk of another object or index. Metadata database: key = the cache key's
 * UTF-8 bytes, or {@code 0xFF} + SHA-256 of them when longer than LMDB's key limit (UTF-8 never
 * starts with {@code 0xFF}); value = format byte (1: chunks without a checksum, as written
 * before checksums; 2: with), id, length, chunk size, the full key when hashed, then
 * {@link MetadataCodec} bytes. The one key {@link #TICK_KEY} is the engine's own.
 * Also estimates how many map bytes a value takes. Stateless and thread-safe.
 */
final class Layout {

    static final int CHUNK_KEY_BYTES = 12;
    /** The checksum after each chunk's body (format 2). */
    static final int CHUNK_TRAILER_BYTES = 4;
    static final int MAX_META_KEY_BYTES = 480;
    /**
     * The key of the engine's own record in the metadata database (written to advance the
     * transaction id after deletions); UTF-8 keys never contain {@code 0xFE}, so it cannot clash.
     */
    static final byte[] TICK_KEY = {(byte) 0xFE};
    private static final byte FORMAT_UNCHECKED = 1;
    private static final byte FORMAT = 2;
    private static final int META_FIXED = 1 + 8 + 8 + 4 + 2;
    /** LMDB page header, in front of every overflow run. */
    private static final int PAGE_HEADER = 16;
    /** Node header + page slot pointer of one leaf entry. */
    private static final int NODE_OVERHEAD = 8 + 2;

    private Layout() {
    }

    /** Writes the chunk key of ({@code id}, {@code index}) into {@code out} (direct, 12 bytes) and flips it. */
    static ByteBuffer chunkKey(ByteBuffer out, long id, int index) {
        out.clear();
        out.putLong(id).putInt(index);
        return out.flip();
    }

    /** Returns the metadata-database key for the key bytes. */
    static byte[] metaKey(byte[] keyBytes) {
        if (keyBytes.length <= MAX_META_KEY_BYTES) {
            return keyBytes;
        }
        byte[] out = new byte[33];
        out[0] = (byte) 0xFF;
        System.arraycopy(sha256(keyBytes), 0, out, 1, 32);
        return out;
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }

    /** Returns the CRC32C a format-2 chunk carries: of its key ({@code id}, {@code index}) and its body bytes. */
    static int chunkCrc(long id, int index, ByteBuffer body) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(CHUNK_KEY_BYTES).putLong(id).putInt(index).flip());
        crc.update(body.duplicate());
        return (int) crc.getValue();
    }

    /**
     * Returns whether a stored chunk value (body and trailer) is intact: the trailer matches the
     * body. {@code value} is not moved.
     */
    static boolean chunkIntact(long id, int index, ByteBuffer value) {
        int bodyLength = value.remaining() - CHUNK_TRAILER_BYTES;
        if (bodyLength < 0) {
            return false;
        }
        ByteBuffer body = value.duplicate().limit(value.position() + bodyLength);
        return chunkCrc(id, index, body) == value.getInt(value.position() + bodyLength);
    }

    /** A decoded metadata-database value; {@code metadata} is decoded lazily; {@code checksummed} for format 2. */
    record MetaRecord(long id, long length, int chunkSize, byte[] fullKey, ByteBuffer metadataBytes, boolean checksummed) {
        ObjectMetadata metadata() throws CorruptObjectException {
            return MetadataCodec.decode(metadataBytes.duplicate());
        }

        int chunkCount() {
            return Layout.chunkCount(length, chunkSize);
        }
    }

    /** Encodes a metadata value into a new direct buffer, flipped; {@code checksummed} says whether its chunks carry CRCs. */
    static ByteBuffer encodeMeta(long id, long length, int chunkSize, byte[] keyBytes, byte[] metaKey,
                                 ObjectMetadata metadata, boolean checksummed) {
        byte[] fullKey = metaKey == keyBytes ? new byte[0] : keyBytes;
        ByteBuffer out = ByteBuffer.allocateDirect(META_FIXED + fullKey.length + MetadataCodec.encodedLength(metadata));
        out.put(checksummed ? FORMAT : FORMAT_UNCHECKED).putLong(id).putLong(length).putInt(chunkSize).putShort((short) fullKey.length).put(fullKey);
        MetadataCodec.encode(metadata, out);
        return out.flip();
    }

    /** Returns whether a metadata-database key is the engine's own rather than an object's. */
    static boolean isEngineKey(byte[] metaKey) {
        return metaKey.length == 1 && metaKey[0] == TICK_KEY[0];
    }

    /** Decodes a metadata value (a view into the map: {@code copy} copies what is kept). */
    static MetaRecord decodeMeta(ByteBuffer value, boolean copy) throws CorruptObjectException {
        ByteBuffer in = value.duplicate();
        if (in.remaining() < META_FIXED) {
            throw new CorruptObjectException("metadata record of " + in.remaining() + " bytes is too short");
        }
        byte format = in.get();
        if (format != FORMAT && format != FORMAT_UNCHECKED) {
            throw new CorruptObjectException("unknown metadata record format " + format);
        }
        long id = in.getLong();
        long length = in.getLong();
        int chunkSize = in.getInt();
        int keyLen = in.getShort() & 0xffff;
        if (id <= 0 || length < 0 || chunkSize < 1024 || chunkSize > LmdbSettings.MAX_CHUNK_SIZE
                || keyLen > in.remaining()) {
            throw new CorruptObjectException("metadata record has impossible fields (id " + id + ", length " + length
                    + ", chunk size " + chunkSize + ")");
        }
        byte[] fullKey = new byte[keyLen];
        in.get(fullKey);
        ByteBuffer meta = in.slice();
        if (copy) {
            ByteBuffer c = ByteBuffer.allocate(meta.remaining());
            c.put(meta).flip();
            meta = c;
        }
        return new MetaRecord(id, length, chunkSize, fullKey, meta, format == FORMAT);
    }

    /** Returns whether a decoded record belongs to {@code keyBytes} (hashed keys carry their full key). */
    static boolean belongsTo(MetaRecord r, byte[] keyBytes) {
        return r.fullKey().length == 0 || Arrays.equals(r.fullKey(), keyBytes);
    }

    /**
     * Returns the body bytes per chunk for a requested chunk size: rounded down so that a chunk,
     * its checksum and the overflow page header fill whole pages (256 KiB on 4 KiB pages gives
     * 262,124 bytes in exactly 64 pages instead of 262,144 bytes in 65).
     */
    static int payloadPerChunk(int requested, int pageSize) {
        int pages = Math.max(1, requested / pageSize);
        return pages * pageSize - PAGE_HEADER - CHUNK_TRAILER_BYTES;
    }

    /** Returns the value bytes of a chunk of {@code bodyBytes}: the body and, if checksummed, its trailer. */
    static long chunkValueBytes(long bodyBytes, boolean checksummed) {
        return bodyBytes + (checksummed ? CHUNK_TRAILER_BYTES : 0);
    }

    /**
     * Returns whether LMDB stores a value of {@code valueBytes} on its own run of overflow pages,
     * which stay where they are until that value is deleted or overwritten (copy-on-write copies
     * only branch and leaf pages; {@code mdb_ovpage_free} runs only on delete, overwrite and drop).
     * LMDB moves a value out of its leaf when node header + key + value exceed {@code me_nodemax}
     * = ((pageSize - 16) / 2 rounded down to even) - 2, which is below half a page, so every value of
     * at least half a page qualifies (conservative by about 30 bytes). Smaller values live inside
     * leaf pages, which any later write to a neighbouring key may copy and free.
     */
    static boolean onOverflowPages(int valueBytes, int pageSize) {
        return valueBytes >= pageSize / 2;
    }

    static int chunkCount(long length, int chunkSize) {
        return (int) ((length + chunkSize - 1) / chunkSize);
    }

    /** Estimates the map bytes of one value of {@code valueBytes} under a {@code keyBytes} key. */
    static long valueFootprint(int keyBytes, long valueBytes, int pageSize) {
        long node = NODE_OVERHEAD + keyBytes;
        if (valueBytes > pageSize / 4) {
            // Big values live on their own run of overflow pages; the leaf keeps a page number.
            long pages = (valueBytes + PAGE_HEADER + pageSize - 1) / pageSize;
            return pages * pageSize + (node + 8) * 3 / 2;
        }
        // Small values share leaf pages, which B-tree splits leave about two-thirds full.
        return (node + valueBytes) * 3 / 2;
    }

    /** Estimates the map bytes of an object's chunks ({@code checksummed}: each with its trailer). */
    static long chunksFootprint(long length, int chunkSize, int pageSize, boolean checksummed) {
        long full = length / chunkSize;
        long tail = length % chunkSize;
        long bytes = full * valueFootprint(CHUNK_KEY_BYTES, chunkValueBytes(chunkSize, checksummed), pageSize);
        return tail == 0 ? bytes : bytes + valueFootprint(CHUNK_KEY_BYTES, chunkValueBytes(tail, checksummed), pageSize);
    }
}
