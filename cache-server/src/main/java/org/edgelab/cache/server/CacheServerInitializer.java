package org.edgelab.cache.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/**
 * Builds a client connection's pipeline: slow-header guard, HTTP/1.1 codec with bounded request
 * line and headers, 100-continue, idle timeout, then the cache request handler. Sharable and thread-safe.
 */
final class CacheServerInitializer extends ChannelInitializer<Channel> {

    /** Bytes of body per decoded content piece (request bodies only matter for unsafe methods). */
    private static final int MAX_CHUNK = 64 << 10;

    private final ServerContext sc;

    CacheServerInitializer(ServerContext sc) {
        this.sc = sc;
    }

    @Override
    protected void initChannel(Channel ch) {
        CacheServerConfig c = sc.config();
        ChannelPipeline p = ch.pipeline();
        RequestHeaderTimeout headerTimeout = new RequestHeaderTimeout(c.requestHeaderTimeout().toNanos());
        p.addLast("header-timeout", headerTimeout);
        p.addLast("codec", new HttpServerCodec(c.maxInitialLineLength(), c.maxHeaderSize(), MAX_CHUNK));
        p.addLast("continue", new HttpServerExpectContinueHandler());
        p.addLast("idle", new IdleStateHandler(0, 0, c.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
        p.addLast("cache", new CacheRequestHandler(sc, headerTimeout));
    }
}
