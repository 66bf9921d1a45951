package org.edgelab.loadgen;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * A one-thread HTTP server answering every request with 100 bytes, which freezes its only event loop
 * for a set time when it receives request number {@code stallAt}: every connection stalls at once, as a
 * server does during a GC pause. Test helper; thread-safe.
 */
final class StallingServer implements AutoCloseable {
    private final AtomicInteger requests = new AtomicInteger();
    private final LoopbackServer server;

    StallingServer(int stallAt, long stallMillis) throws InterruptedException {
        server = new LoopbackServer(false, (ctx, request) -> {
            if (requests.incrementAndGet() == stallAt) {
                TimeUnit.MILLISECONDS.sleep(stallMillis);
            }
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.OK, Unpooled.wrappedBuffer(new byte[100]));
            response.headers().set(HttpHeaderNames.CONTENT_LENGTH, 100);
            ctx.writeAndFlush(response);
        });
    }

    int port() {
        return server.port();
    }

    int requests() {
        return requests.get();
    }

    @Override
    public void close() {
        server.close();
    }
}
