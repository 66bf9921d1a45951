package org.edgelab.cache.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A tiny origin whose answers a test scripts (small bodies), recording every request line it receives. */
final class ScriptedOrigin implements AutoCloseable {

    final List<String> requests = new CopyOnWriteArrayList<>();
    final java.util.concurrent.atomic.AtomicInteger connections = new java.util.concurrent.atomic.AtomicInteger();
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final io.netty.channel.group.ChannelGroup children =
            new io.netty.channel.group.DefaultChannelGroup(io.netty.util.concurrent.GlobalEventExecutor.INSTANCE);
    private final Channel channel;

    ScriptedOrigin(Function<FullHttpRequest, FullHttpResponse> script) {
        this(0, script);
    }

    /** An origin on {@code port} of loopback (0: a free one), e.g. to start one again where a stopped one was. */
    ScriptedOrigin(int port, Function<FullHttpRequest, FullHttpResponse> script) {
        channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.incrementAndGet();
                        children.add(ch);
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
                                new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
                                        requests.add(req.method() + " " + req.uri());
                                        FullHttpResponse resp = script.apply(req);
                                        HttpUtil.setContentLength(resp, resp.content().readableBytes());
                                        ctx.writeAndFlush(resp);
                                    }
                                });
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", port)).syncUninterruptibly().channel();
    }

    URI baseUri() {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort());
    }

    long count(String requestLine) {
        return requests.stream().filter(requestLine::equals).count();
    }

    /** Closes the listening socket and every connection; idempotent (a test may close it first, to fail the origin). */
    @Override
    public void close() {
        if (group.isShuttingDown()) {
            return;
        }
        channel.close().syncUninterruptibly();
        children.close().syncUninterruptibly(); // a kept-alive connection must not outlive the origin
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
}
