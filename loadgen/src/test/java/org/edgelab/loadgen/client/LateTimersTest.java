package org.edgelab.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.LoopbackServer;
import org.edgelab.loadgen.RateSchedule;
import org.edgelab.loadgen.link.LinkEmulators;
import org.edgelab.loadgen.measure.LoopMetrics;
import org.edgelab.loadgen.workload.FixedUrlWorkload;
import org.edgelab.transport.Transport;
import org.junit.jupiter.api.Test;

/**
 * An open-loop run whose event loop is busy across the deadline (a loaded machine, a long GC, another
 * connection's work) still sends every arrival that was due before the deadline, late, with its lateness
 * counted: stopping at the deadline dropped exactly the latest arrivals ({@code OpenLoopTest} saw 98 of
 * 100 sent on a loaded machine).
 */
class LateTimersTest {
    private static final byte[] OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII);

    @Test
    void arrivalsDueBeforeTheDeadlineAreSentWhenTheirTimersFireLate() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        try (LoopbackServer server = new LoopbackServer(true, (ctx, request) -> {
            requests.incrementAndGet();
            ctx.writeAndFlush(Unpooled.wrappedBuffer(OK));
        })) {
            EventLoopGroup group = Transport.preferred().newGroup(1, "test-late-timers");
            try {
                EventLoop loop = group.next();
                long durationNanos = TimeUnit.MILLISECONDS.toNanos(1000);
                long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200); // connections open before it
                // 50 arrivals per second for 1 s: 50 arrivals, the last due at 980 ms
                RunControl control = new RunControl(8, Long.MAX_VALUE, RateSchedule.constant(50), start, durationNanos);
                LoopMetrics metrics = new LoopMetrics();
                HttpConnection.Settings settings = new HttpConnection.Settings("127.0.0.1", List.of(),
                        TimeUnit.SECONDS.toNanos(5), TimeUnit.MILLISECONDS.toNanos(50), true, LinkEmulators.open(LinkEmulation.NONE));
                var bootstrap = HttpConnection.bootstrap(group, new InetSocketAddress("127.0.0.1", server.port()), Duration.ofSeconds(2));
                List<HttpConnection> connections = new ArrayList<>();
                for (int c = 0; c < 8; c++) {
                    connections.add(new HttpConnection(new RunDriver(control, FixedUrlWorkload.of("/any").newGenerator(c)),
                            metrics, loop, bootstrap, settings));
                }
                loop.submit(() -> connections.forEach(HttpConnection::start)).sync();
                // the loop is busy from 900 ms to 1150 ms: the timers of the arrivals due at 900-980 ms fire after the deadline
                loop.schedule(() -> sleep(250), start + TimeUnit.MILLISECONDS.toNanos(900) - System.nanoTime(), TimeUnit.NANOSECONDS);

                control.awaitEnd(TimeUnit.SECONDS.toNanos(10)); // returns once nothing is owed
                long owedAtEnd = control.owed();
                long endedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                control.stop();
                long sent = loop.submit(() -> {
                    connections.forEach(HttpConnection::stop);
                    return metrics.sent;
                }).get(5, TimeUnit.SECONDS);

                assertThat(sent).as("sent; %d owed when the wait ended %d ms after the start, %d claimed", owedAtEnd,
                        endedAfterMillis, control.claimed()).isEqualTo(50);
                assertThat(control.owed()).isZero();
                assertThat(loop.submit(() -> metrics.lateStarts).get()).isGreaterThanOrEqualTo(4); // 920-980 ms, and 900 unless it went first
            } finally {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
