package org.edgelab.loadgen.video;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.edgelab.loadgen.LoopbackServer;
import org.edgelab.origin.content.SyntheticContent;
import org.edgelab.origin.content.SyntheticPaths;

/**
 * A synthetic-object server behind one shared link of {@code bytesPerSecond} (0 = unlimited): each range
 * response leaves when the link has carried every earlier byte, as all clients of one origin NIC share it.
 * One event loop, so the link state needs no locks. Test helper; thread-safe to start and close.
 */
final class PacedServer implements AutoCloseable {
    private final LoopbackServer server;
    private long linkFreeAt;

    PacedServer(long bytesPerSecond) throws InterruptedException {
        server = new LoopbackServer(false, (ctx, request) -> respond(ctx, request, bytesPerSecond));
    }

    private void respond(ChannelHandlerContext ctx, HttpRequest request, long bytesPerSecond) {
        Optional<SyntheticPaths.SyntheticObject> object = SyntheticPaths.parse(request.uri());
        String range = request.headers().get(HttpHeaderNames.RANGE);
        if (object.isEmpty() || range == null || !range.startsWith("bytes=")) {
            FullHttpResponse bad = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_REQUEST);
            bad.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0);
            ctx.writeAndFlush(bad);
            return;
        }
        String[] r = range.substring(6).split("-");
        long start = Long.parseLong(r[0]);
        long end = Math.min(Long.parseLong(r[1]), object.get().size() - 1);
        int length = (int) (end - start + 1);
        ByteBuffer body = ByteBuffer.allocate(length);
        SyntheticContent.fill(SyntheticContent.seed(object.get().id()), start, body);
        body.flip();
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.PARTIAL_CONTENT,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, length);
        response.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes " + start + "-" + end + "/" + object.get().size());
        long now = System.nanoTime();
        long delay = 0;
        if (bytesPerSecond > 0) {
            linkFreeAt = Math.max(now, linkFreeAt) + length * 1_000_000_000L / bytesPerSecond;
            delay = linkFreeAt - now;
        }
        ctx.executor().schedule(() -> ctx.writeAndFlush(response), delay, TimeUnit.NANOSECONDS);
    }

    String url() {
        return server.url();
    }

    @Override
    public void close() {
        server.close();
    }
}
