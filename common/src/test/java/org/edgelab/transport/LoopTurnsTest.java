package org.edgelab.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A writer that keeps re-queueing itself (the shape of a large body to a fast reader) must not keep
 * its loop from reading: counted in the writer's turns between a byte arriving on a loopback socket
 * and the loop reading it, not in time. On both transports the servers use: epoll, and NIO where epoll is absent.
 */
class LoopTurnsTest {

    /** Busy work of one writer turn, about what writing a 1-2 MiB chunk to a loopback socket costs. */
    private static final long TURN_NANOS = 200_000;

    private EventLoopGroup group;
    private EventLoop loop;
    private Channel server;
    private final AtomicLong turns = new AtomicLong();
    private final AtomicBoolean storming = new AtomicBoolean(true);
    private final CompletableFuture<Long> turnsAtRead = new CompletableFuture<>();
    private final CompletableFuture<Void> accepted = new CompletableFuture<>();

    private void start(Transport transport) {
        Assumptions.assumeTrue(transport.isAvailable(), transport.label() + " is not available here");
        group = transport.newGroup(1, "loop-turns-test");
        loop = (EventLoop) group.next();
        server = transport.serverBootstrap(group)
                .childHandler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        accepted.complete(null);
                        ctx.fireChannelActive();
                    }

                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ReferenceCountUtil.release(msg);
                        turnsAtRead.complete(turns.get());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
    }

    @AfterEach
    void stop() {
        storming.set(false);
        if (group != null) {
            server.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aWriterThatYieldsAfterNextIoLetsTheLoopReadWithinAFewTurns(Transport transport) throws Exception {
        start(transport);
        long waited = turnsBeforeRead(LoopTurns::afterNextIo);
        assertThat(waited).as("writer turns before the loop read the byte").isLessThanOrEqualTo(1);
    }

    /** The control: the Netty behaviour LoopTurns exists for. If this fails, Netty changed and LoopTurns may no longer be needed. */
    @ParameterizedTest
    @EnumSource(Transport.class)
    void aWriterThatReQueuesItselfWithExecuteStarvesTheLoopsReads(Transport transport) throws Exception {
        start(transport);
        long waited = turnsBeforeRead((executor, task) -> executor.execute(task));
        // Netty looks at its 1 s deadline every 64 tasks, so at least 63 turns pass however slow this machine is.
        assertThat(waited).as("writer turns before the loop read the byte").isGreaterThanOrEqualTo(63);
    }

    /**
     * A byte waits unread on the server's socket when, inside one task, the loop starts the writer; counts the
     * writer's turns until the loop reads the byte. Counting turns, and starting the writer in the same task drain
     * that the byte must wait for, keeps the count independent of how fast this machine runs.
     */
    private long turnsBeforeRead(BiConsumer<EventLoop, Runnable> requeue) throws Exception {
        try (Socket client = new Socket()) {
            client.connect(server.localAddress());
            client.setTcpNoDelay(true);
            accepted.get(30, TimeUnit.SECONDS); // the loop has accepted and registered the connection
            Runnable[] turn = new Runnable[1];
            turn[0] = () -> {
                if (!storming.get()) {
                    return;
                }
                turns.incrementAndGet();
                long until = System.nanoTime() + TURN_NANOS;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                requeue.accept(loop, turn[0]);
            };
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch written = new CountDownLatch(1);
            loop.execute(() -> {
                running.countDown();
                try {
                    written.await();
                    Thread.sleep(50); // the byte reaches the server socket's receive queue
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                requeue.accept(loop, turn[0]);
            });
            running.await(); // the byte is written while the loop is inside the task, not polling I/O
            OutputStream out = client.getOutputStream();
            out.write(1);
            out.flush();
            written.countDown();
            long atRead = turnsAtRead.get(30, TimeUnit.SECONDS);
            storming.set(false);
            return atRead;
        }
    }
}
