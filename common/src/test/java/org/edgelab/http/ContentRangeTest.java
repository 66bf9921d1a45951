package org.edgelab.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ContentRangeTest {

    @Test
    void parsesARangeOfAKnownOrUnknownLength() {
        assertThat(ContentRange.parse("bytes 0-499/1234")).contains(new ContentRange(0, 499, 1234));
        assertThat(ContentRange.parse("bytes 500-999/*")).contains(new ContentRange(500, 999, -1));
        assertThat(ContentRange.parse("Bytes 7-7/8 ")).as("the unit is case-insensitive").contains(new ContentRange(7, 7, 8));
        assertThat(new ContentRange(500, 999, -1).length()).isEqualTo(500);
    }

    @Test
    void readsWhatByteRangesWrites() {
        assertThat(ContentRange.parse(new ByteRanges.ByteRange(5, 9).contentRange(10))).contains(new ContentRange(5, 9, 10));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "bytes", "bytes */100", "bytes 5-2/10", "bytes 1-2", "bytes a-2/10", "items 0-1/2",
            "bytes 0-1/x", "bytes -1-2/10"})
    void malformedOrUnsatisfiedValuesAreEmpty(String value) {
        assertThat(ContentRange.parse(value)).as(value).isEmpty();
        assertThat(ContentRange.parse(null)).isEmpty();
    }

    @Test
    void lastBeforeFirstIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> new ContentRange(5, 2, 10));
    }
}
