package org.edgelab.loadgen;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * A one-event-loop HTTP/1.1 server on an ephemeral 127.0.0.1 port that hands every request head to a
 * {@link Handler}, for tests that need a server misbehaving on purpose. With {@code rawResponses} it decodes
 * requests only, and the handler writes responses as raw bytes (a head and half a body, say); otherwise it
 * writes Netty HTTP objects. Test helper; thread-safe to start and close; the handler runs on the one loop.
 */
public final class LoopbackServer implements AutoCloseable {
    /** Answers one request on the server's only event loop. */
    public interface Handler {
        void onRequest(ChannelHandlerContext ctx, HttpRequest request) throws Exception;
    }

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel channel;

    public LoopbackServer(boolean rawResponses, Handler handler) throws InterruptedException {
        channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(rawResponses ? new HttpRequestDecoder() : new HttpServerCodec(),
                                new SimpleChannelInboundHandler<HttpObject>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) throws Exception {
                                        if (msg instanceof HttpRequest request) {
                                            handler.onRequest(ctx, request);
                                        }
                                    }

                                    @Override
                                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                        ctx.close(); // clients close at the end of a run
                                    }
                                });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** The base URL, {@code http://127.0.0.1:port}. */
    public String url() {
        return "http://127.0.0.1:" + port();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
