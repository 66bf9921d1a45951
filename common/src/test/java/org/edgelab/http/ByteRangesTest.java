package org.edgelab.http;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.edgelab.http.ByteRanges.ByteRange;
import org.edgelab.http.ByteRanges.None;
import org.edgelab.http.ByteRanges.RangeRequest;
import org.edgelab.http.ByteRanges.Satisfiable;
import org.edgelab.http.ByteRanges.Unsatisfiable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ByteRangesTest {

    private static final int MAX = 16;

    private static List<ByteRange> ranges(String header, long length) {
        RangeRequest r = ByteRanges.parse(header, length, MAX);
        assertThat(r).as(header).isInstanceOf(Satisfiable.class);
        return ((Satisfiable) r).ranges();
    }

    private static ByteRange r(long first, long last) {
        return new ByteRange(first, last);
    }

    @Test
    void examplesOfRfc9110() {
        // RFC 9110 §14.1.2, a representation of 10000 bytes
        assertThat(ranges("bytes=0-499", 10000)).containsExactly(r(0, 499));
        assertThat(ranges("bytes=500-999", 10000)).containsExactly(r(500, 999));
        assertThat(ranges("bytes=-500", 10000)).containsExactly(r(9500, 9999));
        assertThat(ranges("bytes=9500-", 10000)).containsExactly(r(9500, 9999));
        assertThat(ranges("bytes=0-0,-1", 10000)).containsExactly(r(0, 0), r(9999, 9999));
        assertThat(ranges("bytes=500-600,601-999", 10000)).containsExactly(r(500, 999));
        assertThat(ranges("bytes=500-700,601-999", 10000)).containsExactly(r(500, 999));
    }

    @Test
    void lastBeyondTheEndIsClipped() {
        assertThat(ranges("bytes=0-999999", 100)).containsExactly(r(0, 99));
        assertThat(ranges("bytes=90-99999999999999999999999", 100)).containsExactly(r(90, 99));
    }

    @Test
    void suffixLongerThanTheRepresentationIsAllOfIt() {
        assertThat(ranges("bytes=-1000", 100)).containsExactly(r(0, 99));
    }

    @Test
    void singleByteRepresentationCoalescesFirstAndLastByte() {
        assertThat(ranges("bytes=0-0,-1", 1)).containsExactly(r(0, 0));
    }

    @Test
    void nonOverlappingRangesKeepTheRequestedOrder() {
        assertThat(ranges("bytes=50-59, 0-9", 100)).containsExactly(r(50, 59), r(0, 9));
        assertThat(((Satisfiable) ByteRanges.parse("bytes=50-59, 0-9", 100, MAX)).multipart()).isTrue();
    }

    @Test
    void overlappingRangesAreSortedAndCoalesced() {
        assertThat(ranges("bytes=50-59,0-9,5-20,21-30", 100)).containsExactly(r(0, 30), r(50, 59));
        assertThat(ranges("bytes=0-,0-,0-,0-", 100)).containsExactly(r(0, 99));
    }

    @Test
    void toleratesCaseSpacesAndEmptyElements() {
        assertThat(ranges("Bytes = 0-1 , , 5 - 6,", 100)).containsExactly(r(0, 1), r(5, 6));
    }

    @Test
    void unsatisfiableRangesAnswer416WithTheLength() {
        RangeRequest r = ByteRanges.parse("bytes=100-", 100, MAX);
        assertThat(r).isEqualTo(new Unsatisfiable(100));
        assertThat(((Unsatisfiable) r).contentRange()).isEqualTo("bytes */100");
        assertThat(ByteRanges.parse("bytes=100-200,300-400", 100, MAX)).isInstanceOf(Unsatisfiable.class);
        assertThat(ByteRanges.parse("bytes=-0", 100, MAX)).isInstanceOf(Unsatisfiable.class);
        assertThat(ByteRanges.parse("bytes=0-", 0, MAX)).isEqualTo(new Unsatisfiable(0));
    }

    @Test
    void unsatisfiableMembersAreDroppedWhenOthersAreSatisfiable() {
        assertThat(ranges("bytes=200-300,0-9", 100)).containsExactly(r(0, 9));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "bytes", "bytes=", "bytes=,", "bytes=5-2", "bytes=abc", "bytes=1", "bytes=--1",
            "bytes=-", "bytes=1-2-3", "bytes=-1-2", "bytes=0x1-2", "bytes=+1-2", "bytes=0-1,5-2", "items=0-1",
            "bytes 0-1", "bytes=0 1-2"})
    void invalidOrForeignRangesAreIgnored(String header) {
        assertThat(ByteRanges.parse(header, 100, MAX)).as(header).isInstanceOf(None.class);
    }

    @Test
    void absentRangeIsNone() {
        assertThat(ByteRanges.parse(null, 100, MAX)).isInstanceOf(None.class);
    }

    @Test
    void suffixOfAnEmptyRepresentationServesItWhole() {
        assertThat(ByteRanges.parse("bytes=-5", 0, MAX)).isInstanceOf(None.class);
    }

    @Test
    void moreRangesThanTheCapAreIgnored() {
        StringBuilder many = new StringBuilder("bytes=");
        for (int i = 0; i < 17; i++) {
            many.append(i == 0 ? "" : ",").append(i * 2).append('-').append(i * 2);
        }
        assertThat(ByteRanges.parse(many.toString(), 1000, 16)).isInstanceOf(None.class);
        assertThat(ByteRanges.parse(many.toString(), 1000, 17)).isInstanceOf(Satisfiable.class);
        assertThat(ByteRanges.parse("bytes=0-0,0-0", 1000, 1)).isInstanceOf(None.class);
    }

    @Test
    void tooManyEmptyElementsAreIgnored() {
        assertThat(ByteRanges.parse("bytes=0-1" + ",".repeat(100), 1000, 16)).isInstanceOf(None.class);
    }

    @Test
    void byteRangeArithmetic() {
        assertThat(r(0, 0).length()).isEqualTo(1);
        assertThat(r(500, 999).length()).isEqualTo(500);
        assertThat(r(0, 499).contentRange(1234)).isEqualTo("bytes 0-499/1234");
        assertThatIllegalArgumentException().isThrownBy(() -> r(5, 2));
        assertThatIllegalArgumentException().isThrownBy(() -> r(-1, 2));
        assertThatIllegalArgumentException().isThrownBy(() -> ByteRanges.parse("bytes=0-1", -1, MAX));
    }

    @Provide
    Arbitrary<String> rangeSpecs() {
        Arbitrary<String> intRange = Arbitraries.longs().between(0, 300).flatMap(first ->
                Arbitraries.longs().between(first, 400).map(last -> first + "-" + last));
        Arbitrary<String> open = Arbitraries.longs().between(0, 300).map(first -> first + "-");
        Arbitrary<String> suffix = Arbitraries.longs().between(0, 300).map(n -> "-" + n);
        return Arbitraries.oneOf(intRange, open, suffix).list().ofMinSize(1).ofMaxSize(8)
                .map(specs -> "bytes=" + String.join(",", specs));
    }

    /** Every byte the request asks for (within the length) is covered, nothing else is, and no byte is sent twice. */
    @Property(tries = 500)
    void satisfiableRangesCoverExactlyTheRequestedBytesOnce(@ForAll("rangeSpecs") String header,
                                                           @ForAll @LongRange(min = 0, max = 350) long length) {
        BitSet wanted = new BitSet();
        for (String spec : header.substring("bytes=".length()).split(",")) {
            int dash = spec.indexOf('-');
            if (dash == 0) {
                long n = Long.parseLong(spec.substring(1));
                wanted.set((int) Math.max(0, length - n), (int) length);
            } else {
                long first = Long.parseLong(spec.substring(0, dash));
                long last = dash == spec.length() - 1 ? length - 1 : Math.min(length - 1, Long.parseLong(spec.substring(dash + 1)));
                if (first <= last) {
                    wanted.set((int) first, (int) last + 1);
                }
            }
        }
        RangeRequest result = ByteRanges.parse(header, length, MAX);
        if (wanted.isEmpty()) {
            assertThat(result).isInstanceOfAny(Unsatisfiable.class, None.class);
            if (length > 0) {
                assertThat(result).isEqualTo(new Unsatisfiable(length));
            }
            return;
        }
        assertThat(result).isInstanceOf(Satisfiable.class);
        BitSet sent = new BitSet();
        long total = 0;
        for (ByteRange range : ((Satisfiable) result).ranges()) {
            assertThat(range.last()).isLessThan(length);
            sent.set((int) range.first(), (int) range.last() + 1);
            total += range.length();
        }
        assertThat(sent).isEqualTo(wanted);
        assertThat(total).as("no byte twice").isEqualTo(sent.cardinality());
    }

    // The origin's copy (origin's server/ByteRanges, which this class replaced) was tested with the
    // cases below, with a cap of 64 ranges. Where the copies differed this class follows RFC 9110,
    // and the cases say so.

    private static final int ORIGIN_MAX = 64;

    private static List<ByteRange> originRanges(String header, long length) {
        RangeRequest r = ByteRanges.parse(header, length, ORIGIN_MAX);
        assertThat(r).as(header).isInstanceOf(Satisfiable.class);
        return ((Satisfiable) r).ranges();
    }

    @Test
    void everyRangeFormOfTheOrigin() {
        assertThat(originRanges("bytes=0-0", 10)).containsExactly(r(0, 0));
        assertThat(originRanges("bytes=3-", 10)).containsExactly(r(3, 9));
        assertThat(originRanges("bytes=-4", 10)).containsExactly(r(6, 9));
        assertThat(originRanges("bytes=-40", 10)).containsExactly(r(0, 9));
        assertThat(originRanges("bytes=5-100", 10)).containsExactly(r(5, 9));
        assertThat(originRanges("Bytes = 1-2 , 4-5,", 10)).containsExactly(r(1, 2), r(4, 5));
        assertThat(originRanges("bytes=20-30, 0-1", 10)).containsExactly(r(0, 1));
    }

    @Test
    void theOriginsUnsatisfiableAndMalformedCases() {
        for (String header : new String[] {"bytes=10-", "bytes=-0"}) {
            assertThat(ByteRanges.parse(header, 10, ORIGIN_MAX)).as(header).isEqualTo(new Unsatisfiable(10));
        }
        assertThat(ByteRanges.parse("bytes=0-", 0, ORIGIN_MAX)).isEqualTo(new Unsatisfiable(0));
        for (String header : new String[] {"bytes=5-1", "bytes=x-1", "bytes=1", "bytes=", "pages=1-2", "bytes=1-2-3",
                "bytes=--1", null}) {
            assertThat(ByteRanges.parse(header, 10, ORIGIN_MAX)).as(String.valueOf(header)).isInstanceOf(None.class);
        }
        assertThat(ByteRanges.parse("bytes=" + "0-0,".repeat(ORIGIN_MAX + 1), 10, ORIGIN_MAX)).isInstanceOf(None.class);
    }

    /** The origin answered 416; RFC 9110 §14.1.2 makes a non-zero suffix the one satisfiable range of an empty representation. */
    @Test
    void aSuffixOfAnEmptyRepresentationIsNo416() {
        assertThat(ByteRanges.parse("bytes=-5", 0, ORIGIN_MAX)).isInstanceOf(None.class);
    }

    /** The origin ignored it as malformed; RFC 9110 §14.1.2: first-pos is 1*DIGIT, so it is valid, and beyond the end. */
    @Test
    void aFirstPositionBeyondEveryLongIsUnsatisfiableNotMalformed() {
        assertThat(ByteRanges.parse("bytes=99999999999999999999-", 10, ORIGIN_MAX)).isEqualTo(new Unsatisfiable(10));
    }

    /** The origin sent overlapping ranges as they came, each byte of the overlap twice; RFC 9110 §14.2 and §17.15 let a server coalesce them. */
    @Test
    void overlappingRangesTheOriginSentTwiceAreCoalesced() {
        assertThat(originRanges("bytes=0-9, 50000-50099, -7, 99990-", 100_000))
                .containsExactly(r(0, 9), r(50000, 50099), r(99990, 99999));
    }
}
