package org.edgelab.link.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.edgelab.link.LinkCounters;
import org.edgelab.link.LinkShape;
import org.edgelab.link.RoundTrip;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KernelLinkTest {
    @BeforeEach
    void needsRoot() {
        RootRequirement.assumeKernelLinks();
    }

    @Test
    void probedRoundTripIsTwiceTheOneWayDelay() {
        try (KernelLink link = KernelLink.open(new LinkShape(1_000_000_000L, Duration.ofMillis(40)))) {
            RoundTrip rtt = link.probe(9).orElseThrow();
            System.out.println(rtt.describe());
            assertThat(RoundTrip.millis(rtt.median())).isBetween(76.0, 84.0);
        }
    }

    @Test
    void bulkThroughputStaysUnderTheRate() throws Exception {
        long rate = 200_000_000L;
        try (KernelLink link = KernelLink.open(new LinkShape(rate, Duration.ofMillis(10)))) {
            AtomicLong received = new AtomicLong();
            ServerSocket listener = link.server().call(() -> {
                ServerSocket s = new ServerSocket();
                s.bind(new InetSocketAddress(link.server().address(), 0), 50);
                return s;
            });
            int connections = 4;
            link.server().call(() -> {
                Thread t = new Thread(() -> {
                    byte[] chunk = new byte[1 << 16];
                    try {
                        while (true) {
                            Socket c = listener.accept();
                            Thread w = new Thread(() -> {
                                try (c; OutputStream out = c.getOutputStream()) {
                                    while (true) {
                                        out.write(chunk);
                                    }
                                } catch (Exception e) {
                                    // the client went
                                }
                            });
                            w.setDaemon(true);
                            w.start();
                        }
                    } catch (Exception e) {
                        // listener closed
                    }
                });
                t.setDaemon(true);
                t.start();
                return null;
            });
            LinkCounters before = link.counters();
            // 2 s at 200 Mbit/s is 50 MB: the shaper's 1 ms bursts are 0.05 % of it, TCP's ramp-up over the 20 ms round
            // trip under 10 %, and an unshaped link (the delay line alone) would carry several times the rate
            long seconds = 2;
            List<Thread> readers = new ArrayList<>();
            link.client().call(() -> {
                for (int i = 0; i < connections; i++) {
                    Thread r = new Thread(() -> {
                        byte[] buf = new byte[1 << 16];
                        long end = System.nanoTime() + seconds * 1_000_000_000L;
                        try (Socket s = new Socket()) {
                            s.connect(new InetSocketAddress(link.server().address(), listener.getLocalPort()));
                            InputStream in = s.getInputStream();
                            int n;
                            while (System.nanoTime() < end && (n = in.read(buf)) > 0) {
                                received.addAndGet(n);
                            }
                        } catch (Exception e) {
                            throw new RuntimeException(e);
                        }
                    });
                    r.start();
                    readers.add(r);
                }
                return null;
            });
            for (Thread r : readers) {
                r.join();
            }
            listener.close();
            double bps = received.get() * 8.0 / seconds;
            LinkCounters carried = link.counters().minus(before);
            System.out.printf("goodput %.1f Mbit/s, link carried %d bytes down, %d up, drops %d; delay line %s%n", bps / 1e6,
                    carried.bytesDown(), carried.bytesUp(), carried.droppedDown(), link.fabric().delayLineStats());
            assertThat(bps).isLessThan(rate * 1.02);
            assertThat(bps).isGreaterThan(rate * 0.5);
        }
    }
    @Test
    void aLinkWithADelayAndNoBandwidthCountsWhatItCarries() throws Exception {
        // no tbf on either side: the counters come from the veth devices (they read 0 before, and the runner refused
        // every cell of such a link as traffic that did not cross it)
        try (KernelLink link = KernelLink.open(new LinkShape(0, Duration.ofMillis(5)))) {
            ServerSocket listener = link.server().call(() -> {
                ServerSocket s = new ServerSocket();
                s.bind(new InetSocketAddress(link.server().address(), 0), 1);
                return s;
            });
            int bytes = 4 << 20;
            link.server().call(() -> {
                Thread t = new Thread(() -> {
                    try (listener; Socket c = listener.accept(); OutputStream out = c.getOutputStream()) {
                        out.write(new byte[bytes]);
                    } catch (Exception e) {
                        // the test fails on what the client read
                    }
                });
                t.setDaemon(true);
                t.start();
                return null;
            });
            LinkCounters before = link.counters();
            long read = link.client().call(() -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(link.server().address(), listener.getLocalPort()));
                    return s.getInputStream().transferTo(OutputStream.nullOutputStream());
                }
            });
            LinkCounters carried = link.counters().minus(before);
            assertThat(read).isEqualTo(bytes);
            assertThat(carried.bytesDown()).as("bytes the server side sent, headers included").isGreaterThanOrEqualTo(bytes);
            assertThat(carried.bytesUp()).as("the client's acknowledgements").isPositive();
        }
    }
}
