package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.verified;
import static org.edgelab.cache.server.CacheFixture.xcache;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.edgelab.origin.content.SyntheticPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Stale objects: revalidation with the origin's 304, and stale-if-error when the origin is gone. */
@ParameterizedClass(name = "{0}")
@MethodSource("org.edgelab.cache.server.Engines#names")
class RevalidationTest {

    @Parameter
    String engine;

    @Test
    void aStaleObjectIsRevalidatedWithItsValidatorsAndRefreshedByA304() throws Exception {
        try (CacheFixture f = new CacheFixture(engine)) {
            String path = SyntheticPaths.path("reval", 40_000) + "?cache-control=max-age=2";
            HttpResponse<byte[]> first = f.get(path);
            assertThat(xcache(first)).isEqualTo("MISS");
            assertThat(xcache(f.get(path))).isEqualTo("HIT");
            // Date has one-second resolution, so the object is stale 3 s on.
            f.clock.advance(Duration.ofMillis(3100));
            HttpResponse<byte[]> revalidated = f.get(path);
            assertThat(revalidated.statusCode()).isEqualTo(200);
            assertThat(xcache(revalidated)).isEqualTo("HIT-REVALIDATED");
            assertThat(revalidated.body()).hasSize(40_000);
            assertThat(verified("reval", 0, revalidated.body())).isTrue();
            // The origin saw one fill and one conditional request answered with 304.
            assertThat(f.origin.stats().requests()).isEqualTo(2);
            assertThat(f.origin.stats().responses(304)).isEqualTo(1);
            // The 304 refreshed the stored headers: fresh again.
            HttpResponse<byte[]> after = f.get(path);
            assertThat(xcache(after)).isEqualTo("HIT");
            assertThat(after.headers().firstValue("Age").map(Long::parseLong).orElseThrow()).isLessThan(2);
            assertThat(f.cache.stats().snapshot(f.store).revalidations()).isEqualTo(1);
        }
    }

    @Test
    void aStaleCopyIsServedWhenTheOriginFailsAndStaleIfErrorAllowsIt() throws Exception {
        try (CacheFixture f = new CacheFixture(engine)) {
            String allowed = SyntheticPaths.path("sie", 30_000) + "?cache-control=max-age=1,%20stale-if-error=600";
            String forbidden = SyntheticPaths.path("nosie", 30_000) + "?cache-control=max-age=1";
            assertThat(xcache(f.get(allowed))).isEqualTo("MISS");
            assertThat(xcache(f.get(forbidden))).isEqualTo("MISS");
            f.clock.advance(Duration.ofMillis(2100));
            f.origin.close();
            HttpResponse<byte[]> stale = f.get(allowed);
            assertThat(stale.statusCode()).isEqualTo(200);
            assertThat(xcache(stale)).isEqualTo("HIT-STALE");
            assertThat(verified("sie", 0, stale.body())).isTrue();
            HttpResponse<byte[]> error = f.get(forbidden);
            assertThat(error.statusCode()).isEqualTo(502);
            assertThat(f.cache.stats().snapshot(f.store).originErrors()).isGreaterThanOrEqualTo(2);
        }
    }
}
