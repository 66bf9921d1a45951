package org.edgelab.link;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures a link's round-trip time as TCP sees it: a listener on the server side, and connects from the client side
 * timed from {@code connect()} to its return (SYN out, SYN-ACK back: one round trip). The first {@link #WARM_UP}
 * connects are not counted: they resolve neighbours (ARP) and run the delay line's packet path for the first time.
 * Stateless; {@link #measure}
 * blocks for the samples (about one round trip each) and closes everything it opened.
 */
public final class TcpConnectProbe {
    /** The method's name in results. */
    public static final String METHOD = "tcp-connect";
    /** Connects made and not counted before the samples. */
    public static final int WARM_UP = 3;

    private TcpConnectProbe() {
    }

    /** {@code samples} connects from {@code client} to a listener on {@code server}; throws IOException if one fails. */
    public static RoundTrip measure(Endpoint client, Endpoint server, int samples, Duration timeout) throws Exception {
        if (samples < 1) {
            throw new IllegalArgumentException("a probe takes at least one sample, got " + samples);
        }
        try (ServerSocket listener = server.call(() -> {
            ServerSocket s = new ServerSocket();
            s.bind(new InetSocketAddress(server.address(), 0), samples + WARM_UP + 1);
            return s;
        })) {
            InetSocketAddress target = new InetSocketAddress(server.address(), listener.getLocalPort());
            return client.call(() -> {
                List<Duration> taken = new ArrayList<>();
                for (int i = 0; i < samples + WARM_UP; i++) {
                    try (Socket socket = new Socket()) {
                        long start = System.nanoTime();
                        socket.connect(target, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
                        if (i >= WARM_UP) {
                            taken.add(Duration.ofNanos(System.nanoTime() - start));
                        }
                    } catch (IOException e) {
                        throw new IOException("probe connect " + (i + 1) + " of " + (samples + WARM_UP) + " to " + target + " from the "
                                + client.name() + " side failed: " + e.getMessage(), e);
                    }
                    // the listener's backlog holds the connections; nothing needs accepting for a connect to complete
                }
                return new RoundTrip(METHOD, taken);
            });
        }
    }
}
