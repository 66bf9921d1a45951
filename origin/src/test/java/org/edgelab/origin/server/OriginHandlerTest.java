package org.edgelab.origin.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.content.ContentVerifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The handler alone on an EmbeddedChannel: what it writes, in which pieces, and when. */
class OriginHandlerTest {

    private final List<Object> written = new ArrayList<>();
    private final OriginCounters counters = new OriginCounters();
    private EmbeddedChannel channel;

    @AfterEach
    void release() {
        written.forEach(ReferenceCountUtil::release);
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    private EmbeddedChannel channel(OriginConfig config) {
        channel = new EmbeddedChannel(new OriginHandler(config,
                config.filesRoot() == null ? null : new FilesRoot(config.filesRoot()), counters));
        return channel;
    }

    private static FullHttpRequest request(HttpMethod method, String uri) {
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri);
    }

    private List<Object> drain() {
        List<Object> out = new ArrayList<>();
        for (Object msg = channel.readOutbound(); msg != null; msg = channel.readOutbound()) {
            out.add(msg);
            written.add(msg);
        }
        return out;
    }

    @Test
    void syntheticBodiesGoOutInBoundedChunksThatVerify() {
        channel(OriginConfig.builder().build()).writeInbound(request(HttpMethod.GET, "/objects/200000/chunks"));
        List<Object> out = drain();
        assertThat(out.get(0)).isInstanceOf(HttpResponse.class);
        assertThat(((HttpResponse) out.get(0)).status().code()).isEqualTo(200);
        ContentVerifier verifier = new ContentVerifier("chunks", 0);
        for (Object msg : out.subList(1, out.size() - 1)) {
            HttpContent content = (HttpContent) msg;
            assertThat(content.content().readableBytes()).isBetween(1, ResponseWriter.CHUNK_SIZE);
            verifier.update(content.content());
        }
        assertThat(verifier.ok()).isTrue();
        assertThat(verifier.position()).isEqualTo(200_000);
        assertThat(out.get(out.size() - 1)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(counters.snapshot().bytesSent()).isEqualTo(200_000);
    }

    @Test
    void aLargeBodyYieldsTheEventLoopBetweenBurstsOfChunks() {
        // A task queued while the first chunk is written must run long before the body ends: a
        // fast reader cannot monopolise the event loop its connection shares with others.
        int[] writes = {0};
        int[] writesWhenTaskRan = {-1};
        ChannelOutboundHandlerAdapter recorder = new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                if (++writes[0] == 2) {
                    ctx.executor().execute(() -> writesWhenTaskRan[0] = writes[0]);
                }
                ctx.write(msg, promise);
            }
        };
        channel = new EmbeddedChannel(recorder, new OriginHandler(OriginConfig.builder().build(), null, counters));
        channel.writeInbound(request(HttpMethod.GET, "/objects/10MiB/burst"));
        // Each turn continues after the loop's next I/O poll (LoopTurns: a task scheduled with no delay).
        for (int turn = 0; turn < 100; turn++) {
            channel.runPendingTasks();
            channel.runScheduledPendingTasks();
        }
        ContentVerifier verifier = new ContentVerifier("burst", 0);
        List<Object> out = drain();
        for (Object msg : out.subList(1, out.size() - 1)) {
            verifier.update(((HttpContent) msg).content());
        }
        assertThat(verifier.ok()).isTrue();
        assertThat(verifier.position()).isEqualTo(10L << 20);
        assertThat(out).hasSize(1 + 160 + 1);
        assertThat(writesWhenTaskRan[0]).isBetween(2, 40);
    }

    @Test
    void aFileGoesOutAsAFileRegion(@TempDir Path root) throws Exception {
        Files.write(root.resolve("f.bin"), new byte[12345]);
        channel(OriginConfig.builder().filesRoot(root).build()).writeInbound(request(HttpMethod.GET, "/f.bin"));
        List<Object> out = drain();
        assertThat(out).hasSize(3);
        assertThat(out.get(1)).isInstanceOf(DefaultFileRegion.class);
        assertThat(((DefaultFileRegion) out.get(1)).count()).isEqualTo(12345);
    }

    @Test
    void theFirstByteWaitsForTheScheduledDelayWithoutBlocking() {
        channel(OriginConfig.builder().build()).writeInbound(request(HttpMethod.GET, "/objects/10/d?first-byte-delay=5s"));
        assertThat(drain()).isEmpty();
        channel.advanceTimeBy(4, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat(drain()).isEmpty();
        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat(drain()).hasSize(3);
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() {
        channel(OriginConfig.builder().build());
        channel.writeInbound(request(HttpMethod.GET, "/objects/10/first?first-byte-delay=1s"),
                request(HttpMethod.GET, "/objects/10/second"));
        assertThat(drain()).isEmpty();
        channel.advanceTimeBy(1, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        List<Object> out = drain();
        long heads = out.stream().filter(HttpResponse.class::isInstance).count();
        assertThat(heads).isEqualTo(2);
        assertThat(out).hasSize(6);
    }

    @Test
    void decoderFailuresAre400AndClose() {
        FullHttpRequest bad = request(HttpMethod.GET, "/bad-request");
        bad.setDecoderResult(DecoderResult.failure(new IllegalArgumentException("invalid version format")));
        channel(OriginConfig.builder().build()).writeInbound(bad);
        List<Object> out = drain();
        assertThat(((HttpResponse) out.get(0)).status().code()).isEqualTo(400);
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void otherMethodsAre405() {
        channel(OriginConfig.builder().build()).writeInbound(request(HttpMethod.DELETE, "/objects/10/x"));
        HttpResponse response = (HttpResponse) drain().get(0);
        assertThat(response.status().code()).isEqualTo(405);
        assertThat(response.headers().get("Allow")).isEqualTo("GET, HEAD");
    }
}
