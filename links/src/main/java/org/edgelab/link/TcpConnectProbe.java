package org.edgelab.link;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measures a link's round-trip time as TCP sees it: a listener on the server side, connects from the client side,
 * and the kernel's own estimate of each connection's round trip once its handshake is done (the smoothed RTT that
 * {@code ss -ti} shows, from SYN out to SYN-ACK back, measured in the kernel as the packets arrive). Timing
 * {@code connect()} from the calling thread instead would add that thread's wake-up, which on a busy machine is
 * milliseconds (a probe of a 40 ms link read 90-110 ms with three busy loops beside it). The first
 * {@link #WARM_UP} connects are not counted: they resolve neighbours (ARP) and run the delay line's packet path for
 * the first time. Needs {@code ss} (iproute2), which kernel links need anyway. Stateless; {@link #measure} blocks
 * for the samples (about one round trip each) and closes everything it opened.
 */
public final class TcpConnectProbe {
    /** The method's name in results. */
    public static final String METHOD = "tcp-handshake-srtt";
    /** Connects made and not counted before the samples. */
    public static final int WARM_UP = 3;
    private static final Pattern RTT = Pattern.compile("\\brtt:([0-9.]+)/");

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
                List<Socket> open = new ArrayList<>();
                try {
                    for (int i = 0; i < samples + WARM_UP; i++) {
                        Socket socket = new Socket();
                        try {
                            socket.connect(target, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
                        } catch (IOException e) {
                            socket.close();
                            throw new IOException("probe connect " + (i + 1) + " of " + (samples + WARM_UP) + " to " + target
                                    + " from the " + client.name() + " side failed: " + e.getMessage(), e);
                        }
                        // the listener's backlog holds the connections; nothing needs accepting for a connect to complete
                        if (i < WARM_UP) {
                            socket.close();
                        } else {
                            open.add(socket);
                        }
                    }
                    // ss runs from this thread, so in the client side's namespace, where the connections are
                    List<Duration> taken = kernelRoundTrips(target, timeout);
                    if (taken.size() != samples) {
                        throw new IOException("ss showed " + taken.size() + " round trips for the " + samples
                                + " probe connections to " + target);
                    }
                    return new RoundTrip(METHOD, taken);
                } finally {
                    for (Socket socket : open) {
                        socket.close();
                    }
                }
            });
        }
    }

    /** The kernel's smoothed RTT of every established connection from here to {@code target}, as {@code ss -ti} shows it. */
    private static List<Duration> kernelRoundTrips(InetSocketAddress target, Duration timeout) throws IOException, InterruptedException {
        String dst = target.getAddress().getHostAddress() + ":" + target.getPort();
        Process ss = new ProcessBuilder("ss", "-t", "-i", "-n", "-H", "state", "established", "dst", dst)
                .redirectErrorStream(true).start();
        String output = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!ss.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) || ss.exitValue() != 0) {
            ss.destroyForcibly();
            throw new IOException("ss -ti for the probe's connections to " + dst + " failed: " + output.strip());
        }
        List<Duration> rtts = new ArrayList<>();
        Matcher m = RTT.matcher(output);
        while (m.find()) {
            rtts.add(Duration.ofNanos(Math.round(Double.parseDouble(m.group(1)) * 1e6)));
        }
        return rtts;
    }
}
