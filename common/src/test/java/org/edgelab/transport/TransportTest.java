package org.edgelab.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TransportTest {

    @Test
    void prefersEpollWhereItIsAvailable() {
        assertThat(Transport.preferred()).isEqualTo(Epoll.isAvailable() ? Transport.EPOLL : Transport.NIO);
        assertThat(Transport.NIO.isAvailable()).isTrue();
        assertThat(Transport.preferred().label()).isIn("epoll", "nio");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aServerAndAClientOfOneTransportTalkOverLoopbackOnNamedDaemonLoops(Transport transport) throws Exception {
        Assumptions.assumeTrue(transport.isAvailable(), transport.label() + " is not available here");
        EventLoopGroup group = transport.newGroup(1, "transport-test");
        try {
            CompletableFuture<String> received = new CompletableFuture<>();
            CompletableFuture<Thread> loopThread = new CompletableFuture<>();
            Channel server = transport.serverBootstrap(group)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf buf = (ByteBuf) msg;
                            try {
                                loopThread.complete(Thread.currentThread());
                                received.complete(buf.toString(StandardCharsets.US_ASCII));
                            } finally {
                                buf.release();
                            }
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
            assertThat(server).isInstanceOf(transport.serverChannelClass());
            Channel client = new Bootstrap().group(group).channel(transport.socketChannelClass())
                    .handler(new ChannelInboundHandlerAdapter())
                    .connect(server.localAddress()).syncUninterruptibly().channel();
            client.writeAndFlush(Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII)).syncUninterruptibly();
            assertThat(received.get(30, TimeUnit.SECONDS)).isEqualTo("x");
            Thread loop = loopThread.get(30, TimeUnit.SECONDS);
            assertThat(loop.getName()).startsWith("transport-test-");
            assertThat(loop.isDaemon()).as("a forgotten group never keeps the JVM alive").isTrue();
            client.close().syncUninterruptibly();
            server.close().syncUninterruptibly();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
