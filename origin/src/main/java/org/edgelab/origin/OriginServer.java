package org.edgelab.origin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.edgelab.origin.server.OriginChannelInitializer;
import org.edgelab.origin.server.OriginCounters;
import org.edgelab.transport.Transport;

/**
 * A running origin: a Netty HTTP/1.1 server (epoll when available, NIO otherwise) serving
 * synthetic objects at {@code /objects/{size}/{id}} or the files of a directory, and its counters
 * at {@code /_stats}. Thread-safe; {@link #close()} stops it and is idempotent.
 */
public final class OriginServer implements AutoCloseable {

    private final OriginConfig config;
    private final EventLoopGroup group;
    private final Channel channel;
    private final OriginCounters counters;
    private final int port;
    private final String transport;

    private OriginServer(OriginConfig config, EventLoopGroup group, Channel channel, OriginCounters counters, String transport) {
        this.config = config;
        this.transport = transport;
        this.group = group;
        this.channel = channel;
        this.counters = counters;
        this.port = ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Binds and starts serving; returns once listening. Throws UncheckedIOException if it cannot bind. */
    public static OriginServer start(OriginConfig config) {
        Transport transport = Transport.preferred();
        OriginCounters counters = new OriginCounters();
        OriginChannelInitializer initializer = new OriginChannelInitializer(config, counters);
        // one event loop per core by default, as the cache server has (Netty's own default is two per core)
        int loops = config.ioThreads() > 0 ? config.ioThreads() : Runtime.getRuntime().availableProcessors();
        EventLoopGroup group = transport.newGroup(loops, "edgelab-origin");
        try {
            ServerBootstrap bootstrap = transport.serverBootstrap(group)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(128 * 1024, 512 * 1024))
                    .childHandler(initializer);
            ChannelFuture bound = bootstrap.bind(config.host(), config.port()).awaitUninterruptibly();
            if (!bound.isSuccess()) {
                Throwable cause = bound.cause();
                String message = "origin cannot listen on " + config.host() + ":" + config.port() + ": " + cause.getMessage();
                throw new UncheckedIOException(message,
                        cause instanceof java.io.IOException io ? io : new BindException(String.valueOf(cause)));
            }
            return new OriginServer(config, group, bound.channel(), counters, transport.label());
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The port it listens on (the ephemeral one chosen if the configuration said 0). */
    public int port() {
        return port;
    }

    /** The base URI clients use, e.g. {@code http://127.0.0.1:8081}. */
    public URI baseUri() {
        String host = config.host();
        if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return URI.create("http://" + host + ":" + port);
    }

    /** The Netty transport in use: {@code epoll} where available, otherwise {@code nio}. */
    public String transport() {
        return transport;
    }

    /** The configuration it runs with. */
    public OriginConfig config() {
        return config;
    }

    /** A snapshot of its counters. */
    public OriginStats stats() {
        return counters.snapshot();
    }

    /** Stops listening, closes every connection and stops the event loops; waits for them. */
    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
