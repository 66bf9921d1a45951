package org.edgelab.cache.origin;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One keep-alive connection to the origin carrying one exchange at a time, with the response
 * timeout (no data for that long while reading fails the exchange). Confined to its channel's
 * event loop, except {@link OriginExchange} calls which are handed to it.
 */
final class OriginConnection extends ChannelInboundHandlerAdapter implements OriginExchange {

    private final HostClient host;
    private final OriginPool pool;
    private final long responseTimeoutNanos;
    private Channel channel;
    private OriginResponseListener listener;
    private HttpRequest request;
    /** The exchange is on a reused connection and may be sent again on a new one if it goes stale. */
    private boolean retryIfStale;
    private boolean headersSeen;
    private boolean keepAlive;
    private boolean reading = true;
    private long lastActivityNanos;
    private ScheduledFuture<?> timeoutTask;
    /** Made once per connection, not per exchange: the timeout check and the request write's outcome. */
    private final Runnable timeoutCheck = this::checkTimeout;
    private final ChannelFutureListener written = done -> {
        if (!done.isSuccess()) {
            fail(new OriginException(OriginException.Kind.BROKEN, "could not send the request to the origin",
                    done.cause()));
        }
    };

    OriginConnection(HostClient host, OriginPool pool, long responseTimeoutNanos) {
        this.host = host;
        this.pool = pool;
        this.responseTimeoutNanos = responseTimeoutNanos;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    /** The channel this connection is the handler of (set once it is added to the pipeline). */
    Channel channel() {
        return channel;
    }

    /**
     * Sends a request on this (idle, active) connection; {@code retryIfStale} (an idempotent request on a
     * reused connection) sends it again on a new connection if this one fails before any response byte.
     */
    void start(HttpRequest req, ByteBuf body, OriginResponseListener l, boolean retryIfStale) {
        this.listener = l;
        this.request = req;
        this.retryIfStale = retryIfStale;
        this.headersSeen = false;
        this.keepAlive = HttpUtil.isKeepAlive(req);
        this.reading = true;
        channel.config().setAutoRead(true);
        lastActivityNanos = System.nanoTime();
        timeoutTask = channel.eventLoop().schedule(timeoutCheck, responseTimeoutNanos, TimeUnit.NANOSECONDS);
        channel.write(req);
        channel.writeAndFlush(body == null ? LastHttpContent.EMPTY_LAST_CONTENT : new DefaultLastHttpContent(body))
                .addListener(written);
    }

    private void checkTimeout() {
        if (listener == null) {
            return;
        }
        long idle = System.nanoTime() - lastActivityNanos;
        if (!reading || idle < responseTimeoutNanos) {
            long wait = reading ? responseTimeoutNanos - idle : responseTimeoutNanos;
            timeoutTask = channel.eventLoop().schedule(timeoutCheck, wait, TimeUnit.NANOSECONDS);
            return;
        }
        fail(new OriginException(OriginException.Kind.TIMEOUT, "the origin sent nothing for "
                + TimeUnit.NANOSECONDS.toMillis(responseTimeoutNanos) + " ms", null));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        OriginResponseListener l = listener;
        if (l == null) {
            ReferenceCountUtil.release(msg);
            ctx.close();
            return;
        }
        lastActivityNanos = System.nanoTime();
        if (msg instanceof HttpResponse resp) {
            if (!resp.decoderResult().isSuccess()) {
                ReferenceCountUtil.release(msg);
                fail(new OriginException(OriginException.Kind.BROKEN, "unparsable origin response",
                        resp.decoderResult().cause()));
                return;
            }
            if (resp.status().code() < 200) {
                // informational (100 Continue): skip to the final response
                ReferenceCountUtil.release(msg);
                return;
            }
            headersSeen = true;
            keepAlive &= HttpUtil.isKeepAlive(resp);
            l.onResponse(resp, this);
        }
        if (msg instanceof HttpContent content && listener == l) {
            boolean last = content instanceof LastHttpContent;
            if (!content.decoderResult().isSuccess()) {
                content.release();
                fail(new OriginException(OriginException.Kind.BROKEN, "the origin response body was cut short",
                        content.decoderResult().cause()));
                return;
            }
            if (last) {
                finish();
            }
            l.onContent(content, last);
        } else if (msg instanceof HttpContent content) {
            content.release();
        }
    }

    private void finish() {
        cancelTimeout();
        listener = null;
        request = null;
        if (!reading) {
            reading = true;
            channel.config().setAutoRead(true);
        }
        if (keepAlive && channel.isActive()) {
            pool.release(this);
        } else {
            channel.close();
        }
    }

    private void fail(OriginException cause) {
        OriginResponseListener l = listener;
        if (l == null) {
            return;
        }
        cancelTimeout();
        listener = null;
        HttpRequest req = request;
        request = null;
        channel.close();
        if (!headersSeen && retryIfStale && cause.kind() == OriginException.Kind.BROKEN) {
            host.retryOnNewConnection(channel.eventLoop(), pool, req, l);
            return;
        }
        host.failed();
        l.onFailure(cause, headersSeen);
    }

    private void cancelTimeout() {
        if (timeoutTask != null) {
            timeoutTask.cancel(false);
            timeoutTask = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        pool.forget(this);
        fail(new OriginException(OriginException.Kind.BROKEN, "the origin closed the connection",
                new ClosedChannelException()));
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(new OriginException(OriginException.Kind.BROKEN, "origin connection failed: " + cause, cause));
        ctx.close();
    }

    @Override
    public void setReading(boolean on) {
        if (!channel.eventLoop().inEventLoop()) {
            channel.eventLoop().execute(() -> setReading(on));
            return;
        }
        if (listener == null || reading == on) {
            return;
        }
        reading = on;
        lastActivityNanos = System.nanoTime();
        channel.config().setAutoRead(on);
    }

    @Override
    public void abort() {
        if (!channel.eventLoop().inEventLoop()) {
            channel.eventLoop().execute(this::abort);
            return;
        }
        cancelTimeout();
        listener = null;
        request = null;
        channel.close();
    }
}
