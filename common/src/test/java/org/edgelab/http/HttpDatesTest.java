package org.edgelab.http;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class HttpDatesTest {

    private static final long RFC_EXAMPLE = Instant.parse("1994-11-06T08:49:37Z").toEpochMilli();

    @ParameterizedTest
    @ValueSource(strings = {
            "Sun, 06 Nov 1994 08:49:37 GMT",   // IMF-fixdate
            "Sunday, 06-Nov-94 08:49:37 GMT",  // obsolete RFC 850 format
            "Sun Nov  6 08:49:37 1994"         // ANSI C's asctime() format
    })
    void parsesTheThreeFormatsOfRfc9110(String value) {
        assertThat(HttpDates.parseMillis(value)).hasValue(RFC_EXAMPLE);
        assertThat(HttpDates.parse(value)).contains(Instant.ofEpochMilli(RFC_EXAMPLE));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0", "-1", "garbage", "Mon, 32 Nov 1994 08:49:37 GMT", "tomorrow"})
    void invalidDatesAreEmpty(String value) {
        assertThat(HttpDates.parseMillis(value)).isEmpty();
        assertThat(HttpDates.parse(value)).isEmpty();
    }

    @Test
    void nullIsEmpty() {
        assertThat(HttpDates.parse(null)).isEmpty();
    }

    @Test
    void rfc850TwoDigitYearsPivotAtSeventy() {
        assertThat(HttpDates.parse("Wednesday, 06-Nov-69 08:49:37 GMT")).contains(Instant.parse("2069-11-06T08:49:37Z"));
        assertThat(HttpDates.parse("Thursday, 06-Nov-70 08:49:37 GMT")).contains(Instant.parse("1970-11-06T08:49:37Z"));
    }

    @Test
    void farFutureFourDigitYearsStayAsTheyAre() {
        assertThat(HttpDates.parse("Fri, 01 Jan 2100 00:00:00 GMT")).contains(Instant.parse("2100-01-01T00:00:00Z"));
    }

    @Test
    void formatsImfFixdateDroppingMilliseconds() {
        assertThat(HttpDates.format(RFC_EXAMPLE + 999)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
        assertThat(HttpDates.format(Instant.ofEpochMilli(RFC_EXAMPLE))).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
    }

    @Test
    void formatThenParseRoundTripsWholeSeconds() {
        long now = System.currentTimeMillis() / 1000 * 1000;
        assertThat(HttpDates.parseMillis(HttpDates.format(now))).hasValue(now);
    }
}
