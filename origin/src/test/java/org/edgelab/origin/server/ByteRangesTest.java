package org.edgelab.origin.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.edgelab.origin.server.ByteRanges.ByteRange;
import org.edgelab.origin.server.ByteRanges.Outcome.Kind;
import org.junit.jupiter.api.Test;

class ByteRangesTest {

    @Test
    void parsesEveryRangeForm() {
        assertThat(ByteRanges.parse("bytes=0-0", 10).ranges()).containsExactly(new ByteRange(0, 0));
        assertThat(ByteRanges.parse("bytes=3-", 10).ranges()).containsExactly(new ByteRange(3, 9));
        assertThat(ByteRanges.parse("bytes=-4", 10).ranges()).containsExactly(new ByteRange(6, 9));
        assertThat(ByteRanges.parse("bytes=-40", 10).ranges()).containsExactly(new ByteRange(0, 9));
        assertThat(ByteRanges.parse("bytes=5-100", 10).ranges()).containsExactly(new ByteRange(5, 9));
        assertThat(ByteRanges.parse("Bytes = 1-2 , 4-5,", 10).ranges()).containsExactly(new ByteRange(1, 2), new ByteRange(4, 5));
    }

    @Test
    void dropsUnsatisfiableMembersAndAnswers416WhenNoneIsLeft() {
        assertThat(ByteRanges.parse("bytes=20-30, 0-1", 10).ranges()).containsExactly(new ByteRange(0, 1));
        assertThat(ByteRanges.parse("bytes=10-", 10).kind()).isEqualTo(Kind.UNSATISFIABLE);
        assertThat(ByteRanges.parse("bytes=-0", 10).kind()).isEqualTo(Kind.UNSATISFIABLE);
        assertThat(ByteRanges.parse("bytes=0-", 0).kind()).isEqualTo(Kind.UNSATISFIABLE);
        assertThat(ByteRanges.parse("bytes=-5", 0).kind()).isEqualTo(Kind.UNSATISFIABLE);
    }

    @Test
    void ignoresMalformedHeaders() {
        for (String header : new String[] {"bytes=5-1", "bytes=x-1", "bytes=1", "bytes=", "pages=1-2", "bytes=1-2-3",
                "bytes=99999999999999999999-", "bytes=--1", null}) {
            assertThat(ByteRanges.parse(header, 10).kind()).as(String.valueOf(header)).isEqualTo(Kind.IGNORE);
        }
        assertThat(ByteRanges.parse("bytes=" + "0-0,".repeat(ByteRanges.MAX_RANGES + 1), 10).kind()).isEqualTo(Kind.IGNORE);
    }

    @Test
    void contentRangeIsInclusive() {
        assertThat(new ByteRange(5, 9).contentRange(10)).isEqualTo("bytes 5-9/10");
        assertThat(new ByteRange(5, 9).length()).isEqualTo(5);
    }
}
