package org.edgelab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import org.junit.jupiter.api.Test;

/**
 * Slow misses must not drop out of the hit ratio: a miss still in flight at the deadline has told the client
 * it is a miss in its head, and a closed loop whose connections end stuck on misses would otherwise report
 * a hit ratio from the hits alone (the survivorship bias seen at 50 MB objects).
 */
class UnfinishedMissTest {
    static final int BODY = 1000;
    private static final int MISS_EVERY = 10;

    @Test
    void missesInFlightAtTheDeadlineCountInTheHitRatio() throws Exception {
        // every tenth request gets a MISS head and half its body, then silence; the others a whole HIT
        AtomicInteger requests = new AtomicInteger();
        try (LoopbackServer server = new LoopbackServer(true, (ctx, request) ->
                ctx.writeAndFlush(response(ctx, requests.incrementAndGet() % MISS_EVERY == 0)))) {
            LoadResult r = LoadRunner.run(LoadConfig.builder().url(server.url() + "/any")
                    .connections(4).threads(1).duration(Duration.ofMillis(1500)).timeout(Duration.ofSeconds(10))
                    .verify(false).build());

            // requests 10, 20, 30 and 40 are misses that never finish; by then every connection is stuck on one
            assertThat(requests.get()).isEqualTo(40);
            assertThat(r.counters().completed()).isEqualTo(36);
            assertThat(r.counters().unfinished()).isEqualTo(4);
            assertThat(r.counters().totalErrors()).isZero();
            // counting completed responses only would say 36 / 36 = 100 % hits
            assertThat(r.counters().cacheResponses()).isEqualTo(40);
            assertThat(r.counters().hits()).isEqualTo(36);
            assertThat(r.hitRatio()).isEqualTo(0.9);
            // bytes: 36 whole hits against the 4 half bodies that arrived
            assertThat(r.byteHitRatio()).isEqualTo(36.0 * BODY / (36 * BODY + 4 * BODY / 2));
            // the unfinished misses' first bytes did arrive: they are in the miss TTFB, not lost with the response
            assertThat(r.ttfbMiss().getTotalCount()).isEqualTo(4);
            assertThat(r.ttfbHit().getTotalCount()).isEqualTo(36);
            assertThat(r.ttfb().getTotalCount()).isEqualTo(36); // the overall TTFB counts completed responses
            // last bytes only of what completed: the stuck misses have none
            assertThat(r.ttlbHit().getTotalCount()).isEqualTo(36);
            assertThat(r.ttlbMiss().getTotalCount()).isZero();
        }
    }

    /** A response of {@link #BODY} bytes marked HIT, or a MISS head with only the first half of its body. */
    static ByteBuf response(ChannelHandlerContext ctx, boolean miss) {
        String head = "HTTP/1.1 200 OK\r\nContent-Length: " + BODY + "\r\nX-Cache: " + (miss ? "MISS" : "HIT")
                + "\r\n\r\n";
        ByteBuf buf = ctx.alloc().buffer();
        buf.writeCharSequence(head, StandardCharsets.US_ASCII);
        buf.writeZero(miss ? BODY / 2 : BODY);
        return buf;
    }
}
