package org.edgelab.origin.content;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of synthetic objects: the byte at (id, offset) is a pure function of the two, so any
 * client can check every byte it receives without the origin storing anything.
 *
 * <p>Object {@code id} is reduced to a 64-bit {@link #seed(String) seed}; the object is a sequence
 * of 64-bit little-endian words, word {@code i} being the splitmix64 finaliser of
 * {@code seed + (i + 1) * golden}. Bytes are generated eight at a time. Stateless and thread-safe.
 */
public final class SyntheticContent {

    /** The splitmix64 increment: word {@code i + 1}'s state is word {@code i}'s plus this. */
    static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private SyntheticContent() {
    }

    /** The seed of object {@code id}: a 64-bit hash of its UTF-8 bytes (FNV-1a, then mixed). */
    public static long seed(String id) {
        long h = 0xcbf29ce484222325L;
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return mix(h);
    }

    /** The 64-bit word covering bytes {@code 8*index .. 8*index+7} (little-endian) of the object with {@code seed}. */
    public static long word(long seed, long index) {
        return mix(wordState(seed, index));
    }

    /** The unmixed state of word {@code index}; consecutive words' states differ by {@link #GOLDEN}. */
    static long wordState(long seed, long index) {
        return seed + (index + 1) * GOLDEN;
    }

    /** The byte at {@code offset} of the object with {@code seed}. */
    public static byte byteAt(long seed, long offset) {
        return (byte) (word(seed, offset >>> 3) >>> ((offset & 7) << 3));
    }

    /** Fills {@code dst} from its position to its limit with the bytes starting at {@code offset}; advances its position to its limit. */
    public static void fill(long seed, long offset, ByteBuffer dst) {
        checkOffset(offset);
        int pos = dst.position();
        int end = dst.limit();
        long at = offset;
        // Unaligned head: byte by byte up to the next word boundary.
        while (pos < end && (at & 7) != 0) {
            dst.put(pos++, byteAt(seed, at++));
        }
        int wordsEnd = pos + ((end - pos) & ~7);
        if (pos < wordsEnd) {
            ByteOrder order = dst.order();
            dst.order(ByteOrder.LITTLE_ENDIAN);
            long z = wordState(seed, at >>> 3);
            at += wordsEnd - pos;
            while (pos < wordsEnd) {
                dst.putLong(pos, mix(z));
                z += GOLDEN;
                pos += 8;
            }
            dst.order(order);
        }
        // Tail: fewer than eight bytes.
        while (pos < end) {
            dst.put(pos++, byteAt(seed, at++));
        }
        dst.position(end);
    }

    /** Appends {@code length} bytes of the object with {@code seed}, starting at {@code offset}, to {@code dst}, growing it if needed. */
    public static void fill(long seed, long offset, ByteBuf dst, int length) {
        checkOffset(offset);
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        dst.ensureWritable(length);
        int writerIndex = dst.writerIndex();
        if (dst.nioBufferCount() == 1) {
            fill(seed, offset, dst.internalNioBuffer(writerIndex, length));
        } else {
            int i = 0;
            while (i < length && ((offset + i) & 7) != 0) {
                dst.setByte(writerIndex + i, byteAt(seed, offset + i));
                i++;
            }
            long z = wordState(seed, (offset + i) >>> 3);
            for (; i + 8 <= length; i += 8) {
                dst.setLongLE(writerIndex + i, mix(z));
                z += GOLDEN;
            }
            for (; i < length; i++) {
                dst.setByte(writerIndex + i, byteAt(seed, offset + i));
            }
        }
        dst.writerIndex(writerIndex + length);
    }

    private static void checkOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
    }

    /** The splitmix64 finaliser (Stafford variant 13): a bijective, well-mixing 64-bit function. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
