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
import java.util.concurrent.Executor;
import java.nio.charset.StandardCharsets;
import org.edgelab.storage.api.ObjectStore;

/**
 * Answers the admin listener's requests: {@code GET /stats} (JSON), {@code GET /metrics}
 * (Prometheus text) and {@code GET /health}. Expects aggregated requests. The store's figures are
 * read on {@code snapshots} (the store's read lane when reading them may block) and the answer is
 * written on the connection's loop. Sharable and thread-safe.
 */
@ChannelHandler.Sharable
public final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    /** snake_case names, as in every JSON and CSV file EdgeLab writes. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    private final CacheStats stats;
    private final ObjectStore store;
    private final Executor snapshots;

    /** Creates a handler reporting the given counters and store, reading the store on the calling loop. */
    public AdminHandler(CacheStats stats, ObjectStore store) {
        this(stats, store, Runnable::run);
    }

    /** Creates a handler reporting the given counters and store, reading the store's figures on {@code snapshots}. */
    public AdminHandler(CacheStats stats, ObjectStore store, Executor snapshots) {
        this.stats = stats;
        this.store = store;
        this.snapshots = snapshots;
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
        boolean head = HttpMethod.HEAD.equals(req.method());
        switch (path) {
            case "/stats" -> snapshot(ctx, head, keepAlive, "application/json",
                    s -> JSON.writeValueAsString(s) + "\n");
            case "/metrics" -> snapshot(ctx, head, keepAlive, PrometheusText.CONTENT_TYPE, PrometheusText::render);
            case "/health" -> send(ctx, req, HttpResponseStatus.OK, "text/plain", "ok\n", keepAlive);
            default -> send(ctx, req, HttpResponseStatus.NOT_FOUND, "text/plain",
                    "unknown admin path " + path + "; try /stats, /metrics or /health\n", keepAlive);
        }
    }

    private interface Render {
        String apply(CacheStats.Snapshot s) throws JsonProcessingException;
    }

    /** Takes a snapshot on {@code snapshots}, then answers with its rendering on the connection's loop. */
    private void snapshot(ChannelHandlerContext ctx, boolean head, boolean keepAlive, String contentType, Render render) {
        snapshots.execute(() -> {
            String body;
            HttpResponseStatus status = HttpResponseStatus.OK;
            try {
                body = render.apply(stats.snapshot(store));
            } catch (JsonProcessingException | RuntimeException e) {
                status = HttpResponseStatus.INTERNAL_SERVER_ERROR;
                body = "cannot read the figures: " + e + "\n";
            }
            HttpResponseStatus st = status;
            String b = body;
            ctx.executor().execute(() -> send(ctx, head, st, contentType, b, keepAlive));
        });
    }

    private static void send(ChannelHandlerContext ctx, FullHttpRequest req, HttpResponseStatus status,
                             String contentType, String body, boolean keepAlive) {
        send(ctx, HttpMethod.HEAD.equals(req.method()), status, contentType, body, keepAlive);
    }

    private static void send(ChannelHandlerContext ctx, boolean head, HttpResponseStatus status,
                             String contentType, String body, boolean keepAlive) {
        ByteBuf content = head
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
