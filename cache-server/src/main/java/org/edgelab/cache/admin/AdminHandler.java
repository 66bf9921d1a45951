package org.edgelab.cache.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import org.edgelab.storage.api.ObjectStore;

/**
 * Answers the admin listener's requests: {@code GET /stats} (JSON), {@code GET /metrics}
 * (Prometheus text) and {@code GET /health}. Expects aggregated requests. Sharable and thread-safe.
 */
@ChannelHandler.Sharable
public final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    /** snake_case names, as in every JSON and CSV file EdgeLab writes. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    private final CacheStats stats;
    private final ObjectStore store;

    /** Creates a handler reporting the given counters and store. */
    public AdminHandler(CacheStats stats, ObjectStore store) {
        this.stats = stats;
        this.store = store;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) throws JsonProcessingException {
        if (!req.decoderResult().isSuccess()) {
            send(ctx, req, HttpResponseStatus.BAD_REQUEST, "text/plain", "bad request\n", false);
            return;
        }
        if (!HttpMethod.GET.equals(req.method()) && !HttpMethod.HEAD.equals(req.method())) {
            send(ctx, req, HttpResponseStatus.METHOD_NOT_ALLOWED, "text/plain", "only GET\n", HttpUtil.isKeepAlive(req));
            return;
        }
        String path = new QueryStringDecoder(req.uri()).path();
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        switch (path) {
            case "/stats" -> send(ctx, req, HttpResponseStatus.OK, "application/json",
                    JSON.writeValueAsString(stats.snapshot(store)) + "\n", keepAlive);
            case "/metrics" -> send(ctx, req, HttpResponseStatus.OK, PrometheusText.CONTENT_TYPE,
                    PrometheusText.render(stats.snapshot(store)), keepAlive);
            case "/health" -> send(ctx, req, HttpResponseStatus.OK, "text/plain", "ok\n", keepAlive);
            default -> send(ctx, req, HttpResponseStatus.NOT_FOUND, "text/plain",
                    "unknown admin path " + path + "; try /stats, /metrics or /health\n", keepAlive);
        }
    }

    private static void send(ChannelHandlerContext ctx, FullHttpRequest req, HttpResponseStatus status,
                             String contentType, String body, boolean keepAlive) {
        ByteBuf content = HttpMethod.HEAD.equals(req.method())
                ? Unpooled.EMPTY_BUFFER : Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        resp.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        resp.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.getBytes(StandardCharsets.UTF_8).length);
        resp.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        if (!keepAlive) {
            resp.headers().set(HttpHeaderNames.CONNECTION, "close");
            ctx.writeAndFlush(resp).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(resp);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
