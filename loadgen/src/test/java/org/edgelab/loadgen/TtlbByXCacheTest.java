package org.edgelab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The time to last byte split by X-Cache: a miss whose body ends late shows in the misses' TTLB and not the hits', and
 * every completed response is in exactly one of the two.
 */
class TtlbByXCacheTest {
    private static final int MISS_EVERY = 5;
    private static final long MISS_TAIL_MS = 150;

    @Test
    void slowMissBodiesShowInTheMissesTtlbAlone() throws Exception {
        // every fifth request: a MISS head and half its body at once, the rest 150 ms later; the others a whole HIT
        AtomicInteger requests = new AtomicInteger();
        try (LoopbackServer server = new LoopbackServer(true, (ctx, request) -> {
            boolean miss = requests.incrementAndGet() % MISS_EVERY == 0;
            ctx.writeAndFlush(UnfinishedMissTest.response(ctx, miss));
            if (miss) {
                ctx.executor().schedule(() -> ctx.writeAndFlush(ctx.alloc().buffer().writeZero(UnfinishedMissTest.BODY / 2)),
                        MISS_TAIL_MS, TimeUnit.MILLISECONDS);
            }
        })) {
            LoadResult r = LoadRunner.run(LoadConfig.builder().url(server.url() + "/any")
                    .connections(2).threads(1).duration(Duration.ofMillis(1200)).timeout(Duration.ofSeconds(10))
                    .verify(false).build());

            long completed = r.counters().completed();
            assertThat(r.ttlbMiss().getTotalCount()).isPositive();
            assertThat(r.ttlbHit().getTotalCount()).isGreaterThan(r.ttlbMiss().getTotalCount());
            assertThat(r.ttlbHit().getTotalCount() + r.ttlbMiss().getTotalCount()).isEqualTo(completed);
            long tail = TimeUnit.MILLISECONDS.toNanos(MISS_TAIL_MS);
            assertThat(r.ttlbMiss().getMinValue()).as("every miss ended at least 150 ms after it was due").isGreaterThanOrEqualTo(tail);
            assertThat(r.ttlbHit().getValueAtPercentile(99)).as("hits end at once").isLessThan(tail);
            // their first bytes came at once: the misses' TTFB does not carry the late body
            assertThat(r.ttfbMiss().getValueAtPercentile(50)).isLessThan(tail);
        }
    }
}
