package org.edgelab.cache.server;

import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * The per-connection request handler: receives requests from the HTTP decoder, validates each
 * one's target and Host ({@link RequestTarget}: a 400 otherwise), answers them one at a time in
 * arrival order (pipelining-safe), forwards writability to the response in progress, and closes
 * the connection when idle, on a bad request, or when a response asks for it. Bodies of
 * GET/HEAD requests are dropped; bodies of other methods are collected up to a limit and forwarded.
 * Confined to its channel's event loop.
 */
final class CacheRequestHandler extends ChannelInboundHandlerAdapter {

    /** Requests queued behind the one being answered before reading pauses. */
    private static final int MAX_QUEUED = 16;

    private final ServerContext sc;
    private final RequestHeaderTimeout headerTimeout;
    private final ArrayDeque<RequestExchange> queue = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private RequestExchange receiving;
    private CompositeByteBuf receivingBody;
    private RequestExchange current;
    private boolean rejecting;

    CacheRequestHandler(ServerContext sc, RequestHeaderTimeout headerTimeout) {
        this.sc = sc;
        this.headerTimeout = headerTimeout;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        sc.stats().connectionOpened();
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (rejecting) {
                return;
            }
            if (msg instanceof HttpRequest req) {
                if (headerTimeout != null) {
                    headerTimeout.headersReceived();
                }
                if (!req.decoderResult().isSuccess()) {
                    reject(req, req.decoderResult().cause());
                    return;
                }
                RequestTarget.Parsed parsed = RequestTarget.parse(req, sc.config().originAuthority());
                if (parsed.target() == null) {
                    rejectWith(req, HttpResponseStatus.BAD_REQUEST, parsed.rejection());
                    return;
                }
                parsed.target().applyTo(req);
                receiving = new RequestExchange(this, sc, ctx.channel(), req, parsed.target());
                if (wantsBody(req)) {
                    receivingBody = ctx.alloc().compositeBuffer();
                }
            }
            if (msg instanceof HttpContent content && receiving != null) {
                if (!content.decoderResult().isSuccess()) {
                    reject(receiving.request(), content.decoderResult().cause());
                    return;
                }
                if (receivingBody != null && content.content().isReadable()) {
                    if (receivingBody.readableBytes() + content.content().readableBytes() > sc.config().maxRequestBody()) {
                        receivingBody.release();
                        receivingBody = null;
                        rejectWith(receiving.request(), HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                                "request body larger than " + sc.config().maxRequestBody() + " bytes");
                        return;
                    }
                    receivingBody.addComponent(true, content.content().retain());
                }
                if (content instanceof LastHttpContent) {
                    if (headerTimeout != null) {
                        headerTimeout.requestReceived();
                    }
                    receiving.body(receivingBody);
                    receivingBody = null;
                    enqueue(receiving);
                    receiving = null;
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private static boolean wantsBody(HttpRequest req) {
        HttpMethod m = req.method();
        return !HttpMethod.GET.equals(m) && !HttpMethod.HEAD.equals(m);
    }

    private void reject(HttpRequest req, Throwable cause) {
        HttpResponseStatus status;
        if (cause instanceof TooLongHttpLineException) {
            status = HttpResponseStatus.REQUEST_URI_TOO_LONG;
        } else if (cause instanceof TooLongHttpHeaderException) {
            status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        } else if (cause instanceof TooLongFrameException) {
            status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        } else {
            status = HttpResponseStatus.BAD_REQUEST;
        }
        rejectWith(req, status, "malformed request: " + (cause == null ? "unknown" : cause.getMessage()));
    }

    private void rejectWith(HttpRequest req, HttpResponseStatus status, String reason) {
        rejecting = true;
        if (receivingBody != null) {
            receivingBody.release();
            receivingBody = null;
        }
        receiving = null;
        ctx.channel().config().setAutoRead(false);
        enqueue(RequestExchange.rejection(this, sc, ctx.channel(), req, status, reason));
    }

    private void enqueue(RequestExchange ex) {
        queue.addLast(ex);
        if (queue.size() >= MAX_QUEUED) {
            ctx.channel().config().setAutoRead(false);
        }
        startNext();
    }

    private void startNext() {
        while (current == null && !queue.isEmpty() && ctx.channel().isActive()) {
            current = queue.pollFirst();
            current.start();
        }
        if (current == null && queue.isEmpty() && !rejecting && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** Called by the exchange in progress when its response is fully written (or abandoned). */
    void exchangeDone(RequestExchange ex, boolean keepConnection) {
        if (ex != current) {
            return;
        }
        current = null;
        if (!keepConnection || ex.isRejection()) {
            ctx.close();
            return;
        }
        startNext();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (current != null) {
            current.writabilityChanged();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        sc.stats().connectionClosed();
        if (receivingBody != null) {
            receivingBody.release();
            receivingBody = null;
        }
        RequestExchange c = current;
        current = null;
        if (c != null) {
            c.abandon();
        }
        RequestExchange q;
        while ((q = queue.pollFirst()) != null) {
            q.abandon();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
