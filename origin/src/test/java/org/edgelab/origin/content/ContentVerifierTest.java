package org.edgelab.origin.content;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ContentVerifierTest {

    private static final String ID = "verified";
    private static final long SEED = SyntheticContent.seed(ID);

    private static byte[] content(long offset, int length) {
        ByteBuffer buf = ByteBuffer.allocate(length);
        SyntheticContent.fill(SEED, offset, buf);
        return buf.array();
    }

    /** Feeds {@code bytes} in random-sized ByteBuffer chunks; returns the verifier. */
    private static ContentVerifier feedBuffers(byte[] bytes, long start, long randomSeed) {
        ContentVerifier verifier = new ContentVerifier(ID, start);
        Random random = new Random(randomSeed);
        int at = 0;
        while (at < bytes.length) {
            int n = Math.min(bytes.length - at, 1 + random.nextInt(100));
            ByteBuffer chunk = random.nextBoolean() ? ByteBuffer.allocateDirect(n) : ByteBuffer.allocate(n);
            chunk.put(bytes, at, n).flip();
            verifier.update(chunk);
            assertThat(chunk.position()).as("update does not consume").isZero();
            at += n;
        }
        return verifier;
    }

    @Test
    void acceptsTheRightBytesInAnyChunking() {
        byte[] bytes = content(13, 5000);
        for (long r = 0; r < 5; r++) {
            ContentVerifier verifier = feedBuffers(bytes, 13, r);
            assertThat(verifier.ok()).isTrue();
            assertThat(verifier.firstMismatch()).isEmpty();
            assertThat(verifier.position()).isEqualTo(13 + 5000);
        }
    }

    @Test
    void reportsAFlippedByteAtItsOffsetWhereverItFalls() {
        int length = 3000;
        long start = 5;
        for (int flip : new int[] {0, 1, 7, 8, 9, 63, 64, 1234, length - 1}) {
            byte[] bytes = content(start, length);
            bytes[flip] ^= 0x10;
            for (long r = 0; r < 3; r++) {
                ContentVerifier verifier = feedBuffers(bytes, start, r);
                assertThat(verifier.ok()).isFalse();
                assertThat(verifier.firstMismatch()).hasValue(start + flip);
                assertThat(verifier.position()).isEqualTo(start + length);
            }
        }
    }

    @Test
    void reportsOnlyTheFirstMismatchAndStaysFailed() {
        byte[] bytes = content(0, 100);
        bytes[10] ^= 1;
        bytes[50] ^= 1;
        ContentVerifier verifier = new ContentVerifier(ID, 0);
        assertThat(verifier.update(ByteBuffer.wrap(bytes, 0, 40))).isFalse();
        assertThat(verifier.update(ByteBuffer.wrap(content(40, 10)))).isFalse();
        assertThat(verifier.firstMismatch()).hasValue(10);
    }

    @Test
    void checksByteBufsWithoutConsumingThemIncludingComposites() {
        long start = 70_000;
        int length = 200_000; // spans several 64 KiB generation chunks
        int flip = 131_075;
        ByteBuf pooled = PooledByteBufAllocator.DEFAULT.directBuffer(length);
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        try {
            SyntheticContent.fill(SEED, start, pooled, length);
            ContentVerifier good = new ContentVerifier(ID, start);
            assertThat(good.update(pooled)).isTrue();
            assertThat(pooled.readerIndex()).isZero();
            assertThat(pooled.readableBytes()).isEqualTo(length);

            pooled.setByte(flip, pooled.getByte(flip) ^ 0x80);
            composite.addComponent(true, pooled.retainedSlice(0, 100_003));
            composite.addComponent(true, pooled.retainedSlice(100_003, length - 100_003));
            composite.readerIndex(0);
            ContentVerifier bad = new ContentVerifier(ID, start);
            assertThat(bad.update(composite)).isFalse();
            assertThat(bad.firstMismatch()).hasValue(start + flip);
            assertThat(composite.readerIndex()).isZero();
        } finally {
            pooled.release();
            composite.release();
        }
    }

    @Test
    void byteBufReadsFromItsReaderIndex() {
        ByteBuf buf = Unpooled.buffer();
        try {
            buf.writeBytes(new byte[] {9, 9, 9});
            SyntheticContent.fill(SEED, 0, buf, 50);
            buf.skipBytes(3);
            ContentVerifier verifier = new ContentVerifier(ID, 0);
            assertThat(verifier.update(buf)).isTrue();
            assertThat(verifier.position()).isEqualTo(50);
        } finally {
            buf.release();
        }
    }

    @Test
    void aWrongStartOffsetFails() {
        ContentVerifier verifier = new ContentVerifier(ID, 1);
        assertThat(verifier.update(ByteBuffer.wrap(content(0, 64)))).isFalse();
        assertThat(verifier.firstMismatch()).isPresent();
    }

    @Test
    void anotherObjectsBytesFail() {
        ContentVerifier verifier = new ContentVerifier("other", 0);
        assertThat(verifier.update(ByteBuffer.wrap(content(0, 64)))).isFalse();
    }
}
