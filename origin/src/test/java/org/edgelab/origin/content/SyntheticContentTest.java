package org.edgelab.origin.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SyntheticContentTest {

    private static byte[] byByteAt(long seed, long offset, int length) {
        byte[] expected = new byte[length];
        for (int i = 0; i < length; i++) {
            expected[i] = SyntheticContent.byteAt(seed, offset + i);
        }
        return expected;
    }

    @Test
    void seedIsAPureFunctionOfTheIdAndSeparatesIds() {
        assertThat(SyntheticContent.seed("object-1")).isEqualTo(SyntheticContent.seed("object-1"));
        assertThat(SyntheticContent.seed("object-1")).isNotEqualTo(SyntheticContent.seed("object-2"));
        assertThat(SyntheticContent.seed("a")).isNotEqualTo(SyntheticContent.seed("b"));
    }

    @Test
    void byteAtIsLittleEndianWithinEachWord() {
        long seed = SyntheticContent.seed("words");
        long word = SyntheticContent.word(seed, 3);
        for (int i = 0; i < 8; i++) {
            assertThat(SyntheticContent.byteAt(seed, 24 + i)).isEqualTo((byte) (word >>> (8 * i)));
        }
    }

    @Test
    void fillByteBufferMatchesByteAtAtEveryAlignment() {
        long seed = SyntheticContent.seed("aligned");
        for (boolean direct : new boolean[] {false, true}) {
            for (long offset = 0; offset < 20; offset++) {
                for (int length : new int[] {0, 1, 7, 8, 9, 15, 16, 17, 100, 1000}) {
                    ByteBuffer dst = direct ? ByteBuffer.allocateDirect(length + 6) : ByteBuffer.allocate(length + 6);
                    dst.order(ByteOrder.BIG_ENDIAN).position(3).limit(3 + length);
                    SyntheticContent.fill(seed, offset, dst);
                    assertThat(dst.position()).isEqualTo(3 + length);
                    assertThat(dst.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
                    byte[] actual = new byte[length];
                    dst.position(3);
                    dst.get(actual);
                    assertThat(actual).as("offset %d length %d direct %s", offset, length, direct)
                            .isEqualTo(byByteAt(seed, offset, length));
                    dst.clear();
                    assertThat(dst.get(2)).as("byte before the range untouched").isZero();
                    assertThat(dst.get(3 + length)).as("byte after the range untouched").isZero();
                }
            }
        }
    }

    @Test
    void fillByteBufAppendsAtTheWriterIndexForPooledHeapAndCompositeBuffers() {
        long seed = SyntheticContent.seed("appended");
        long offset = 1_000_000_000_003L; // far into a terabyte-sized object
        int length = 70_001;
        byte[] expected = byByteAt(seed, offset, length);

        ByteBuf pooled = PooledByteBufAllocator.DEFAULT.directBuffer(16);
        ByteBuf heap = Unpooled.buffer(4);
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        composite.addComponent(true, Unpooled.buffer(length / 2).writeZero(0));
        try {
            for (ByteBuf buf : new ByteBuf[] {pooled, heap, composite}) {
                buf.writeByte(42);
                SyntheticContent.fill(seed, offset, buf, length);
                assertThat(buf.readableBytes()).isEqualTo(1 + length);
                assertThat(buf.readByte()).isEqualTo((byte) 42);
                byte[] actual = new byte[length];
                buf.readBytes(actual);
                assertThat(actual).isEqualTo(expected);
            }
        } finally {
            pooled.release();
            heap.release();
            composite.release();
        }
    }

    @Test
    void fillIsTheSameWhateverTheChunking() {
        long seed = SyntheticContent.seed("chunks");
        ByteBuffer whole = ByteBuffer.allocate(10_000);
        SyntheticContent.fill(seed, 5, whole);
        ByteBuffer pieces = ByteBuffer.allocate(10_000);
        Random random = new Random(7);
        long offset = 5;
        while (pieces.hasRemaining()) {
            int n = Math.min(pieces.remaining(), 1 + random.nextInt(300));
            ByteBuffer slice = pieces.slice();
            slice.limit(n);
            SyntheticContent.fill(seed, offset, slice);
            pieces.position(pieces.position() + n);
            offset += n;
        }
        assertThat(pieces.flip()).isEqualTo(whole.flip());
    }

    @Test
    void bytesLookRandom() {
        long seed = SyntheticContent.seed("entropy");
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        SyntheticContent.fill(seed, 0, buf);
        int[] counts = new int[256];
        for (int i = 0; i < buf.capacity(); i++) {
            counts[buf.get(i) & 0xff]++;
        }
        // 256 expected per value; a constant or short-period pattern would fail this badly.
        assertThat(java.util.Arrays.stream(counts).boxed()).allSatisfy(c -> assertThat(c).isBetween(150, 370));
    }

    @Test
    void negativeOffsetIsRejected() {
        assertThatThrownBy(() -> SyntheticContent.fill(1, -1, ByteBuffer.allocate(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative offset");
    }
}
