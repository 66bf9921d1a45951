package org.edgelab.storage.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class MetadataCodecTest {

    @Provide
    Arbitrary<ObjectMetadata> metadata() {
        Arbitrary<HeaderField> header = Combinators.combine(
                Arbitraries.strings().ofMinLength(1).ofMaxLength(40),
                Arbitraries.strings().ofMaxLength(200)).as(HeaderField::new);
        return Combinators.combine(
                Arbitraries.integers().between(100, 999),
                header.list().ofMaxSize(20),
                Arbitraries.longs().between(-1, Long.MAX_VALUE),
                Arbitraries.longs(), Arbitraries.longs(), Arbitraries.longs())
                .as(ObjectMetadata::new);
    }

    @Property(tries = 200)
    void roundTrips(@ForAll("metadata") ObjectMetadata m) throws Exception {
        ByteBuffer encoded = MetadataCodec.encode(m);
        assertThat(encoded.remaining()).isEqualTo(MetadataCodec.encodedLength(m));
        ObjectMetadata decoded = MetadataCodec.decode(encoded);
        assertThat(encoded.hasRemaining()).as("decode consumes exactly the encoding").isFalse();
        // strings with unpaired surrogates cannot survive UTF-8; compare what UTF-8 keeps
        assertThat(decoded.status()).isEqualTo(m.status());
        assertThat(decoded.length()).isEqualTo(m.length());
        assertThat(decoded.requestTimeMillis()).isEqualTo(m.requestTimeMillis());
        assertThat(decoded.responseTimeMillis()).isEqualTo(m.responseTimeMillis());
        assertThat(decoded.expiresAtMillis()).isEqualTo(m.expiresAtMillis());
        assertThat(decoded.headers()).hasSameSizeAs(m.headers());
        assertThat(MetadataCodec.decode(MetadataCodec.encode(decoded))).isEqualTo(decoded);
    }

    @Test
    void roundTripsARealResponseExactly() throws Exception {
        ObjectMetadata m = new ObjectMetadata(206, List.of(new HeaderField("ETag", "\"abc\""),
                new HeaderField("Content-Type", "video/mp4; codecs=\"avc1\""), new HeaderField("X-Ü", "€")),
                ObjectMetadata.UNKNOWN_LENGTH, 1, 2, ObjectMetadata.NEVER);
        assertThat(MetadataCodec.decode(MetadataCodec.encode(m))).isEqualTo(m);
    }

    @Property(tries = 100)
    void everyTruncationIsCorrupt(@ForAll("metadata") ObjectMetadata m) {
        ByteBuffer full = MetadataCodec.encode(m);
        for (int cut = 0; cut < full.remaining(); cut++) {
            ByteBuffer truncated = full.duplicate().limit(cut);
            assertThatThrownBy(() -> MetadataCodec.decode(truncated)).isInstanceOf(CorruptObjectException.class);
        }
    }

    @Property(tries = 1000)
    void garbageIsCorruptOrDecodesButNeverThrowsAnythingElse(@ForAll @Size(max = 300) List<Byte> bytes) {
        ByteBuffer in = ByteBuffer.allocate(bytes.size());
        bytes.forEach(in::put);
        in.flip();
        try {
            MetadataCodec.decode(in);
        } catch (CorruptObjectException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Property(tries = 300)
    void flippedBytesAreCorruptOrDecodeButNeverThrowAnythingElse(@ForAll("metadata") ObjectMetadata m,
                                                                 @ForAll @Size(min = 1, max = 4) List<Integer> positions) {
        ByteBuffer b = MetadataCodec.encode(m);
        List<Integer> at = new ArrayList<>();
        for (int p : positions) {
            at.add(Math.floorMod(p, b.remaining()));
        }
        for (int p : at) {
            b.put(p, (byte) ~b.get(p));
        }
        try {
            MetadataCodec.decode(b);
        } catch (CorruptObjectException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Test
    void unknownVersionIsCorrupt() {
        ByteBuffer b = MetadataCodec.encode(new ObjectMetadata(200, List.of(), 5, 1, 2, 3));
        b.put(0, (byte) 9);
        assertThatThrownBy(() -> MetadataCodec.decode(b)).isInstanceOf(CorruptObjectException.class)
                .hasMessageContaining("version 9");
    }
}
