package org.edgelab.cache.origin;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
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
        client = new OriginClient(List.of(uri), HashRing.DEFAULT_VIRTUAL_NODES, Duration.ofMillis(50),
                NioSocketChannel.class, Duration.ofSeconds(2), Duration.ofMillis(300));
        return client;
    }

    /** What one exchange delivered to the caller's listener, and which class called it. */
    private static final class Outcome implements OriginResponseListener {
        final CompletableFuture<String> done = new CompletableFuture<>();
        final StringBuilder body = new StringBuilder();
        volatile int status;
        volatile OriginException failure;
        volatile boolean headersReceived;
        final List<Class<?>> callers = new CopyOnWriteArrayList<>();

        private void caller() {
            callers.add(StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                    .walk(frames -> frames.skip(2).findFirst().orElseThrow().getDeclaringClass()));
        }

        @Override
        public void onResponse(HttpResponse response, OriginExchange exchange) {
            caller();
            status = response.status().code();
        }

        @Override
        public void onContent(HttpContent content, boolean last) {
            caller();
            body.append(content.content().toString(StandardCharsets.US_ASCII));
            content.release();
            if (last) {
                done.complete("complete");
            }
        }

        @Override
        public void onFailure(OriginException cause, boolean headersReceived) {
            caller();
            this.failure = cause;
            this.headersReceived = headersReceived;
            done.complete("failed");
        }
    }

    private Outcome get(String path) throws Exception {
        Outcome o = new Outcome();
        DefaultHttpRequest req = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
        req.headers().set(HttpHeaderNames.HOST, "origin.test");
        loop.execute(() -> client.send(loop, req, null, o));
        o.done.get(10, TimeUnit.SECONDS);
        return o;
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

        Outcome ok = get("/ok");
        assertThat(ok.status).isEqualTo(200);
        assertThat(ok.body.toString()).isEqualTo("hello");
        assertThat(ok.callers).as("the listener is handed to the connection as it is").isNotEmpty()
                .allMatch(c -> c == OriginConnection.class);
        assertThat(stats()).isEqualTo(new UpstreamStats(name, "up", 1, 0, 0, 0, 0));

        Outcome reused = get("/ok");
        assertThat(reused.body.toString()).isEqualTo("hello");
        assertThat(origin.connections).as("the keep-alive connection was reused").isEqualTo(1);
        assertThat(stats()).isEqualTo(new UpstreamStats(name, "up", 2, 0, 0, 0, 0));

        // the origin drops the reused connection at this request: the retry on a new connection is the same request
        Outcome retried = get("/close-if-reused");
        assertThat(retried.body.toString()).isEqualTo("hello");
        assertThat(origin.connections).isEqualTo(2);
        assertThat(stats()).as("a stale connection's retry is neither a request nor a failure")
                .isEqualTo(new UpstreamStats(name, "up", 3, 0, 0, 0, 0));

        Outcome silent = get("/silent");
        assertThat(silent.failure.kind()).isEqualTo(OriginException.Kind.TIMEOUT);
        assertThat(silent.headersReceived).isFalse();
        assertThat(silent.callers).containsExactly(OriginConnection.class);
        assertThat(stats()).isEqualTo(new UpstreamStats(name, "up", 4, 1, 0, 0, 0));

        Outcome cut = get("/cut");
        assertThat(cut.status).isEqualTo(200);
        assertThat(cut.failure.kind()).isEqualTo(OriginException.Kind.BROKEN);
        assertThat(cut.headersReceived).isTrue();
        assertThat(stats()).as("a cut body fails the exchange, never marks the origin down")
                .isEqualTo(new UpstreamStats(name, "up", 5, 2, 0, 0, 0));

        origin.close();
        origin = null;
        Outcome refused = get("/ok");
        assertThat(refused.failure.kind()).isEqualTo(OriginException.Kind.CONNECT);
        assertThat(refused.headersReceived).isFalse();
        assertThat(refused.callers).as("a refused connection is reported by the client itself")
                .containsExactly(HostClient.class);
        Thread.sleep(200); // four probe intervals
        assertThat(stats()).as("a single origin is never marked down nor probed")
                .isEqualTo(new UpstreamStats(name, "up", 6, 3, 0, 0, 0));
    }

    /**
     * A loopback origin scripted per path, on raw sockets: {@code /ok} answers "hello" kept alive, {@code /silent}
     * never answers, {@code /cut} sends half a body and closes, {@code /close-if-reused} closes a connection on which
     * it is not the first request and otherwise answers as {@code /ok}.
     */
    private static final class RawOrigin implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        volatile int connections;

        RawOrigin() throws IOException {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = server.accept();
                        connections++;
                        sockets.add(s);
                        Thread t = new Thread(() -> serve(s), "raw-origin-conn");
                        t.setDaemon(true);
                        t.start();
                    }
                } catch (IOException closed) {
                    // the test closed the origin
                }
            }, "raw-origin-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.getLocalSocketAddress()).getPort());
        }

        private void serve(Socket s) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                for (int n = 0; ; n++) {
                    String line = readHead(in);
                    if (line == null) {
                        return;
                    }
                    String path = line.split(" ")[1];
                    switch (path) {
                        case "/silent" -> {
                            in.read(); // until the client gives up and closes
                            return;
                        }
                        case "/cut" -> {
                            out.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"
                                    .getBytes(StandardCharsets.US_ASCII));
                            out.flush();
                            return;
                        }
                        case "/close-if-reused" -> {
                            if (n > 0) {
                                return;
                            }
                        }
                        default -> {
                        }
                    }
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            } catch (IOException gone) {
                // the client closed the connection
            }
        }

        /** Reads a request head (no body: GETs only) and returns its request line; null at the end of the stream. */
        private static String readHead(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0) {
                head.append((char) c);
                if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                    return head.substring(0, head.indexOf("\r\n"));
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
