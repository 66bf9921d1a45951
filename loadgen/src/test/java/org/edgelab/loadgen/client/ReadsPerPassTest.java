package org.edgelab.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.edgelab.transport.Transport;
import org.junit.jupiter.api.Test;

/**
 * A load connection with megabytes waiting in its socket reads one buffer per pass of its event loop, so that
 * a first byte waiting on another connection of the loop is read (and timed) after at most one buffer of each
 * other connection, not 16 (Netty's default, up to 4 MiB per connection per pass). Counted in reads per pass
 * over a real loopback socket, not in time; every byte sent is still read (the rest is reported by the next poll).
 */
class ReadsPerPassTest {

    private static final long TOTAL = 16L << 20;

    @Test
    void aConnectionWithMegabytesWaitingReadsOneBufferPerPass() throws Exception {
        EventLoopGroup group = Transport.preferred().newGroup(1, "reads-per-pass-test");
        AtomicLong written = new AtomicLong();
        // the sender keeps its socket open until everything is read: a peer's close (RDHUP) makes Netty read to the end in one pass
        CountDownLatch read = new CountDownLatch(1);
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread sender = new Thread(() -> {
                try (Socket s = listener.accept(); OutputStream out = s.getOutputStream()) {
                    byte[] chunk = new byte[64 << 10];
                    while (written.get() < TOTAL) {
                        out.write(chunk);
                        written.addAndGet(chunk.length);
                    }
                    read.await(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // the test fails on the bytes it did not read
                }
            }, "reads-per-pass-sender");
            sender.setDaemon(true);
            sender.start();

            long[] reads = new long[1];
            long[] mostReadsInAPass = new long[1];
            long[] passes = new long[1];
            long[] bytes = new long[1];
            CompletableFuture<Void> all = new CompletableFuture<>();
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            Channel ch = HttpConnection.bootstrap(group, address, Duration.ofSeconds(5)).clone()
                    .option(ChannelOption.AUTO_READ, false)
                    .option(ChannelOption.SO_RCVBUF, 1 << 20) // room for several buffers while nothing reads
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf buf = (ByteBuf) msg;
                            bytes[0] += buf.readableBytes();
                            reads[0]++;
                            buf.release();
                        }

                        @Override
                        public void channelReadComplete(ChannelHandlerContext ctx) {
                            if (reads[0] > 0) {
                                passes[0]++;
                                mostReadsInAPass[0] = Math.max(mostReadsInAPass[0], reads[0]);
                            }
                            reads[0] = 0;
                            if (bytes[0] >= TOTAL) {
                                all.complete(null);
                            }
                        }
                    })
                    .connect().syncUninterruptibly().channel();
            try {
                // Nothing reads until the sender is stuck: the socket holds as much as it takes (several buffers).
                long seen = -1;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (written.get() != seen && System.nanoTime() < deadline) {
                    seen = written.get();
                    Thread.sleep(200);
                }
                assertThat(seen).as("bytes waiting before the first read").isGreaterThan(2L * ReceiveBuffers.INITIAL_READ);
                ch.config().setAutoRead(true);
                all.get(30, TimeUnit.SECONDS);
            } finally {
                read.countDown();
                ch.close().syncUninterruptibly();
            }
            assertThat(bytes[0]).isEqualTo(TOTAL);
            assertThat(passes[0]).isPositive();
            assertThat(mostReadsInAPass[0]).as("reads of one connection in one pass of its loop")
                    .isEqualTo(1);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
