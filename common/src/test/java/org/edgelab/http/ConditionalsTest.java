package org.edgelab.cache.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import org.edgelab.cache.http.Conditionals.Outcome;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConditionalsTest {

    private static final long T = 1_700_000_000_000L;
    private static final long S = 1000;
    private static final String LAST_MODIFIED = HttpDates.format(T - 3600 * S);

    private static List<HeaderField> fields(String... nameValues) {
        List<HeaderField> list = new ArrayList<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            list.add(new HeaderField(nameValues[i], nameValues[i + 1]));
        }
        return list;
    }

    private static ObjectMetadata stored(String... nameValues) {
        return new ObjectMetadata(200, fields(nameValues), 100, T, T, ObjectMetadata.NEVER);
    }

    private static final ObjectMetadata STRONG = stored("ETag", "\"b\"", "Last-Modified", LAST_MODIFIED,
            "Date", HttpDates.format(T));
    private static final ObjectMetadata WEAK = stored("ETag", "W/\"b\"", "Last-Modified", LAST_MODIFIED,
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
        ObjectMetadata odd = stored("ETag", "\"a,b\"");
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"x\", \"a,b\""), odd)).isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"a\""), odd)).isEqualTo(Outcome.SERVE);
    }

    @Test
    void ifNoneMatchListWithoutStoredEtagServesButStarMatches() {
        ObjectMetadata noTag = stored("Last-Modified", LAST_MODIFIED);
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
    void ifModifiedSinceFallsBackToDateThenResponseTime() {
        ObjectMetadata dateOnly = stored("Date", HttpDates.format(T - 60 * S));
        assertThat(Conditionals.evaluate(request("If-Modified-Since", HttpDates.format(T - 60 * S)), dateOnly))
                .isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-Modified-Since", HttpDates.format(T - 61 * S)), dateOnly))
                .isEqualTo(Outcome.SERVE);
        ObjectMetadata nothing = stored();
        assertThat(Conditionals.evaluate(request("If-Modified-Since", HttpDates.format(T)), nothing))
                .isEqualTo(Outcome.NOT_MODIFIED);
        assertThat(Conditionals.evaluate(request("If-Modified-Since", HttpDates.format(T - S)), nothing))
                .isEqualTo(Outcome.SERVE);
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
    void preconditionsAreIgnoredForANonSuccessStoredResponse() {
        ObjectMetadata notFound = new ObjectMetadata(404, fields("ETag", "\"b\""), 10, T, T, ObjectMetadata.NEVER);
        assertThat(Conditionals.evaluate(request("If-None-Match", "\"b\""), notFound)).isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-Match", "\"zz\""), notFound)).isEqualTo(Outcome.SERVE);
        assertThat(Conditionals.evaluate(request("If-Modified-Since", HttpDates.format(T)), notFound))
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
        ObjectMetadata weakDate = stored("Last-Modified", HttpDates.format(T), "Date", HttpDates.format(T));
        assertThat(Conditionals.ifRangeMatches(HttpDates.format(T), weakDate))
                .as("Last-Modified equal to Date is a weak validator").isFalse();
        ObjectMetadata justStrong = stored("Last-Modified", HttpDates.format(T - S), "Date", HttpDates.format(T));
        assertThat(Conditionals.ifRangeMatches(HttpDates.format(T - S), justStrong)).isTrue();
        ObjectMetadata noDate = stored("Last-Modified", LAST_MODIFIED);
        assertThat(Conditionals.ifRangeMatches(LAST_MODIFIED, noDate)).isFalse();
    }

    @Test
    void revalidationHeadersCarryTheStoredValidators() {
        HttpHeaders h = Conditionals.revalidationHeaders(STRONG);
        assertThat(h.get("If-None-Match")).isEqualTo("\"b\"");
        assertThat(h.get("If-Modified-Since")).isEqualTo(LAST_MODIFIED);
        assertThat(h.size()).isEqualTo(2);
        assertThat(Conditionals.revalidationHeaders(stored("ETag", "W/\"x\"")).get("If-None-Match")).isEqualTo("W/\"x\"");
        assertThat(Conditionals.revalidationHeaders(stored("Content-Type", "text/plain")).isEmpty()).isTrue();
    }

    @Test
    void notModifiedMatchesOnValidators() {
        assertThat(Conditionals.notModifiedMatches(STRONG, request("ETag", "\"b\""))).isTrue();
        assertThat(Conditionals.notModifiedMatches(STRONG, request("ETag", "\"c\""))).isFalse();
        assertThat(Conditionals.notModifiedMatches(WEAK, request("ETag", "\"b\""))).as("strong vs stored weak").isFalse();
        assertThat(Conditionals.notModifiedMatches(WEAK, request("ETag", "W/\"b\""))).isTrue();
        assertThat(Conditionals.notModifiedMatches(STRONG, request("Last-Modified", LAST_MODIFIED))).isTrue();
        assertThat(Conditionals.notModifiedMatches(STRONG, request("Last-Modified", HttpDates.format(T)))).isFalse();
        assertThat(Conditionals.notModifiedMatches(STRONG, request("Cache-Control", "max-age=5"))).isTrue();
        assertThat(Conditionals.notModifiedMatches(stored(), request("ETag", "\"b\""))).isFalse();
    }

    @Test
    void mergeNotModifiedReplacesPresentFieldsAndKeepsTheRest() {
        List<HeaderField> stored = fields("Content-Type", "text/plain", "Cache-Control", "max-age=60",
                "ETag", "\"b\"", "X-Multi", "1", "X-Multi", "2", "Date", HttpDates.format(T - 100 * S),
                "Age", "40", "Content-Encoding", "gzip");
        HttpHeaders notModified = request("Cache-Control", "max-age=600", "Date", HttpDates.format(T),
                "X-Multi", "3", "X-New", "n", "Content-Length", "0", "Content-Encoding", "br",
                "Connection", "close, X-Hop", "X-Hop", "h", "Transfer-Encoding", "chunked", "Set-Cookie", "a=b");
        List<HeaderField> merged = Conditionals.mergeNotModified(stored, notModified);
        assertThat(merged).containsExactly(
                new HeaderField("Content-Type", "text/plain"),
                new HeaderField("Cache-Control", "max-age=600"),
                new HeaderField("ETag", "\"b\""),
                new HeaderField("X-Multi", "3"),
                new HeaderField("Date", HttpDates.format(T)),
                new HeaderField("Content-Encoding", "gzip"),
                new HeaderField("X-New", "n"));
    }

    @Test
    void mergeNotModifiedKeepsAgeAndDateOnlyWhenTheNotModifiedHasThem() {
        List<HeaderField> stored = fields("Date", HttpDates.format(T - 100 * S), "Age", "40", "ETag", "\"b\"");
        assertThat(Conditionals.mergeNotModified(stored, request("Age", "3", "Date", HttpDates.format(T))))
                .containsExactly(new HeaderField("Date", HttpDates.format(T)), new HeaderField("Age", "3"),
                        new HeaderField("ETag", "\"b\""));
        assertThat(Conditionals.mergeNotModified(stored, request()))
                .containsExactly(new HeaderField("ETag", "\"b\""));
    }

    @Test
    void refreshedMetadataIsFreshAgain() {
        ObjectMetadata old = new ObjectMetadata(200, fields("Date", HttpDates.format(T - 1000 * S),
                "Cache-Control", "max-age=60", "ETag", "\"b\""), 100, T - 1000 * S, T - 1000 * S, ObjectMetadata.NEVER);
        assertThat(Freshness.of(old, T).isFresh()).isFalse();
        HttpHeaders notModified = request("Date", HttpDates.format(T), "ETag", "\"b\"");
        assertThat(Conditionals.notModifiedMatches(old, notModified)).isTrue();
        List<HeaderField> merged = Conditionals.mergeNotModified(old.headers(), notModified);
        ObjectMetadata refreshed = old.refreshed(merged, T, T, Freshness.expiresAtMillis(200, merged, T, T));
        assertThat(Freshness.of(refreshed, T + 10 * S).isFresh()).isTrue();
        assertThat(refreshed.expiresAtMillis()).isEqualTo(T + 60 * S);
    }
}
