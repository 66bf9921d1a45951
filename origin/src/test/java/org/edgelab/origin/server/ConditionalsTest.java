package org.edgelab.origin.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import org.junit.jupiter.api.Test;

class ConditionalsTest {

    private static final String ETAG = "\"abc\"";
    private static final long LAST_MODIFIED = 1_700_000_000_000L; // Tue, 14 Nov 2023 22:13:20 GMT

    private static HttpHeaders headers(String... pairs) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (int i = 0; i < pairs.length; i += 2) {
            h.add(pairs[i], pairs[i + 1]);
        }
        return h;
    }

    @Test
    void ifNoneMatchUsesWeakComparisonOverAList() {
        assertThat(Conditionals.notModified(headers("If-None-Match", "\"abc\""), ETAG, LAST_MODIFIED)).isTrue();
        assertThat(Conditionals.notModified(headers("If-None-Match", "W/\"abc\""), ETAG, LAST_MODIFIED)).isTrue();
        assertThat(Conditionals.notModified(headers("If-None-Match", "\"x,y\", \"abc\""), ETAG, LAST_MODIFIED)).isTrue();
        assertThat(Conditionals.notModified(headers("If-None-Match", "*"), ETAG, LAST_MODIFIED)).isTrue();
        assertThat(Conditionals.notModified(headers("If-None-Match", "\"abcd\", abc"), ETAG, LAST_MODIFIED)).isFalse();
    }

    @Test
    void ifModifiedSinceOnlyWithoutIfNoneMatch() {
        String exact = "Tue, 14 Nov 2023 22:13:20 GMT";
        assertThat(Conditionals.notModified(headers("If-Modified-Since", exact), ETAG, LAST_MODIFIED)).isTrue();
        assertThat(Conditionals.notModified(headers("If-Modified-Since", "Tue, 14 Nov 2023 22:13:19 GMT"), ETAG, LAST_MODIFIED)).isFalse();
        assertThat(Conditionals.notModified(headers("If-Modified-Since", "garbage"), ETAG, LAST_MODIFIED)).isFalse();
        assertThat(Conditionals.notModified(headers("If-None-Match", "\"zzz\"", "If-Modified-Since", exact), ETAG, LAST_MODIFIED))
                .isFalse();
        assertThat(Conditionals.notModified(headers(), ETAG, LAST_MODIFIED)).isFalse();
    }

    @Test
    void ifRangeUsesStrongComparisonOrAnExactDate() {
        assertThat(Conditionals.ifRangeHolds(null, ETAG, LAST_MODIFIED)).isTrue();
        assertThat(Conditionals.ifRangeHolds("\"abc\"", ETAG, LAST_MODIFIED)).isTrue();
        assertThat(Conditionals.ifRangeHolds("W/\"abc\"", ETAG, LAST_MODIFIED)).isFalse();
        assertThat(Conditionals.ifRangeHolds("\"abd\"", ETAG, LAST_MODIFIED)).isFalse();
        assertThat(Conditionals.ifRangeHolds("Tue, 14 Nov 2023 22:13:20 GMT", ETAG, LAST_MODIFIED)).isTrue();
        assertThat(Conditionals.ifRangeHolds("Tue, 14 Nov 2023 22:13:21 GMT", ETAG, LAST_MODIFIED)).isFalse();
    }
}
