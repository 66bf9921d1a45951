package org.edgelab.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import org.edgelab.http.Conditionals.Outcome;
import org.edgelab.http.Conditionals.Validators;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class ConditionalsTest {

    private static final long T = 1_700_000_000_000L;
    private static final long S = 1000;
    private static final String LAST_MODIFIED = HttpDates.format(T - 3600 * S);

    /** The validators of a representation with these fields, as an origin server sees them (If-Modified-Since compares with Last-Modified). */
    private static Validators stored(String... nameValues) {
        String etag = null;
        OptionalLong lastModified = OptionalLong.empty();
        OptionalLong date = OptionalLong.empty();
        for (int i = 0; i < nameValues.length; i += 2) {
            switch (nameValues[i]) {
                case "ETag" -> etag = nameValues[i + 1];
                case "Last-Modified" -> lastModified = HttpDates.parseMillis(nameValues[i + 1]);
                case "Date" -> date = HttpDates.parseMillis(nameValues[i + 1]);
                default -> throw new IllegalArgumentException(nameValues[i]);
            }
        }
        return new Validators(etag, lastModified, date, lastModified);
    }

    private static final Validators STRONG = stored("ETag", "\"b\"", "Last-Modified", LAST_MODIFIED,
            "Date", HttpDates.format(T));
    private static final Validators WEAK = stored("ETag", "W/\"b\"", "Last-Modified", LAST_MODIFIED,
            "Date", HttpDates.format(T));

    private static HttpHeaders request(String... nameValues) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        return h;
    }

    @Test
    void noPreconditionsServe() {
        assertThat(Conditionals.evaluate(request(), STRONG)).isEqualTo(Outcome.SERVE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"b\"", "W/\"b\"", "W/\"a\", \"b\"", "\"a\",\"b\"", "\"x\" ,  W/\"b\"", "*", "\"a\", *"})
    void ifNoneMatchUsesWeakComparison(String ifNoneMatch) {
        assertThat(Conditionals.evaluate(request("If-None-Match", ifNoneMatch), STRONG)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-None-Match", ifNoneMatch), WEAK)).isEqualTo(Outcome.NOT_MODIFIED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"a\"", "W/\"a\", \"c\"", "\"B\"", "\"b \"", "\"a,b\""})
    void ifNoneMatchWithoutMatchServes(String ifNoneMatch) {
        assertThat(Conditionals.evaluate(request("If-None-Match", ifNoneMatch), STRONG)).isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifNoneMatchAcrossSeveralFieldLines() {
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"a\"", "If-None-Match", "\"b\""), STRONG))
                .isEqualTo(Outcome.NOT_MODIFIED);
    }

    @Test
    void quotedCommaIsPartOfTheTag() {
        Validators odd = stored("ETag", "\"a,b\"");
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"x\", \"a,b\""), odd)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"a\""), odd)).isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifNoneMatchListWithoutStoredEtagServesButStarMatches() {
        Validators noTag = stored("Last-Modified", LAST_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"b\""), noTag)).isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-None-Match", "*"), noTag)).isEqualTo(Outcome.NOT_MODIFIED);
    }

    @Test
    void ifNoneMatchTakesPrecedenceOverIfModifiedSince() {
        HttpHeaders req = request("If-None-Match", "\"other\"", "If-Modified-Since", HttpDates.format(T));
        assertThat(Conditionals.evaluate(req, STRONG)).isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifNoneMatchOnOtherMethodsFailsThePrecondition() {
        assertThat(Conditionals.evaluate(HttpMethod.HEAD, request("If-None-Match", "\"b\""), STRONG))
                .isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(HttpMethod.POST, request("If-None-Match", "\"b\""), STRONG))
                .isEqualTo(Outcome.PRECONDITION_FAILED);
    }

    @Test
    void ifModifiedSinceComparesWithLastModified() {
        assertThat(Conditionals.evaluate(request("If-Modified-Since", LAST_MODIFIED), STRONG))
                .isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-Modified-Since", HttpDates.format(T)), STRONG))
                .isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-Modified-Since", HttpDates.format(T - 3601 * S)), STRONG))
                .isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-Modified-Since", "Sunday, 06-Nov-94 08:49:37 GMT"), STRONG))
                .isEqualTo(Outcome.SERVE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"garbage", "0", "-1", "Mon, 32 Nov 2023 08:49:37 GMT"})
    void ifModifiedSinceWithInvalidDateIsIgnored(String value) {
        assertThat(Conditionals.evaluate(request("If-Modified-Since", value), STRONG)).isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifModifiedSinceRepeatedIsIgnored() {
        String d = HttpDates.format(T);
        assertThat(Conditionals.evaluate(request("If-Modified-Since", d, "If-Modified-Since", d), STRONG))
                .isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifModifiedSinceOnlyForGetAndHead() {
        HttpHeaders req = request("If-Modified-Since", HttpDates.format(T));
        assertThat(Conditionals.evaluate(HttpMethod.HEAD, req, STRONG)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(HttpMethod.POST, req, STRONG)).isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifMatchUsesStrongComparison() {
        assertThat(Conditionals.evaluate(request("If-Match", "\"b\""), STRONG)).isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-Match", "\"a\", \"b\""), STRONG)).isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-Match", "*"), STRONG)).isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-Match", "W/\"b\""), STRONG)).isEqualTo(Outcome.PRECONDITION_FAILED);
        assertThat(Conditionals.evaluate(request("If-Match", "\"b\""), WEAK)).isEqualTo(Outcome.PRECONDITION_FAILED);
        assertThat(Conditionals.evaluate(request("If-Match", "\"a\""), STRONG)).isEqualTo(Outcome.PRECONDITION_FAILED);
    }

    @Test
    void ifMatchIsEvaluatedBeforeIfNoneMatch() {
        HttpHeaders req = request("If-Match", "\"a\"", "If-None-Match", "\"b\"");
        assertThat(Conditionals.evaluate(req, STRONG)).isEqualTo(Outcome.PRECONDITION_FAILED);
        HttpHeaders both = request("If-Match", "\"b\"", "If-None-Match", "\"b\"");
        assertThat(Conditionals.evaluate(both, STRONG)).isEqualTo(Outcome.NOT_MODIFIED);
    }

    @Test
    void ifUnmodifiedSinceFailsWhenModifiedLaterAndIsIgnoredUnderIfMatch() {
        String before = HttpDates.format(T - 7200 * S);
        assertThat(Conditionals.evaluate(request("If-Unmodified-Since", before), STRONG))
                .isEqualTo(Outcome.PRECONDITION_FAILED);
        assertThat(Conditionals.evaluate(request("If-Unmodified-Since", LAST_MODIFIED), STRONG)).isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-Unmodified-Since", "garbage"), STRONG)).isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-Match", "\"b\"", "If-Unmodified-Since", before), STRONG))
                .isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifRangeWithEntityTagNeedsAStrongMatch() {
        assertThat(Conditionals.ifRangeMatches(null, STRONG)).isTrue();
        assertThat(Conditionals.ifRangeMatches("\"b\"", STRONG)).isTrue();
        assertThat(Conditionals.ifRangeMatches(" \"b\" ", STRONG)).as("raw value with spaces").isTrue();
        assertThat(Conditionals.ifRangeMatches("\"a\"", STRONG)).isFalse();
        assertThat(Conditionals.ifRangeMatches("W/\"b\"", STRONG)).isFalse();
        assertThat(Conditionals.ifRangeMatches("\"b\"", WEAK)).isFalse();
        assertThat(Conditionals.ifRangeMatches("W/\"b\"", WEAK)).isFalse();
        assertThat(Conditionals.ifRangeMatches("\"b\"", stored())).isFalse();
    }

    @Test
    void ifRangeWithDateNeedsExactStrongLastModified() {
        assertThat(Conditionals.ifRangeMatches(LAST_MODIFIED, STRONG)).isTrue();
        assertThat(Conditionals.ifRangeMatches(HttpDates.format(T - 3599 * S), STRONG)).isFalse();
        assertThat(Conditionals.ifRangeMatches(HttpDates.format(T), STRONG)).as("later date, not equal").isFalse();
        assertThat(Conditionals.ifRangeMatches("garbage", STRONG)).isFalse();
        Validators weakDate = stored("Last-Modified", HttpDates.format(T), "Date", HttpDates.format(T));
        assertThat(Conditionals.ifRangeMatches(HttpDates.format(T), weakDate))
                .as("Last-Modified equal to Date is a weak validator").isFalse();
        Validators justStrong = stored("Last-Modified", HttpDates.format(T - S), "Date", HttpDates.format(T));
        assertThat(Conditionals.ifRangeMatches(HttpDates.format(T - S), justStrong)).isTrue();
        Validators noDate = stored("Last-Modified", LAST_MODIFIED);
        assertThat(Conditionals.ifRangeMatches(LAST_MODIFIED, noDate)).isFalse();
    }

    // The origin's copy of these checks (origin's server/Conditionals, which this class replaced) was
    // tested with these cases; they hold for the shared one, and where the copies differed the
    // shared one follows RFC 9110, as said at each.

    private static final Validators ORIGIN = Validators.of("\"abc\"", 1_700_000_000_000L, 1_800_000_000_000L);

    @Test
    void ifNoneMatchUsesWeakComparisonOverAListAndSkipsMembersThatAreNoEntityTags() {
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"abc\""), ORIGIN)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-None-Match", "W/\"abc\""), ORIGIN)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"x,y\", \"abc\""), ORIGIN)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-None-Match", "*"), ORIGIN)).isEqualTo(Outcome.NOT_MODIFIED);
        // RFC 9110 §8.8.3: an entity tag is quoted, so the bare abc is not one (the cache's copy matched it)
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"abcd\", abc"), ORIGIN)).isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifModifiedSinceOnlyWithoutIfNoneMatchAgainstTheOriginsLastModified() {
        String exact = "Tue, 14 Nov 2023 22:13:20 GMT";
        assertThat(Conditionals.evaluate(request("If-Modified-Since", exact), ORIGIN)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-Modified-Since", "Tue, 14 Nov 2023 22:13:19 GMT"), ORIGIN))
                .isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-Modified-Since", "garbage"), ORIGIN)).isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"zzz\"", "If-Modified-Since", exact), ORIGIN))
                .isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request(), ORIGIN)).isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifMatchAndIfUnmodifiedSinceFailTheOriginsPreconditionsToo() {
        // RFC 9110 §13.1.1, §13.1.4: the origin's copy ignored both and served 200
        assertThat(Conditionals.evaluate(request("If-Match", "\"other\""), ORIGIN)).isEqualTo(Outcome.PRECONDITION_FAILED);
        assertThat(Conditionals.evaluate(request("If-Unmodified-Since", "Tue, 14 Nov 2023 22:13:19 GMT"), ORIGIN))
                .isEqualTo(Outcome.PRECONDITION_FAILED);
        assertThat(Conditionals.evaluate(request("If-Match", "\"abc\""), ORIGIN)).isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifRangeUsesStrongComparisonOrAnExactDateOfTheOrigin() {
        assertThat(Conditionals.ifRangeMatches(null, ORIGIN)).isTrue();
        assertThat(Conditionals.ifRangeMatches("\"abc\"", ORIGIN)).isTrue();
        assertThat(Conditionals.ifRangeMatches("W/\"abc\"", ORIGIN)).isFalse();
        assertThat(Conditionals.ifRangeMatches("\"abd\"", ORIGIN)).isFalse();
        assertThat(Conditionals.ifRangeMatches("Tue, 14 Nov 2023 22:13:20 GMT", ORIGIN)).isTrue();
        assertThat(Conditionals.ifRangeMatches("Tue, 14 Nov 2023 22:13:21 GMT", ORIGIN)).isFalse();
    }

    @Test
    void withoutAModificationTimeIfModifiedSinceIsIgnored() {
        Validators tagOnly = new Validators("\"abc\"", OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
        assertThat(Conditionals.evaluate(request("If-Modified-Since", HttpDates.format(T)), tagOnly)).isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-Unmodified-Since", HttpDates.format(T)), tagOnly)).isEqualTo(Outcome.SERVE);
    }
}
