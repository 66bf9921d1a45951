package org.edgelab.origin.content;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.OptionalLong;

/**
 * Checks, chunk by chunk, that bytes received for a synthetic object are exactly what the origin
 * generates, starting at a given offset; remembers the first offset that differed.
 *
 * <p>Chunks may have any size and alignment; the verifier compares eight bytes at a time where it
 * can. Not thread-safe: one verifier per response body, fed in order.
 */
public final class ContentVerifier {

    private final long seed;
    private long position;
    private long firstMismatch = -1;

    /** A verifier for object {@code id} whose first checked byte is at {@code startOffset}. */
    public ContentVerifier(String id, long startOffset) {
        if (startOffset < 0) {
            throw new IllegalArgumentException("negative start offset " + startOffset);
        }
        this.seed = SyntheticContent.seed(id);
        this.position = startOffset;
    }

    /**
     * Checks the bytes from {@code chunk}'s position to its limit (without moving its position) as
     * the next bytes of the object; returns false once any byte, in this or an earlier chunk, differed.
     */
    public boolean update(ByteBuffer chunk) {
        int start = chunk.position();
        int end = chunk.limit();
        if (firstMismatch < 0) {
            check(chunk, start, end, position);
        }
        position += end - start;
        return firstMismatch < 0;
    }

    /**
     * Checks {@code chunk}'s readable bytes (readerIndex to writerIndex, without consuming them) as
     * the next bytes of the object; returns false once any byte, in this or an earlier chunk, differed.
     */
    public boolean update(ByteBuf chunk) {
        int length = chunk.readableBytes();
        if (firstMismatch < 0 && length > 0) {
            int count = chunk.nioBufferCount();
            if (count == 1) {
                ByteBuffer nio = chunk.nioBuffer(chunk.readerIndex(), length);
                check(nio, nio.position(), nio.limit(), position);
            } else if (count > 1) {
                long at = position;
                for (ByteBuffer nio : chunk.nioBuffers(chunk.readerIndex(), length)) {
                    check(nio, nio.position(), nio.limit(), at);
                    at += nio.remaining();
                    if (firstMismatch >= 0) {
                        break;
                    }
                }
            } else {
                checkByteByByte(chunk, length);
            }
        }
        position += length;
        return firstMismatch < 0;
    }

    private void checkByteByByte(ByteBuf chunk, int length) {
        int base = chunk.readerIndex();
        for (int i = 0; i < length; i++) {
            if (chunk.getByte(base + i) != SyntheticContent.byteAt(seed, position + i)) {
                firstMismatch = position + i;
                return;
            }
        }
    }

    /** Compares {@code buf[start, end)} with the object's bytes from offset {@code from}; sets {@link #firstMismatch}. */
    private void check(ByteBuffer buf, int start, int end, long from) {
        long at = from;
        int i = start;
        while (i < end && (at & 7) != 0) {
            if (buf.get(i) != SyntheticContent.byteAt(seed, at)) {
                firstMismatch = at;
                return;
            }
            i++;
            at++;
        }
        int wordsEnd = i + ((end - i) & ~7);
        if (i < wordsEnd) {
            ByteBuffer le = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            long index = at >>> 3;
            long z = SyntheticContent.wordState(seed, index);
            for (; i < wordsEnd; i += 8, index++, z += SyntheticContent.GOLDEN) {
                long expected = SyntheticContent.mix(z);
                long actual = le.getLong(i);
                if (actual != expected) {
                    int byteInWord = Long.numberOfTrailingZeros(actual ^ expected) >>> 3;
                    firstMismatch = (index << 3) + byteInWord;
                    return;
                }
            }
            at = index << 3;
        }
        for (; i < end; i++, at++) {
            if (buf.get(i) != SyntheticContent.byteAt(seed, at)) {
                firstMismatch = at;
                return;
            }
        }
    }

    /** The object offset the next byte fed to {@code update} is expected to have. */
    public long position() {
        return position;
    }

    /** The object offset of the first byte that differed, if any did. */
    public OptionalLong firstMismatch() {
        return firstMismatch < 0 ? OptionalLong.empty() : OptionalLong.of(firstMismatch);
    }

    /** True while every byte fed so far matched. */
    public boolean ok() {
        return firstMismatch < 0;
    }
}
