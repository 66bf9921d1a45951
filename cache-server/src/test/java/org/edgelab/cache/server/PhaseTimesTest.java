package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.xcache;

import java.net.http.HttpResponse;
import java.util.Map;
import org.edgelab.cache.admin.PhaseTimes;
import org.edgelab.cache.admin.PhaseTimes.Phase;
import org.edgelab.origin.content.SyntheticPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** The server times the phases of a miss and of a hit, over real sockets, against an origin that answers late on purpose. */
@ParameterizedClass(name = "{0}")
@MethodSource("org.edgelab.cache.server.Engines#names")
class PhaseTimesTest {

    @Parameter
    String engine;

    @Test
    void aMissSplitsIntoOriginWaitAndHandOverAndAHitIsTimedOnItsOwn() throws Exception {
        try (CacheFixture f = new CacheFixture(engine)) {
            String path = SyntheticPaths.path("phases", 200_000) + "?first-byte-delay=150ms";
            HttpResponse<byte[]> miss = f.get(path);
            HttpResponse<byte[]> hit = f.get(path);
            assertThat(xcache(miss)).isEqualTo("MISS");
            assertThat(xcache(hit)).isEqualTo("HIT");

            PhaseTimes phases = f.cache.stats().phases();
            long delay = 150_000_000L;
            // the origin's 150 ms are inside the miss's origin wait and its first write, not inside the hand-over
            assertThat(phases.histogram(Phase.MISS_ORIGIN_HEADERS).getTotalCount()).isEqualTo(1);
            assertThat(phases.histogram(Phase.MISS_ORIGIN_HEADERS).getMinValue()).isGreaterThanOrEqualTo(delay);
            assertThat(phases.histogram(Phase.MISS_FIRST_WRITE).getTotalCount()).isEqualTo(1);
            assertThat(phases.histogram(Phase.MISS_FIRST_WRITE).getMinValue())
                    .isGreaterThanOrEqualTo(phases.histogram(Phase.MISS_ORIGIN_HEADERS).getMinValue());
            assertThat(phases.histogram(Phase.MISS_HANDOFF).getTotalCount()).isEqualTo(1);
            assertThat(phases.histogram(Phase.MISS_HANDOFF).getMaxValue()).isLessThan(delay);
            assertThat(phases.histogram(Phase.HIT_FIRST_WRITE).getTotalCount()).isEqualTo(1);
            assertThat(phases.histogram(Phase.HIT_FIRST_WRITE).getMaxValue()).isLessThan(delay);

            Map<String, PhaseTimes.Summary> summaries = f.cache.stats().snapshot(f.store).phaseMillis();
            assertThat(summaries.keySet()).containsExactly("hit_first_write", "miss_first_write",
                    "miss_origin_headers", "miss_handoff", "loop_delay");
            // the server's loops are probed while it runs (every 10 ms; the miss alone took 150 ms)
            assertThat(summaries.get("loop_delay").count()).isPositive();
            assertThat(summaries.get("miss_origin_headers").p50Ms()).isGreaterThanOrEqualTo(150.0);
            assertThat(summaries.get("miss_origin_headers").count()).isEqualTo(1);
        }
    }
}
