package org.edgelab.cache.origin;

import org.edgelab.hashing.HashRing;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.edgelab.cache.admin.UpstreamStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One origin: the caller's listener is the one the connection calls (no router in between), and the origin's
 * figures count each request once and each failure (connect, timeout, cut body) once, as before there were
 * several upstreams; it is never marked down nor probed.
 */
class OriginClientSingleUpstreamTest {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final EventLoop loop = group.next();
    private RawOrigin origin;
    private OriginClient client;

    @AfterEach
    void close() throws Exception {
        if (client != null) {
            client.close();
        }
        if (origin != null) {
            origin.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private OriginClient client(URI uri) {
        client = new OriginClient(List.of(uri), HashRing.DEFAULT_VIRTUAL_NODES, Duration.ofMillis(50), false,
                NioSocketChannel.class, Duration.ofSeconds(2), Duration.ofMillis(300));
        return client;
    }

    private RecordingListener get(String path) throws Exception {
        return RecordingListener.get(client, loop, path);
    }

    private UpstreamStats stats() {
        assertThat(client.stats()).hasSize(1);
        return client.stats().get(0);
    }

    private static String authority(URI u) {
        return u.getHost() + ":" + u.getPort();
    }

    @Test
    void theCallersListenerIsCalledByTheConnectionItselfAndEachOutcomeIsCountedOnce() throws Exception {
        origin = new RawOrigin();
        URI uri = origin.uri();
        client(uri);
        String name = authority(uri);

        RecordingListener ok = get("/ok");
        assertThat(ok.status).isEqualTo(200);
        assertThat(ok.body.toString()).isEqualTo("hello");
        assertThat(ok.callers).as("the listener is handed to the connection as it is").isNotEmpty()
                .allMatch(c -> c == OriginConnection.class);
        assertThat(stats()).isEqualTo(new UpstreamStats(name, "up", 1, 0, 0, 0, 0));

        RecordingListener reused = get("/ok");
        assertThat(reused.body.toString()).isEqualTo("hello");
        assertThat(origin.connections).as("the keep-alive connection was reused").isEqualTo(1);
        assertThat(stats()).isEqualTo(new UpstreamStats(name, "up", 2, 0, 0, 0, 0));

        // the origin drops the reused connection at this request: the retry on a new connection is the same request
        RecordingListener retried = get("/close-if-reused");
        assertThat(retried.body.toString()).isEqualTo("hello");
        assertThat(origin.connections).isEqualTo(2);
        assertThat(stats()).as("a stale connection's retry is neither a request nor a failure")
                .isEqualTo(new UpstreamStats(name, "up", 3, 0, 0, 0, 0));

        RecordingListener silent = get("/silent");
        assertThat(silent.failure.kind()).isEqualTo(OriginException.Kind.TIMEOUT);
        assertThat(silent.headersReceived).isFalse();
        assertThat(silent.callers).containsExactly(OriginConnection.class);
        assertThat(stats()).isEqualTo(new UpstreamStats(name, "up", 4, 1, 0, 0, 0));

        RecordingListener cut = get("/cut");
        assertThat(cut.status).isEqualTo(200);
        assertThat(cut.failure.kind()).isEqualTo(OriginException.Kind.BROKEN);
        assertThat(cut.headersReceived).isTrue();
        assertThat(stats()).as("a cut body fails the exchange, never marks the origin down")
                .isEqualTo(new UpstreamStats(name, "up", 5, 2, 0, 0, 0));

        origin.close();
        origin = null;
        RecordingListener refused = get("/ok");
        assertThat(refused.failure.kind()).isEqualTo(OriginException.Kind.CONNECT);
        assertThat(refused.headersReceived).isFalse();
        assertThat(refused.callers).as("a refused connection is reported by the client itself")
                .containsExactly(HostClient.class);
        Thread.sleep(200); // four probe intervals
        assertThat(stats()).as("a single origin is never marked down nor probed")
                .isEqualTo(new UpstreamStats(name, "up", 6, 3, 0, 0, 0));
    }
}
