package org.edgelab.cache.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import org.edgelab.cache.http.Storability.Decision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class StorabilityTest {

    private static HttpHeaders headers(String... nameValues) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        return h;
    }

    private static Decision get(int status, HttpHeaders response) {
        return Storability.decide(HttpMethod.GET, headers(), status, response);
    }

    @Test
    void plainCacheableGetIsStored() {
        Decision d = get(200, headers("Cache-Control", "max-age=60"));
        assertThat(d.storable()).isTrue();
        assertThat(d.partialContent()).isFalse();
        assertThat(d.reason()).contains("max-age");
    }

    @ParameterizedTest
    @ValueSource(strings = {"HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"})
    void onlyGetResponsesAreStored(String method) {
        Decision d = Storability.decide(HttpMethod.valueOf(method), headers(), 200, headers("Cache-Control", "max-age=60"));
        assertThat(d.storable()).isFalse();
        assertThat(d.reason()).contains(method);
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 101, 103, 199})
    void interimStatusesAreNotStored(int status) {
        assertThat(get(status, headers("Cache-Control", "max-age=60")).storable()).isFalse();
    }

    @Test
    void partialContentIsPassedAndFlagged() {
        Decision d = get(206, headers("Cache-Control", "max-age=60", "Content-Range", "bytes 0-9/100"));
        assertThat(d.storable()).isFalse();
        assertThat(d.partialContent()).isTrue();
    }

    @Test
    void notModifiedIsNotStoredItself() {
        Decision d = get(304, headers("Cache-Control", "max-age=60"));
        assertThat(d.storable()).isFalse();
        assertThat(d.partialContent()).isFalse();
    }

    @Test
    void noStoreInResponseOrRequestPreventsStoring() {
        assertThat(get(200, headers("Cache-Control", "max-age=60, no-store")).storable()).isFalse();
        Decision d = Storability.decide(HttpMethod.GET, headers("Cache-Control", "no-store"), 200,
                headers("Cache-Control", "max-age=60"));
        assertThat(d.storable()).isFalse();
        assertThat(d.reason()).contains("request");
    }

    @Test
    void mustUnderstandOverridesNoStoreForUnderstoodStatusesOnly() {
        assertThat(get(200, headers("Cache-Control", "must-understand, no-store, max-age=60")).storable()).isTrue();
        assertThat(get(299, headers("Cache-Control", "must-understand, no-store, max-age=60")).storable()).isFalse();
        assertThat(get(299, headers("Cache-Control", "must-understand, max-age=60")).storable()).isFalse();
    }

    @Test
    void unknownStatusWithExplicitFreshnessIsStoredButNotHeuristically() {
        assertThat(get(299, headers("Cache-Control", "max-age=60")).storable()).isTrue();
        assertThat(get(299, headers()).storable()).isFalse();
    }

    @Test
    void privateIsNotStoredByASharedCacheButQualifiedPrivateIs() {
        assertThat(get(200, headers("Cache-Control", "private, max-age=60")).storable()).isFalse();
        assertThat(get(200, headers("Cache-Control", "private=\"x-user\", max-age=60")).storable()).isTrue();
    }

    @Test
    void authorizationNeedsPublicSMaxAgeOrMustRevalidate() {
        HttpHeaders auth = headers("Authorization", "Bearer abc");
        assertThat(Storability.decide(HttpMethod.GET, auth, 200, headers("Cache-Control", "max-age=60")).storable())
                .isFalse();
        assertThat(Storability.decide(HttpMethod.GET, auth, 200, headers()).storable()).isFalse();
        for (String allowed : new String[] {"public", "s-maxage=60", "must-revalidate, max-age=60"}) {
            assertThat(Storability.decide(HttpMethod.GET, auth, 200, headers("Cache-Control", allowed)).storable())
                    .as(allowed).isTrue();
        }
    }

    @Test
    void explicitFreshnessOrPublicMakesAnyUnderstoodStatusStorable() {
        assertThat(get(302, headers()).storable()).isFalse();
        assertThat(get(302, headers("Cache-Control", "max-age=60")).storable()).isTrue();
        assertThat(get(302, headers("Cache-Control", "s-maxage=60")).storable()).isTrue();
        assertThat(get(302, headers("Expires", "Sun, 06 Nov 1994 08:49:37 GMT")).storable()).isTrue();
        assertThat(get(302, headers("Expires", "0")).reason()).contains("Expires");
        assertThat(get(500, headers("Cache-Control", "public")).storable()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501})
    void heuristicallyCacheableStatusesAreStoredWithoutExplicitFreshness(int status) {
        Decision d = get(status, headers("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"));
        assertThat(d.storable()).isTrue();
        assertThat(d.reason()).contains("heuristic");
    }

    @ParameterizedTest
    @ValueSource(ints = {201, 202, 302, 303, 307, 400, 403, 500, 502, 503, 504})
    void otherStatusesNeedExplicitFreshness(int status) {
        assertThat(get(status, headers()).storable()).isFalse();
    }

    @Test
    void varyStarIsNeverStored() {
        assertThat(get(200, headers("Cache-Control", "max-age=60", "Vary", "Accept-Encoding, *")).storable()).isFalse();
        assertThat(get(200, headers("Cache-Control", "max-age=60", "Vary", "Accept-Encoding")).storable()).isTrue();
    }

    @Test
    void setCookieIsStoredOnlyWhenTheOriginMarksItPrivate() {
        assertThat(get(200, headers("Cache-Control", "max-age=60", "Set-Cookie", "id=1")).storable()).isFalse();
        assertThat(get(200, headers("Cache-Control", "max-age=60, private=\"Set-Cookie\"", "Set-Cookie", "id=1"))
                .storable()).isTrue();
        assertThat(get(200, headers("Cache-Control", "max-age=60, no-cache=\"set-cookie\"", "Set-Cookie", "id=1"))
                .storable()).isTrue();
    }

    @Test
    void heuristicsAllowedForCacheableStatusesOrPublic() {
        assertThat(Storability.heuristicsAllowed(200, CacheControl.NONE)).isTrue();
        assertThat(Storability.heuristicsAllowed(302, CacheControl.NONE)).isFalse();
        assertThat(Storability.heuristicsAllowed(302, CacheControl.parse(java.util.List.of("public")))).isTrue();
    }

    @Test
    void unsafeMethodsWithNonErrorStatusInvalidate() {
        assertThat(Storability.invalidates(HttpMethod.POST, 200)).isTrue();
        assertThat(Storability.invalidates(HttpMethod.PUT, 204)).isTrue();
        assertThat(Storability.invalidates(HttpMethod.DELETE, 303)).isTrue();
        assertThat(Storability.invalidates(HttpMethod.valueOf("PURGE"), 200)).isTrue();
        assertThat(Storability.invalidates(HttpMethod.POST, 404)).isFalse();
        assertThat(Storability.invalidates(HttpMethod.POST, 500)).isFalse();
        assertThat(Storability.invalidates(HttpMethod.POST, 100)).isFalse();
        for (HttpMethod safe : new HttpMethod[] {HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS, HttpMethod.TRACE}) {
            assertThat(Storability.invalidates(safe, 200)).as(safe.name()).isFalse();
        }
    }
}
