package org.edgelab.loadgen.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.LoopbackServer;
import org.edgelab.loadgen.Warm;
import org.edgelab.loadgen.workload.FixedUrlWorkload;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.junit.jupiter.api.Test;

/**
 * The user-space link is one link for the whole load: its cap holds for the sum of all connections (the
 * per-connection emulation let 10 connections through a "1gbit" link at 4.53 Gbit/s), the server behind it
 * sees a slow reader, and the result says which emulation carried how much.
 */
class SharedLinkTest {
    private static final long RATE = 80_000_000L; // 10 MB/s: well below what loopback carries in a test JVM

    @Test
    void tenConnectionsShareOneLinkRateNotTenTimesIt() throws Exception {
        Warm.up();
        // 256 KB objects: the responses still in flight at the deadline, which do not count as goodput, are at
        // most 2.5 MB, a quarter of a second of the link, so a 1.5-s run keeps its goodput well above half the cap
        try (OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).ioThreads(1).build())) {
            LoadResult r = LoadRunner.run(LoadConfig.builder().url(origin.baseUri() + "/objects/256KB/shared")
                    .connections(10).threads(2).duration(Duration.ofMillis(1500)).timeout(Duration.ofSeconds(10))
                    .link(new LinkEmulation(RATE, Duration.ofMillis(5))).build());
            double goodput = r.goodputBytesPerSecond() * 8;
            assertThat(r.counters().totalErrors()).isZero();
            assertThat(goodput).isLessThanOrEqualTo(RATE * 1.0).isGreaterThan(RATE * 0.5);
            LinkReport link = r.link();
            assertThat(link.emulation()).isEqualTo("user-space");
            assertThat(link.measuredDownBitsPerSecond()).isLessThanOrEqualTo(RATE * 1.0).isGreaterThanOrEqualTo(goodput);
            assertThat(link.measuredUpBitsPerSecond()).isPositive();
            assertThat(link.describe()).contains("user-space link", "80 Mbit/s each way shared by every connection", "+5 ms");
        }
    }

    @Test
    void theServerSeesASlowReaderBehindTheLink() throws Exception {
        // 16 MB through a 10 MB/s link (1.7 s): the socket buffers on both sides and the link's queue hold about
        // 5 MB, so the server's write can only finish once the link has carried most of it, after about 1.2 s
        int size = 16 << 20;
        CompletableFuture<Long> written = new CompletableFuture<>();
        try (LoopbackServer server = new LoopbackServer(false, (ctx, request) -> {
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_LENGTH, size);
            long start = System.nanoTime();
            ctx.write(head);
            ctx.writeAndFlush(new DefaultLastHttpContent(Unpooled.wrappedBuffer(new byte[size])))
                    .addListener(f -> written.complete(System.nanoTime() - start));
        })) {
            LoadResult r = LoadRunner.run(LoadConfig.builder().url(server.url() + "/big").connections(1).threads(1)
                    .duration(Duration.ofSeconds(20)).timeout(Duration.ofSeconds(20)).requests(1).verify(false)
                    .workload(FixedUrlWorkload.of("/big")).link(new LinkEmulation(RATE, Duration.ZERO)).build());
            assertThat(r.counters().goodResponses()).isEqualTo(1);
            double serverSeconds = written.get(1, TimeUnit.SECONDS) / 1e9;
            assertThat(serverSeconds).isGreaterThan(0.5); // unshaped, loopback takes it in well under 0.1 s
            assertThat(r.ttlb().getMaxValue() / 1e9).isGreaterThan(size * 8.0 / RATE * 0.95);
        }
    }

    @Test
    void anUnknownEmulatorFailsNamingTheKnownOnes() {
        assertThatThrownBy(() -> LinkEmulators.open(new LinkEmulation(RATE, Duration.ZERO, "kernel")))
                .hasMessageContaining("unknown link emulator 'kernel'").hasMessageContaining("user-space");
    }
}
