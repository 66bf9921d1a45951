package org.edgelab.cache.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import org.edgelab.http.Conditionals.Outcome;
import org.edgelab.http.Conditionals.Validators;
import org.edgelab.http.HttpDates;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The cache's side of conditional requests (RFC 9111 §4.3); the RFC 9110 checks are org.edgelab.http.ConditionalsTest's. */
class StoredConditionalsTest {

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

    private static final ObjectMetadata STRONG = stored("ETag", "\"b\"", "Last-Modified", LAST_MODIFIED);
    private static final ObjectMetadata WEAK = stored("ETag", "W/\"b\"", "Last-Modified", LAST_MODIFIED);

    /** Header fields of a request or of the origin's 304. */
    private static HttpHeaders request(String... nameValues) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        return h;
    }

    /** How the RFC 9110 checks then go is ConditionalsTest's; here, what they are given. */
    @Test
    void theValidatorsAreTheStoredETagLastModifiedAndDate() {
        ObjectMetadata dated = stored("ETag", "W/\"b\"", "Last-Modified", LAST_MODIFIED, "Date", HttpDates.format(T));
        assertThat(StoredConditionals.validators(dated)).isEqualTo(new Validators("W/\"b\"",
                OptionalLong.of(T - 3600 * S), OptionalLong.of(T), OptionalLong.of(T - 3600 * S)));
    }

    @Test
    void ifModifiedSinceFallsBackToDateThenResponseTime() {
        assertThat(StoredConditionals.validators(stored("Date", HttpDates.format(T - 60 * S))).modified())
                .hasValue(T - 60 * S);
        assertThat(StoredConditionals.validators(stored()).modified()).as("the time the response was received")
                .hasValue(T);
    }

    @Test
    void preconditionsAreIgnoredForANonSuccessStoredResponse() {
        ObjectMetadata notFound = new ObjectMetadata(404, fields("ETag", "\"b\""), 10, T, T, ObjectMetadata.NEVER);
        assertThat(StoredConditionals.evaluate(request("If-None-Match", "\"b\""), notFound)).isEqualTo(Outcome.SERVE);
        assertThat(StoredConditionals.evaluate(request("If-Match", "\"zz\""), notFound)).isEqualTo(Outcome.SERVE);
        assertThat(StoredConditionals.evaluate(request("If-Modified-Since", HttpDates.format(T)), notFound))
                .isEqualTo(Outcome.SERVE);
    }

    @Test
    void revalidationHeadersCarryTheStoredValidators() {
        HttpHeaders h = StoredConditionals.revalidationHeaders(STRONG);
        assertThat(h.get("If-None-Match")).isEqualTo("\"b\"");
        assertThat(h.get("If-Modified-Since")).isEqualTo(LAST_MODIFIED);
        assertThat(h.size()).isEqualTo(2);
        assertThat(StoredConditionals.revalidationHeaders(stored("ETag", "W/\"x\"")).get("If-None-Match")).isEqualTo("W/\"x\"");
        assertThat(StoredConditionals.revalidationHeaders(stored("Content-Type", "text/plain")).isEmpty()).isTrue();
    }

    @Test
    void notModifiedMatchesOnValidators() {
        assertThat(StoredConditionals.notModifiedMatches(STRONG, request("ETag", "\"b\""))).isTrue();
        assertThat(StoredConditionals.notModifiedMatches(STRONG, request("ETag", "\"c\""))).isFalse();
        assertThat(StoredConditionals.notModifiedMatches(WEAK, request("ETag", "\"b\""))).as("strong vs stored weak").isFalse();
        assertThat(StoredConditionals.notModifiedMatches(WEAK, request("ETag", "W/\"b\""))).isTrue();
        assertThat(StoredConditionals.notModifiedMatches(STRONG, request("Last-Modified", LAST_MODIFIED))).isTrue();
        assertThat(StoredConditionals.notModifiedMatches(STRONG, request("Last-Modified", HttpDates.format(T)))).isFalse();
        assertThat(StoredConditionals.notModifiedMatches(STRONG, request("Cache-Control", "max-age=5")))
                .as("no validator, the stored response has some").isFalse();
        assertThat(StoredConditionals.notModifiedMatches(stored("Last-Modified", LAST_MODIFIED), request())).isFalse();
        assertThat(StoredConditionals.notModifiedMatches(stored("Date", HttpDates.format(T)), request("Cache-Control",
                "max-age=5"))).as("no validator on either side").isTrue();
        assertThat(StoredConditionals.notModifiedMatches(stored(), request("ETag", "\"b\""))).isFalse();
    }

    @Test
    void mergeNotModifiedReplacesPresentFieldsAndKeepsTheRest() {
        List<HeaderField> stored = fields("Content-Type", "text/plain", "Cache-Control", "max-age=60",
                "ETag", "\"b\"", "X-Multi", "1", "X-Multi", "2", "Date", HttpDates.format(T - 100 * S),
                "Age", "40", "Content-Encoding", "gzip");
        HttpHeaders notModified = request("Cache-Control", "max-age=600", "Date", HttpDates.format(T),
                "X-Multi", "3", "X-New", "n", "Content-Length", "0", "Content-Encoding", "br",
                "Connection", "close, X-Hop", "X-Hop", "h", "Transfer-Encoding", "chunked", "Set-Cookie", "a=b");
        List<HeaderField> merged = StoredConditionals.mergeNotModified(stored, notModified);
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
        assertThat(StoredConditionals.mergeNotModified(stored, request("Age", "3", "Date", HttpDates.format(T))))
                .containsExactly(new HeaderField("Date", HttpDates.format(T)), new HeaderField("Age", "3"),
                        new HeaderField("ETag", "\"b\""));
        assertThat(StoredConditionals.mergeNotModified(stored, request()))
                .containsExactly(new HeaderField("ETag", "\"b\""));
    }

    @Test
    void refreshedMetadataIsFreshAgain() {
        ObjectMetadata old = new ObjectMetadata(200, fields("Date", HttpDates.format(T - 1000 * S),
                "Cache-Control", "max-age=60", "ETag", "\"b\""), 100, T - 1000 * S, T - 1000 * S, ObjectMetadata.NEVER);
        assertThat(Freshness.of(old, T).isFresh()).isFalse();
        HttpHeaders notModified = request("Date", HttpDates.format(T), "ETag", "\"b\"");
        assertThat(StoredConditionals.notModifiedMatches(old, notModified)).isTrue();
        List<HeaderField> merged = StoredConditionals.mergeNotModified(old.headers(), notModified);
        ObjectMetadata refreshed = old.refreshed(merged, T, T, Freshness.expiresAtMillis(200, merged, T, T));
        assertThat(Freshness.of(refreshed, T + 10 * S).isFresh()).isTrue();
        assertThat(refreshed.expiresAtMillis()).isEqualTo(T + 60 * S);
    }}
