package org.edgelab.storage.contract;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Deterministic test bodies: the byte at (seed, offset) is a pure function, so a test can write
 * and verify objects of any size without keeping them on the heap. The seed usually comes from
 * the object's key ({@link #seed(String)}); a different seed gives different bytes (versions).
 * Stateless and thread-safe.
 */
public final class TestContent {

    private TestContent() {
    }

    /** Returns the seed for {@code key} (FNV-1a of its UTF-8 bytes, mixed). */
    public static long seed(String key) {
        long h = 0xcbf29ce484222325L;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
        return mix(h);
    }

    /** Returns the seed for version {@code version} of {@code key}. */
    public static long seed(String key, long version) {
        return mix(seed(key) ^ (version * 0x9E3779B97F4A7C15L));
    }

    /** Returns the byte at {@code offset} of the content with {@code seed}. */
    public static byte byteAt(long seed, long offset) {
        return (byte) (word(seed, offset >>> 3) >>> ((offset & 7) * 8));
    }

    /** Fills the remaining bytes of {@code dst} with the content from {@code offset}, advancing its position. */
    public static void fill(long seed, long offset, ByteBuffer dst) {
        long pos = offset;
        while (dst.hasRemaining() && (pos & 7) != 0) {
            dst.put(byteAt(seed, pos++));
        }
        ByteBuffer le = dst.duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int words = dst.remaining() >>> 3;
        int start = dst.position();
        for (int i = 0; i < words; i++) {
            le.putLong(start + i * 8, word(seed, (pos >>> 3) + i));
        }
        dst.position(start + words * 8);
        pos += words * 8L;
        while (dst.hasRemaining()) {
            dst.put(byteAt(seed, pos++));
        }
    }

    /** Returns a new heap buffer of {@code length} bytes of the content from {@code offset}, flipped for reading. */
    public static ByteBuffer chunk(long seed, long offset, int length) {
        ByteBuffer b = ByteBuffer.allocate(length);
        fill(seed, offset, b);
        return b.flip();
    }

    /**
     * Returns the index (relative to {@code data.position()}) of the first byte of {@code data}'s
     * remaining bytes that differs from the content at {@code offset}, or -1 if all match.
     * Does not move {@code data}'s position.
     */
    public static int firstMismatch(long seed, long offset, ByteBuffer data) {
        int base = data.position();
        int n = data.remaining();
        ByteBuffer expected = ByteBuffer.allocate(Math.min(n, 64 * 1024));
        for (int done = 0; done < n; ) {
            int len = Math.min(expected.capacity(), n - done);
            expected.clear().limit(len);
            fill(seed, offset + done, expected);
            expected.flip();
            int m = data.slice(base + done, len).mismatch(expected);
            if (m >= 0) {
                return done + m;
            }
            done += len;
        }
        return -1;
    }

    /** Fails with an AssertionError naming {@code what} and the absolute offset unless {@code data} matches. */
    public static void assertMatches(String what, long seed, long offset, ByteBuffer data) {
        int bad = firstMismatch(seed, offset, data);
        if (bad >= 0) {
            long at = offset + bad;
            throw new AssertionError(what + ": byte at offset " + at + " is "
                    + data.get(data.position() + bad) + ", expected " + byteAt(seed, at));
        }
    }

    private static long word(long seed, long index) {
        return mix(seed + index * 0x9E3779B97F4A7C15L);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
