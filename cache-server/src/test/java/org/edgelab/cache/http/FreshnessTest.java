package org.edgelab.cache.http;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.edgelab.http.HttpDates;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FreshnessTest {

    /** A whole second, so HTTP-dates carry it exactly. */
    private static final long T = 1_700_000_000_000L;
    private static final long S = 1000;

    private static ObjectMetadata stored(int status, long requestTime, long responseTime, String... nameValues) {
        List<HeaderField> headers = new ArrayList<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            headers.add(new HeaderField(nameValues[i], nameValues[i + 1]));
        }
        return new ObjectMetadata(status, headers, 10, requestTime, responseTime, ObjectMetadata.NEVER);
    }

    private static ObjectMetadata stored(String... nameValues) {
        return stored(200, T, T, nameValues);
    }

    private static String date(long millis) {
        return HttpDates.format(millis);
    }

    private static CacheControl cc(String value) {
        return CacheControl.parse(List.of(value));
    }

    @Test
    void maxAgeIsFreshUntilTheAgeReachesIt() {
        ObjectMetadata m = stored("Date", date(T), "Cache-Control", "max-age=100");
        Freshness at50 = Freshness.of(m, T + 50 * S);
        assertThat(at50.lifetimeSeconds()).isEqualTo(100);
        assertThat(at50.currentAgeSeconds()).isEqualTo(50);
        assertThat(at50.isFresh()).isTrue();
        assertThat(at50.heuristic()).isFalse();
        assertThat(at50.stalenessSeconds()).isZero();
        assertThat(at50.remainingSeconds()).isEqualTo(50);
        assertThat(Freshness.of(m, T + 100 * S - 1).isFresh()).isTrue();
        Freshness at100 = Freshness.of(m, T + 100 * S);
        assertThat(at100.isFresh()).isFalse();
        assertThat(at100.stalenessSeconds()).isEqualTo(1);
        assertThat(Freshness.of(m, T + 130 * S).stalenessSeconds()).isEqualTo(30);
        assertThat(Freshness.of(m, T + 130 * S + 1).stalenessSeconds()).isEqualTo(31);
    }

    @Test
    void sMaxAgeWinsOverMaxAgeWhichWinsOverExpires() {
        String expires = date(T + 1000 * S);
        ObjectMetadata all = stored("Date", date(T), "Cache-Control", "max-age=100, s-maxage=10", "Expires", expires);
        assertThat(Freshness.of(all, T).lifetimeSeconds()).isEqualTo(10);
        ObjectMetadata noShared = stored("Date", date(T), "Cache-Control", "max-age=100", "Expires", expires);
        assertThat(Freshness.of(noShared, T).lifetimeSeconds()).isEqualTo(100);
        ObjectMetadata onlyExpires = stored("Date", date(T), "Expires", expires);
        assertThat(Freshness.of(onlyExpires, T).lifetimeSeconds()).isEqualTo(1000);
    }

    @Test
    void expiresCountsFromDateNotFromTheLocalClock() {
        // origin clock 1 hour behind ours: Expires - Date still gives 60 s
        long originNow = T - 3600 * S;
        ObjectMetadata m = stored("Date", date(originNow), "Expires", date(originNow + 60 * S));
        Freshness f = Freshness.of(m, T);
        assertThat(f.lifetimeSeconds()).isEqualTo(60);
        assertThat(f.currentAgeSeconds()).as("apparent age uses our response time minus Date").isEqualTo(3600);
        assertThat(f.isFresh()).isFalse();
    }

    @Test
    void expiresInThePastOrInvalidIsAlreadyExpired() {
        assertThat(Freshness.of(stored("Date", date(T), "Expires", date(T - 10 * S)), T).isFresh()).isFalse();
        assertThat(Freshness.of(stored("Date", date(T), "Expires", date(T - 10 * S)), T).lifetimeSeconds()).isZero();
        Freshness invalid = Freshness.of(stored("Date", date(T), "Expires", "0",
                "Last-Modified", date(T - 100 * 86_400 * S)), T);
        assertThat(invalid.lifetimeSeconds()).isZero();
        assertThat(invalid.heuristic()).as("an Expires field, even invalid, rules out heuristics").isFalse();
        assertThat(invalid.isFresh()).isFalse();
    }

    @Test
    void ageArithmeticOfRfc9111() {
        // Age: 30 from upstream, Date 10 s before we received it, request sent 2 s before the response
        ObjectMetadata m = stored(200, T - 2 * S, T, "Date", date(T - 10 * S), "Age", "30",
                "Cache-Control", "max-age=60");
        Freshness f = Freshness.of(m, T + 5 * S);
        // apparent_age = 10, corrected_age_value = 30 + 2 = 32, corrected_initial_age = 32, resident = 5
        assertThat(f.currentAgeSeconds()).isEqualTo(37);
        assertThat(f.currentAgeMillis()).isEqualTo(37 * S);
        assertThat(f.isFresh()).isTrue();
        assertThat(f.remainingSeconds()).isEqualTo(23);
    }

    @Test
    void apparentAgeWinsWhenLargerThanAgeField() {
        ObjectMetadata m = stored(200, T, T, "Date", date(T - 50 * S), "Age", "5", "Cache-Control", "max-age=60");
        assertThat(Freshness.of(m, T).currentAgeSeconds()).isEqualTo(50);
    }

    @Test
    void dateInTheFutureGivesNoNegativeAge() {
        ObjectMetadata m = stored("Date", date(T + 3600 * S), "Cache-Control", "max-age=60");
        Freshness f = Freshness.of(m, T + 10 * S);
        assertThat(f.currentAgeSeconds()).isEqualTo(10);
        assertThat(f.isFresh()).isTrue();
    }

    @Test
    void missingOrInvalidDateIsTheResponseTime() {
        assertThat(Freshness.of(stored("Cache-Control", "max-age=60"), T + 20 * S).currentAgeSeconds()).isEqualTo(20);
        assertThat(Freshness.of(stored("Date", "yesterday", "Cache-Control", "max-age=60"), T + 20 * S)
                .currentAgeSeconds()).isEqualTo(20);
    }

    @Test
    void invalidAgeFieldIsIgnored() {
        assertThat(Freshness.of(stored("Date", date(T), "Age", "-3", "Cache-Control", "max-age=60"), T)
                .currentAgeSeconds()).isZero();
        assertThat(Freshness.of(stored("Date", date(T), "Age", "abc", "Cache-Control", "max-age=60"), T)
                .currentAgeSeconds()).isZero();
    }

    @Test
    void heuristicIsTenPercentOfTheTimeSinceLastModified() {
        ObjectMetadata m = stored("Date", date(T), "Last-Modified", date(T - 1000 * S));
        Freshness f = Freshness.of(m, T);
        assertThat(f.heuristic()).isTrue();
        assertThat(f.lifetimeSeconds()).isEqualTo(100);
        assertThat(Freshness.of(m, T + 99 * S).isFresh()).isTrue();
        assertThat(Freshness.of(m, T + 100 * S).isFresh()).isFalse();
    }

    @Test
    void heuristicIsCappedAtADayOrTheGivenCap() {
        ObjectMetadata m = stored("Date", date(T), "Last-Modified", date(T - 365 * 86_400 * S));
        assertThat(Freshness.of(m, T).lifetimeSeconds()).isEqualTo(Freshness.DEFAULT_HEURISTIC_CAP_SECONDS);
        assertThat(Freshness.of(m, T, 600).lifetimeSeconds()).isEqualTo(600);
    }

    @Test
    void heuristicNeedsACacheableStatusOrPublicAndALastModified() {
        assertThat(Freshness.of(stored(302, T, T, "Date", date(T), "Last-Modified", date(T - 1000 * S)), T)
                .lifetimeSeconds()).isZero();
        assertThat(Freshness.of(stored(302, T, T, "Date", date(T), "Last-Modified", date(T - 1000 * S)), T)
                .heuristic()).isFalse();
        assertThat(Freshness.of(stored(302, T, T, "Date", date(T), "Last-Modified", date(T - 1000 * S),
                "Cache-Control", "public"), T).lifetimeSeconds()).isEqualTo(100);
        Freshness noLastModified = Freshness.of(stored("Date", date(T)), T);
        assertThat(noLastModified.heuristic()).isTrue();
        assertThat(noLastModified.lifetimeSeconds()).isZero();
        assertThat(Freshness.of(stored("Date", date(T), "Last-Modified", date(T + 1000 * S)), T).lifetimeSeconds())
                .as("Last-Modified after Date").isZero();
    }

    @Test
    void expiresAtIsWhenFreshnessEnds() {
        ObjectMetadata m = stored(200, T - 2 * S, T, "Date", date(T - 10 * S), "Age", "30",
                "Cache-Control", "max-age=60");
        long expiresAt = Freshness.expiresAtMillis(m.status(), m.headers(), m.requestTimeMillis(), m.responseTimeMillis());
        assertThat(expiresAt).isEqualTo(T + 28 * S); // lifetime 60 - initial age 32
        assertThat(Freshness.expiresAtMillis(m)).isEqualTo(expiresAt);
        assertThat(Freshness.of(m, expiresAt - 1).isFresh()).isTrue();
        assertThat(Freshness.of(m, expiresAt).isFresh()).isFalse();
        assertThat(Freshness.of(m, T).expiresAtMillis()).isEqualTo(expiresAt);
    }

    @Property(tries = 300)
    void freshExactlyBeforeExpiresAt(@ForAll @LongRange(max = 100_000) long maxAge,
                                     @ForAll @LongRange(max = 10_000) long ageField,
                                     @ForAll @LongRange(max = 5_000) long delayMillis,
                                     @ForAll @LongRange(max = 200_000) long dateLagSeconds,
                                     @ForAll @LongRange(max = 400_000_000) long residentMillis) {
        ObjectMetadata m = stored(200, T - delayMillis, T, "Date", date(T - dateLagSeconds * S),
                "Age", Long.toString(ageField), "Cache-Control", "max-age=" + maxAge);
        long now = T + residentMillis;
        Freshness f = Freshness.of(m, now);
        assertThat(f.isFresh()).isEqualTo(now < Freshness.expiresAtMillis(m));
        assertThat(f.currentAgeSeconds()).isGreaterThanOrEqualTo(Math.max(ageField, dateLagSeconds));
        assertThat(f.isFresh() ? f.stalenessSeconds() : f.remainingSeconds()).isZero();
    }

    @Test
    void satisfiesAFreshResponseUnlessNoCache() {
        Freshness f = Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100"), T + 10 * S);
        assertThat(f.satisfies(CacheControl.NONE)).isTrue();
        assertThat(f.satisfies(cc("no-cache"))).isFalse();
        Freshness noCache = Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100, no-cache"), T);
        assertThat(noCache.isFresh()).isTrue();
        assertThat(noCache.satisfies(CacheControl.NONE)).as("response no-cache always revalidates").isFalse();
    }

    @Test
    void requestMaxAgeBoundsTheAge() {
        Freshness f = Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100"), T + 10 * S);
        assertThat(f.satisfies(cc("max-age=10"))).isTrue();
        assertThat(f.satisfies(cc("max-age=9"))).isFalse();
        assertThat(f.satisfies(cc("max-age=0"))).isFalse();
        assertThat(Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100"), T)
                .satisfies(cc("max-age=0"))).isTrue();
    }

    @Test
    void requestMinFreshNeedsThatMuchFreshnessLeft() {
        Freshness f = Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100"), T + 10 * S);
        assertThat(f.satisfies(cc("min-fresh=90"))).isTrue();
        assertThat(f.satisfies(cc("min-fresh=91"))).isFalse();
    }

    @Test
    void requestMaxStaleAcceptsBoundedStaleness() {
        Freshness f = Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100"), T + 130 * S);
        assertThat(f.satisfies(CacheControl.NONE)).isFalse();
        assertThat(f.satisfies(cc("max-stale=30"))).isTrue();
        assertThat(f.satisfies(cc("max-stale=29"))).isFalse();
        assertThat(f.satisfies(cc("max-stale"))).isTrue();
        assertThat(f.satisfies(cc("max-stale, max-age=60"))).as("max-age still bounds the age").isFalse();
        assertThat(f.mayServeStale(f.cacheControl(), cc("max-stale=30"))).isTrue();
        assertThat(f.mayServeStale(f.cacheControl(), CacheControl.NONE)).isFalse();
    }

    @Test
    void revalidationDirectivesForbidServingStale() {
        for (String directive : List.of("must-revalidate", "proxy-revalidate", "s-maxage=100", "no-cache")) {
            Freshness f = Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100, " + directive), T + 130 * S);
            assertThat(f.isFresh()).isFalse();
            assertThat(f.satisfies(cc("max-stale"))).as(directive).isFalse();
            assertThat(f.mayServeStale(f.cacheControl(), cc("max-stale"))).as(directive).isFalse();
            assertThat(f.mayServeStaleOnError(cc("stale-if-error=1000, " + directive), cc("stale-if-error=1000")))
                    .as(directive).isFalse();
        }
    }

    @Test
    void freshResponsesNeedNoStaleAllowance() {
        Freshness f = Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100"), T);
        assertThat(f.mayServeStale(f.cacheControl(), cc("max-stale"))).isFalse();
        assertThat(f.mayServeStaleOnError(f.cacheControl(), CacheControl.NONE)).isTrue();
    }

    @Test
    void staleIfErrorFromResponseOrRequestWithinItsWindow() {
        Freshness f = Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100, stale-if-error=60"), T + 130 * S);
        assertThat(f.mayServeStaleOnError(f.cacheControl(), CacheControl.NONE)).isTrue();
        Freshness later = Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100, stale-if-error=60"),
                T + 161 * S);
        assertThat(later.mayServeStaleOnError(later.cacheControl(), CacheControl.NONE)).isFalse();
        assertThat(later.mayServeStaleOnError(later.cacheControl(), cc("stale-if-error=61"))).isTrue();
        Freshness plain = Freshness.of(stored("Date", date(T), "Cache-Control", "max-age=100"), T + 130 * S);
        assertThat(plain.mayServeStaleOnError(plain.cacheControl(), CacheControl.NONE)).isFalse();
        assertThat(plain.mayServeStaleOnError(plain.cacheControl(), cc("stale-if-error=30"))).isTrue();
        assertThat(plain.mayServeStaleOnError(plain.cacheControl(), cc("stale-if-error=29"))).isFalse();
    }

    @Test
    void staleWhileRevalidateWithinItsWindow() {
        ObjectMetadata m = stored("Date", date(T), "Cache-Control", "max-age=100, stale-while-revalidate=30");
        Freshness f = Freshness.of(m, T + 130 * S);
        assertThat(f.mayServeStaleWhileRevalidate(f.cacheControl())).isTrue();
        Freshness later = Freshness.of(m, T + 131 * S);
        assertThat(later.mayServeStaleWhileRevalidate(later.cacheControl())).isFalse();
        assertThat(Freshness.of(m, T).mayServeStaleWhileRevalidate(f.cacheControl())).isFalse();
        ObjectMetadata strict = stored("Date", date(T),
                "Cache-Control", "max-age=100, stale-while-revalidate=30, must-revalidate");
        Freshness s = Freshness.of(strict, T + 110 * S);
        assertThat(s.mayServeStaleWhileRevalidate(s.cacheControl())).isFalse();
    }
}
