package org.edgelab.cache.origin;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * An HTTP/1.1 client to one host (an origin or a parent cache) with a small pool of keep-alive
 * connections per event loop: an exchange runs on the loop of the client connection that needs it,
 * so proxying needs no thread hand-off. It counts the requests it is given and the failures it
 * reports, so a caller can hand it its own listener and still have the host's figures. Thread-safe;
 * {@link #send} and {@link #probe} must be called on {@code loop}; no call blocks.
 */
final class HostClient implements AutoCloseable {

    private static final int MAX_IDLE_PER_LOOP = 64;

    private final String host;
    private final int port;
    private final Class<? extends Channel> channelClass;
    private final int connectTimeoutMillis;
    private final long responseTimeoutNanos;
    private final Map<EventLoop, OriginPool> pools = new ConcurrentHashMap<>();
    private final LongAdder requests = new LongAdder();
    private final LongAdder failures = new LongAdder();

    /** Creates a client; connections use {@code channelClass} (epoll or NIO, matching the loops). */
    HostClient(String host, int port, Class<? extends Channel> channelClass,
                        Duration connectTimeout, Duration responseTimeout) {
        this.host = host;
        this.port = port;
        this.channelClass = channelClass;
        this.connectTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis());
        this.responseTimeoutNanos = responseTimeout.toNanos();
    }

    /**
     * Sends {@code request} (with an optional body, which this call takes ownership of) on a
     * connection of {@code loop}; the listener hears the response on that loop. Idempotent
     * requests that fail on a reused connection before any response byte are retried once on a
     * new connection. Counts one request, and one failure if the listener hears {@code onFailure}.
     */
    void send(EventLoop loop, HttpRequest request, ByteBuf body, OriginResponseListener listener) {
        assert loop.inEventLoop();
        requests.increment();
        OriginPool pool = pools.get(loop); // lock-free once the loop has its pool
        if (pool == null) {
            pool = pools.computeIfAbsent(loop, l -> new OriginPool(MAX_IDLE_PER_LOOP));
        }
        OriginConnection conn = pool.poll();
        if (conn != null) {
            boolean idempotent = body == null && (HttpMethod.GET.equals(request.method())
                    || HttpMethod.HEAD.equals(request.method()));
            conn.start(request, body, listener, idempotent);
            return;
        }
        connect(loop, pool, request, body, listener);
    }

    /**
     * Sends again, on a new connection of {@code loop}, an idempotent request whose reused connection
     * {@code pool} had failed before any byte of response (the same request: not counted again).
     */
    void retryOnNewConnection(EventLoop loop, OriginPool pool, HttpRequest request, OriginResponseListener listener) {
        connect(loop, pool, request, null, listener);
    }

    /** Requests {@link #send} was given (a stale connection's retry is the same request). */
    long requests() {
        return requests.sum();
    }

    /** Exchanges whose listener heard {@code onFailure}: refused, reset, timed out or cut short. */
    long failures() {
        return failures.sum();
    }

    /** Counts a failure about to be reported to a listener (each exchange reports at most one). */
    void failed() {
        failures.increment();
    }

    /**
     * Opens a connection and closes it at once; {@code answered} hears, on {@code loop}, whether the
     * host accepted it (within the connect timeout).
     */
    void probe(EventLoop loop, Consumer<Boolean> answered) {
        new Bootstrap()
                .group(loop)
                .channel(channelClass)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .handler(new ChannelInboundHandlerAdapter())
                .connect(host, port)
                .addListener((ChannelFuture done) -> {
                    if (done.isSuccess()) {
                        done.channel().close();
                    }
                    answered.accept(done.isSuccess());
                });
    }

    private void connect(EventLoop loop, OriginPool pool, HttpRequest request, ByteBuf body,
                         OriginResponseListener listener) {
        OriginConnection conn = new OriginConnection(this, pool, responseTimeoutNanos);
        Bootstrap b = new Bootstrap()
                .group(loop)
                .channel(channelClass)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast("codec", new HttpClientCodec(8192, 65536, 1 << 20));
                        ch.pipeline().addLast("exchange", conn);
                    }
                });
        ChannelFuture f = b.connect(host, port);
        f.addListener(done -> {
            if (done.isSuccess()) {
                conn.start(request, body, listener, false);
            } else {
                if (body != null) {
                    body.release();
                }
                failed();
                listener.onFailure(new OriginException(OriginException.Kind.CONNECT,
                        "cannot connect to " + host + ":" + port + ": " + done.cause().getMessage(),
                        done.cause()), false);
            }
        });
    }

    /** Closes every idle connection; exchanges in progress finish on their own. */
    @Override
    public void close() {
        pools.forEach((loop, pool) -> {
            if (!loop.isShuttingDown()) {
                loop.execute(pool::closeAll);
            }
        });
    }
}
