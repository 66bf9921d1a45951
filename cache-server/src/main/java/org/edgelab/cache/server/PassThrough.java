package org.edgelab.cache.server;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import org.edgelab.cache.admin.CacheStats.Result;
import org.edgelab.cache.http.HopByHop;
import org.edgelab.cache.origin.OriginException;
import org.edgelab.cache.origin.OriginExchange;
import org.edgelab.cache.origin.OriginResponseListener;

/**
 * The pass step of a {@link RequestExchange}: forwards one origin response to the client as it
 * arrives, without storing it, pausing the origin while the client is slow. Built from the
 * response head, which it writes at once; then receives the body. Confined to the client channel's
 * event loop (a caller on another loop hands the calls over: see {@link RequestExchange#passThrough}).
 */
final class PassThrough implements OriginResponseListener {

    private final RequestExchange exchange;
    private final Channel channel;
    private final boolean dropBody;
    private final boolean countOriginBytes;
    private OriginExchange origin;

    /**
     * Writes the head of {@code response}. {@code sameMethod}: the origin answered the client's own
     * method (false for a HEAD answered by a GET fill, whose body is dropped); {@code countOriginBytes}:
     * whether this response's body counts as bytes from the origin (false when a shared fill counts them).
     */
    PassThrough(RequestExchange exchange, HttpResponse response, OriginExchange origin, boolean sameMethod,
                boolean countOriginBytes) {
        this.exchange = exchange;
        this.channel = exchange.channel();
        this.origin = origin;
        this.countOriginBytes = countOriginBytes;
        boolean head = exchange.isHead();
        HttpResponse resp = new DefaultHttpResponse(HttpVersion.HTTP_1_1, response.status());
        resp.headers().set(response.headers());
        HopByHop.strip(resp.headers());
        boolean noBody = head || response.status().code() == 204 || response.status().code() == 304;
        this.dropBody = head && !sameMethod;
        if (!noBody && !HttpUtil.isContentLengthSet(response)) {
            HttpUtil.setTransferEncodingChunked(resp, true);
        } else if (dropBody) {
            resp.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
        }
        if (!resp.headers().contains(HttpHeaderNames.AGE)) {
            resp.headers().setInt(HttpHeaderNames.AGE, 0);
        }
        exchange.decorate(resp, Result.PASS);
        exchange.context().stats().response(Result.PASS, response.status().code());
        channel.writeAndFlush(resp);
    }

    @Override
    public void onResponse(HttpResponse r, OriginExchange e) {
        throw new IllegalStateException("headers already received");
    }

    @Override
    public void onContent(HttpContent content, boolean last) {
        if (exchange.isFinished()) {
            content.release();
            return;
        }
        int n = content.content().readableBytes();
        if (countOriginBytes) {
            exchange.context().stats().bytesFromOrigin(n);
        }
        Object out = content;
        if (dropBody) {
            content.release();
            out = last ? LastHttpContent.EMPTY_LAST_CONTENT : null;
        } else {
            exchange.context().stats().bytesToClients(n);
        }
        if (last) {
            origin = null;
            channel.writeAndFlush(out).addListener(f -> exchange.done(f.isSuccess() && exchange.keepAlive()));
        } else if (out != null) {
            channel.writeAndFlush(out);
            if (!channel.isWritable()) {
                origin.setReading(false);
            }
        }
    }

    @Override
    public void onFailure(OriginException cause, boolean headersReceived) {
        origin = null;
        if (!exchange.isFinished()) {
            exchange.context().stats().truncated();
            channel.close();
            exchange.done(false);
        }
    }

    /** The client channel's writability changed: resume or pause the origin. */
    void writabilityChanged() {
        if (origin != null) {
            origin.setReading(channel.isWritable());
        }
    }

    /** The client went away: drop the origin response. */
    void abandon() {
        if (origin != null) {
            origin.abort();
            origin = null;
        }
    }
}
