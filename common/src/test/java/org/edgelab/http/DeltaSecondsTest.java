package org.edgelab.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Delta-seconds and the Age field, from the wording of RFC 9111 §1.2.2 and §5.1. */
class DeltaSecondsTest {

    /**
     * RFC 9111 §5.1: "Age = delta-seconds. The Age field value is a non-negative integer,
     * representing time in seconds".
     */
    @Test
    void anAgeIsANonNegativeIntegerOfSeconds() {
        assertThat(DeltaSeconds.age(List.of("0"))).hasValue(0);
        assertThat(DeltaSeconds.age(List.of("3600"))).hasValue(3600);
        assertThat(DeltaSeconds.age(List.of(" 42 "))).hasValue(42);
        assertThat(DeltaSeconds.age(List.of())).isEmpty();
    }

    /**
     * RFC 9111 §5.1: "Although it is defined as a singleton header field, a cache encountering a
     * message with a list-based Age field value SHOULD use the first member of the field value,
     * discarding subsequent ones."
     */
    @Test
    void aListBasedAgeUsesItsFirstMember() {
        assertThat(DeltaSeconds.age(List.of("100, 5"))).hasValue(100);
        assertThat(DeltaSeconds.age(List.of("7,8,9"))).hasValue(7);
        assertThat(DeltaSeconds.age(List.of("5", "900"))).as("two field lines form one list").hasValue(5);
    }

    /**
     * RFC 9111 §5.1: "If the field value (after discarding additional members, as per above) is
     * invalid (e.g., it contains something other than a non-negative integer), a cache SHOULD
     * ignore the field."
     */
    @Test
    void anInvalidAgeIsIgnored() {
        for (String invalid : List.of("-5", "abc", "1.5", "+5", "1e3", "0x10", "", " ", "5 s", "\"5\"")) {
            assertThat(DeltaSeconds.age(List.of(invalid))).as("Age: %s", invalid).isEmpty();
        }
        assertThat(DeltaSeconds.age(List.of("abc, 5"))).as("an invalid first member, even before a valid one")
                .isEmpty();
        assertThat(DeltaSeconds.age(List.of("-1", "5"))).isEmpty();
    }

    /**
     * RFC 9111 §1.2.2: "If a cache receives a delta-seconds value greater than the greatest integer
     * it can represent, or if any of its subsequent calculations overflows, the cache MUST consider
     * the value to be 2147483648 (2^31) or the greatest positive integer it can conveniently
     * represent."
     */
    @Test
    void aValueTooLargeToRepresentIsTwoToTheThirtyFirst() {
        assertThat(DeltaSeconds.parse("99999999999999999999999999")).isEqualTo(OptionalLong.of(DeltaSeconds.MAX));
        assertThat(DeltaSeconds.parse("2147483648")).hasValue(2_147_483_648L);
        assertThat(DeltaSeconds.parse("2147483649")).hasValue(DeltaSeconds.MAX);
    }
}
