package org.edgelab.cache.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection whose request headers trickle in for longer than the limit (slowloris).
 * Sits before the HTTP decoder; the request handler tells it when headers arrive and when a request
 * ends. A timer is armed only when a read leaves a request's headers incomplete, so complete
 * requests cost nothing. Confined to its channel's event loop.
 */
final class RequestHeaderTimeout extends ChannelInboundHandlerAdapter {

    private final long timeoutNanos;
    private ChannelHandlerContext ctx;
    private boolean awaitingHeaders = true;
    private long headers;
    private long startNanos;
    private ScheduledFuture<?> timer;

    RequestHeaderTimeout(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        long before = headers;
        boolean wasAwaiting = awaitingHeaders;
        ctx.fireChannelRead(msg);
        if (wasAwaiting && awaitingHeaders && headers == before) {
            if (startNanos == 0) {
                startNanos = System.nanoTime();
            }
            if (timer == null) {
                timer = ctx.executor().schedule(this::check, timeoutNanos, TimeUnit.NANOSECONDS);
            }
        }
    }

    /** A request's headers were decoded: stop timing. */
    void headersReceived() {
        headers++;
        awaitingHeaders = false;
        startNanos = 0;
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** A request (with its body) was fully received: the next bytes start the next request. */
    void requestReceived() {
        awaitingHeaders = true;
    }

    private void check() {
        timer = null;
        if (!awaitingHeaders || startNanos == 0) {
            return;
        }
        long elapsed = System.nanoTime() - startNanos;
        if (elapsed >= timeoutNanos) {
            ctx.close();
        } else {
            timer = ctx.executor().schedule(this::check, timeoutNanos - elapsed, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        super.channelInactive(ctx);
    }
}
