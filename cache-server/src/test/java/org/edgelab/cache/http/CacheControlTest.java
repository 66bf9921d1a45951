package org.edgelab.cache.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class CacheControlTest {

    private static CacheControl cc(String... lines) {
        return CacheControl.parse(Arrays.asList(lines));
    }

    @Test
    void noHeaderMeansNoDirectives() {
        CacheControl none = CacheControl.parse(List.of());
        assertThat(none).isEqualTo(CacheControl.NONE);
        assertThat(none.noStore() || none.noCache() || none.isPrivate() || none.isPublic()).isFalse();
        assertThat(none.maxAge()).isEmpty();
        assertThat(none.maxStale()).isEmpty();
        assertThat(CacheControl.parse(null)).isEqualTo(CacheControl.NONE);
    }

    @Test
    void everyBooleanDirective() {
        CacheControl c = cc("no-store, no-cache, private, public, must-revalidate, proxy-revalidate,"
                + " must-understand, only-if-cached, immutable, no-transform");
        assertThat(c.noStore()).isTrue();
        assertThat(c.noCache()).isTrue();
        assertThat(c.isPrivate()).isTrue();
        assertThat(c.isPublic()).isTrue();
        assertThat(c.mustRevalidate()).isTrue();
        assertThat(c.proxyRevalidate()).isTrue();
        assertThat(c.mustUnderstand()).isTrue();
        assertThat(c.onlyIfCached()).isTrue();
        assertThat(c.immutable()).isTrue();
        assertThat(c.noTransform()).isTrue();
    }

    @Test
    void everyDeltaSecondsDirective() {
        CacheControl c = cc("max-age=1, s-maxage=2, max-stale=3, min-fresh=4, stale-while-revalidate=5, stale-if-error=6");
        assertThat(c.maxAge()).hasValue(1);
        assertThat(c.sMaxAge()).hasValue(2);
        assertThat(c.maxStale()).hasValue(3);
        assertThat(c.minFresh()).hasValue(4);
        assertThat(c.staleWhileRevalidate()).hasValue(5);
        assertThat(c.staleIfError()).hasValue(6);
    }

    @Test
    void caseSpacesQuotesAndSeveralLines() {
        CacheControl c = cc("  PUBLIC ,MAX-AGE = \"60\"", "S-MaxAge=\t30 ,, ", "No-Transform");
        assertThat(c.isPublic()).isTrue();
        assertThat(c.maxAge()).hasValue(60);
        assertThat(c.sMaxAge()).hasValue(30);
        assertThat(c.noTransform()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"max-age", "max-age=", "max-age=-1", "max-age=ten", "max-age=1.5", "max-age=\"\"", "max-age=60 s"})
    void invalidMaxAgeMeansAlreadyStale(String directive) {
        assertThat(cc(directive).maxAge()).hasValue(0);
        assertThat(cc(directive.replace("max-age", "s-maxage")).sMaxAge()).hasValue(0);
    }

    @Test
    void repeatedMaxAgeKeepsTheSmallest() {
        assertThat(cc("max-age=600, max-age=60").maxAge()).hasValue(60);
        assertThat(cc("max-age=60", "max-age=600").maxAge()).hasValue(60);
        assertThat(cc("max-age=60, max-age=oops").maxAge()).hasValue(0);
    }

    @Test
    void hugeDeltaSecondsIsClampedToTwoToTheThirtyFirst() {
        assertThat(cc("max-age=99999999999999999999999999").maxAge()).hasValue(2_147_483_648L);
        assertThat(cc("max-age=2147483647").maxAge()).hasValue(2_147_483_647L);
    }

    @Test
    void maxStaleWithoutValueAcceptsAnyStaleness() {
        assertThat(cc("max-stale").maxStale()).hasValue(Long.MAX_VALUE);
        assertThat(cc("max-stale=10").maxStale()).hasValue(10);
        assertThat(cc("max-stale=abc").maxStale()).isEmpty();
        assertThat(cc("max-stale=5, max-stale").maxStale()).hasValue(5);
    }

    @Test
    void invalidOptionalDeltasAreIgnoredAndFirstValidWins() {
        assertThat(cc("min-fresh=x").minFresh()).isEmpty();
        assertThat(cc("stale-if-error=-5").staleIfError()).isEmpty();
        assertThat(cc("stale-while-revalidate").staleWhileRevalidate()).isEmpty();
        assertThat(cc("min-fresh=x, min-fresh=7, min-fresh=9").minFresh()).hasValue(7);
    }

    @Test
    void qualifiedNoCacheAndPrivateListFieldsInsteadOfApplyingToAll() {
        CacheControl c = cc("no-cache=\"Set-Cookie, X-Token\", private=\"Authorization-Info\"");
        assertThat(c.noCache()).isFalse();
        assertThat(c.noCacheFields()).containsExactly("set-cookie", "x-token");
        assertThat(c.isPrivate()).isFalse();
        assertThat(c.privateFields()).containsExactly("authorization-info");
        CacheControl both = cc("no-cache=\"x\", no-cache");
        assertThat(both.noCache()).isTrue();
        assertThat(both.noCacheFields()).containsExactly("x");
    }

    @Test
    void commasInsideQuotedArgumentsDoNotSplitDirectives() {
        CacheControl c = cc("private=\"a, b\", max-age=5, community=\"UCI, x=1\"");
        assertThat(c.privateFields()).containsExactly("a", "b");
        assertThat(c.maxAge()).hasValue(5);
        assertThat(c.isPrivate()).isFalse();
    }

    @Test
    void unknownDirectivesAreIgnored() {
        CacheControl c = cc("community=\"UCI\", foo, bar=baz, max-age=3");
        assertThat(c).isEqualTo(cc("max-age=3"));
    }

    @Test
    void unterminatedQuoteTakesTheRest() {
        assertThat(cc("max-age=\"12").maxAge()).hasValue(12);
    }

    @Test
    void readsFromNettyHeadersAndStoredMetadata() {
        HttpHeaders headers = new DefaultHttpHeaders().add("Cache-Control", "public").add("cache-control", "max-age=9");
        assertThat(CacheControl.of(headers).isPublic()).isTrue();
        assertThat(CacheControl.of(headers).maxAge()).hasValue(9);
        ObjectMetadata stored = new ObjectMetadata(200,
                List.of(new HeaderField("cache-control", "s-maxage=4"), new HeaderField("Cache-Control", "no-cache")),
                0, 0, 0, ObjectMetadata.NEVER);
        assertThat(CacheControl.of(stored).sMaxAge()).hasValue(4);
        assertThat(CacheControl.of(stored).noCache()).isTrue();
    }

    @Test
    void derivedRules() {
        assertThat(cc("public").allowsSharedCachingWithAuthorization()).isTrue();
        assertThat(cc("s-maxage=1").allowsSharedCachingWithAuthorization()).isTrue();
        assertThat(cc("must-revalidate").allowsSharedCachingWithAuthorization()).isTrue();
        assertThat(cc("max-age=100").allowsSharedCachingWithAuthorization()).isFalse();
        assertThat(cc("max-age=100").forbidsStale()).isFalse();
        for (String d : List.of("must-revalidate", "proxy-revalidate", "s-maxage=5", "no-cache")) {
            assertThat(cc(d).forbidsStale()).as(d).isTrue();
        }
    }

    @Test
    void recordRejectsNullOptionals() {
        org.assertj.core.api.Assertions.assertThatNullPointerException().isThrownBy(() -> new CacheControl(
                false, false, List.of(), false, List.of(), false, null, OptionalLong.empty(), false, false, false,
                OptionalLong.empty(), OptionalLong.empty(), false, OptionalLong.empty(), OptionalLong.empty(),
                false, false));
    }
}
