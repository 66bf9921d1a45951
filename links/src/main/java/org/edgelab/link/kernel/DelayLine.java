package org.edgelab.link.kernel;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;

/**
 * The delay line of a kernel link, run as a small process of its own inside the fabric's hub namespace (so that the
 * runner's garbage collections never hold packets up): it opens a TUN device, and every IP packet the hub routes into
 * it comes back out of it, into the hub's routing again, once the one-way delay of its (source node, destination
 * node) pair has passed. TCP in the nodes' namespaces therefore sees the delay in its round-trip time.
 *
 * <p>Arguments: {@code --tun NAME --ring-bytes N [--delay SRC DST NANOS]... [--reap NS,NS,...]}. Node {@code k} is
 * the /24 at offset {@code k} in 198.18.0.0/15; a packet between nodes with no delay given, or not IPv4, is dropped ({@code unrouted}). Prints
 * {@code ready NAME} once the device is attached; answers {@code stats} on standard input with one line of counters;
 * at the end of standard input (the runner closed it, or died) or on a signal it stops and deletes the namespaces
 * named by {@code --reap}, so a killed runner leaves none behind.
 *
 * <p>Threads: a reader (poll and read the device into the ring of the packet's delay) and a writer (write each
 * packet out at its due time), one ring per distinct delay so each stays in order. A full ring stops the reader (the
 * packets wait in the device's short queue, which drops when full) rather than dropping itself. The counters say how
 * late packets went out ({@code late_*}): a machine too busy to keep the delay shows there.
 */
public final class DelayLine {
    static final int MAX_NODES = 512;
    private static final long LATE_NANOS = 1_000_000;

    private final int fd;
    private final List<DelayRing> rings;
    private final byte[][] classes;
    private final AtomicLong packetsIn = new AtomicLong();
    private final AtomicLong bytesIn = new AtomicLong();
    private final AtomicLong packetsOut = new AtomicLong();
    private final AtomicLong bytesOut = new AtomicLong();
    private final AtomicLong stalls = new AtomicLong();
    private final AtomicLong unrouted = new AtomicLong();
    private final AtomicLong writeErrors = new AtomicLong();
    private final AtomicLong lateNanosTotal = new AtomicLong();
    private final AtomicLong lateNanosMax = new AtomicLong();
    private final AtomicLong latePackets = new AtomicLong();
    private final AtomicLong realTimeThreads = new AtomicLong();
    private volatile boolean running = true;
    private volatile Thread writer;

    private DelayLine(int fd, List<DelayRing> rings, byte[][] classes) {
        this.fd = fd;
        this.rings = rings;
        this.classes = classes;
    }

    /** Runs a delay line until standard input ends; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String tun = null;
        long ringBytes = 64L << 20;
        List<long[]> delays = new ArrayList<>();
        List<String> reap = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--tun" -> tun = args[++i];
                case "--ring-bytes" -> ringBytes = Long.parseLong(args[++i]);
                case "--delay" -> delays.add(new long[]{Long.parseLong(args[++i]), Long.parseLong(args[++i]), Long.parseLong(args[++i])});
                case "--reap" -> reap.addAll(Arrays.asList(args[++i].split(",")));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (tun == null || delays.isEmpty()) {
            throw new IllegalArgumentException("usage: --tun NAME --ring-bytes N --delay SRC DST NANOS... [--reap NS,...]");
        }
        Thread reaper = new Thread(() -> reap(reap), "delay-line-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        DelayLine line = new DelayLine(openTun(tun), ringsFor(delays, ringBytes), classTable(delays));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        line.start();
        out.println("ready " + tun);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String command;
        while ((command = in.readLine()) != null) {
            if (command.strip().equals("stats")) {
                out.println(line.stats());
            }
        }
        line.running = false;
        System.exit(0);
    }

    private static byte[][] classTable(List<long[]> delays) {
        byte[][] table = new byte[MAX_NODES][MAX_NODES];
        for (byte[] row : table) {
            Arrays.fill(row, (byte) -1);
        }
        List<Long> distinct = distinctDelays(delays);
        for (long[] d : delays) {
            table[(int) d[0]][(int) d[1]] = (byte) distinct.indexOf(d[2]);
        }
        return table;
    }

    private static List<Long> distinctDelays(List<long[]> delays) {
        List<Long> distinct = new ArrayList<>();
        for (long[] d : delays) {
            if (!distinct.contains(d[2])) {
                distinct.add(d[2]);
            }
        }
        if (distinct.size() > 127) {
            throw new IllegalArgumentException("at most 127 distinct delays, got " + distinct.size());
        }
        return distinct;
    }

    private static List<DelayRing> ringsFor(List<long[]> delays, long ringBytes) {
        List<Long> distinct = distinctDelays(delays);
        List<DelayRing> rings = new ArrayList<>();
        for (long delay : distinct) {
            rings.add(new DelayRing(ringBytes / distinct.size(), delay));
        }
        return rings;
    }

    /** Opens and attaches the TUN device {@code name} (IP packets, no extra header), non-blocking. */
    static int openTun(String name) {
        int fd = LibC.open("/dev/net/tun", LibC.O_RDWR | LibC.O_NONBLOCK | LibC.O_CLOEXEC);
        byte[] ifreq = new byte[LibC.IFREQ_SIZE];
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        if (n.length > 15) {
            throw new IllegalArgumentException("device name longer than 15 characters: " + name);
        }
        System.arraycopy(n, 0, ifreq, 0, n.length);
        // With a virtio header in front of each packet and checksum offload, a TCP segment goes out of the device and
        // back in still marked "checksum to be done": neither the kernel's way into the device nor the receiver's
        // TCP sums 64 KiB packets in software, which at 10 Gbit/s is much of the delay line's cost.
        short flags = (short) (LibC.IFF_TUN | LibC.IFF_NO_PI | LibC.IFF_VNET_HDR);
        ifreq[16] = (byte) flags;
        ifreq[17] = (byte) (flags >> 8);
        LibC.ioctl(fd, new NativeLong(LibC.TUNSETIFF), ifreq);
        LibC.ioctl(fd, new NativeLong(LibC.TUNSETOFFLOAD), new NativeLong(LibC.TUN_F_CSUM));
        return fd;
    }

    private void start() {
        Thread reader = new Thread(() -> realTime(this::readLoop), "delay-line-reader");
        Thread writing = new Thread(() -> realTime(this::writeLoop), "delay-line-writer");
        reader.setDaemon(true);
        writing.setDaemon(true);
        writer = writing;
        reader.start();
        writing.start();
    }

    /**
     * Runs {@code loop} on the calling thread at the lowest real-time priority, so a busy machine's runnable threads do
     * not hold a packet past its due time (TCP saw 85-110 ms on a 40 ms link with three busy loops beside it at the
     * normal policy); the reader and the writer sleep between packets, and the kernel's real-time throttling keeps a
     * share of each core for the others. Where the policy is refused, the loop runs at the process's priority and
     * {@code realtime=0} in the counters says so.
     */
    private void realTime(Runnable loop) {
        try {
            LibC.sched_setscheduler(0, LibC.SCHED_FIFO, new int[]{1});
            realTimeThreads.incrementAndGet();
        } catch (LastErrorException e) {
            // not permitted here: the nice level the process was started with is what there is
        }
        loop.run();
    }

    private void readLoop() {
        byte[] pollfd = new byte[8];
        pollfd[0] = (byte) fd;
        pollfd[1] = (byte) (fd >> 8);
        pollfd[2] = (byte) (fd >> 16);
        pollfd[3] = (byte) (fd >> 24);
        pollfd[4] = (byte) LibC.POLLIN;
        Memory scratch = new Memory(DelayRing.MAX_PACKET);
        boolean single = rings.size() == 1;
        while (running) {
            try {
                LibC.poll(pollfd, 1, 100);
            } catch (LastErrorException e) {
                if (e.getErrorCode() != LibC.EINTR) {
                    throw e;
                }
            }
            while (running) {
                DelayRing ring = single ? rings.get(0) : null;
                Pointer into = single ? ring.reserve() : scratch;
                if (into == null) {
                    // the ring is full (the writer is behind): leave packets in the device's queue rather than drop them
                    stalls.incrementAndGet();
                    LockSupport.parkNanos(100_000);
                    continue;
                }
                long n;
                try {
                    n = LibC.read(fd, into, DelayRing.MAX_PACKET);
                } catch (LastErrorException e) {
                    if (e.getErrorCode() == LibC.EAGAIN || e.getErrorCode() == LibC.EINTR) {
                        break;
                    }
                    throw e;
                }
                long now = System.nanoTime();
                packetsIn.incrementAndGet();
                bytesIn.addAndGet(n);
                if (!single) {
                    ring = classify(scratch, n);
                    if (ring == null) {
                        unrouted.incrementAndGet();
                        continue;
                    }
                    Pointer place = ring.reserve();
                    while (place == null && running) {
                        stalls.incrementAndGet();
                        LockSupport.parkNanos(100_000);
                        place = ring.reserve();
                    }
                    if (place == null) {
                        return;
                    }
                    LibC.memcpy(place, scratch, n);
                } else if (classify(into, n) == null) {
                    unrouted.incrementAndGet();
                    continue;
                }
                boolean wasEmpty = ring.isEmpty();
                ring.commit((int) n, now + ring.delayNanos);
                if (wasEmpty) {
                    LockSupport.unpark(writer);
                }
            }
        }
    }

    /** The ring of the packet's (source node, destination node) delay, or null for a packet no delay was given for. */
    private DelayRing classify(Pointer packet, long length) {
        int ip = LibC.VNET_HDR_SIZE;
        if (length < ip + 20 || (packet.getByte(ip) & 0xf0) != 0x40) {
            return null;
        }
        int src = node(packet, ip + 12);
        int dst = node(packet, ip + 16);
        if (src < 0 || dst < 0) {
            return null;
        }
        int c = classes[src][dst];
        return c < 0 ? null : rings.get(c);
    }

    /** The node of the IPv4 address at {@code offset}: its /24 in 198.18.0.0/15, or -1 outside it. */
    static int node(Pointer packet, int offset) {
        int a = packet.getByte(offset) & 0xff;
        int b = packet.getByte(offset + 1) & 0xff;
        int c = packet.getByte(offset + 2) & 0xff;
        if (a != 198 || (b != 18 && b != 19)) {
            return -1;
        }
        return (b - 18) * 256 + c;
    }

    private void writeLoop() {
        while (running) {
            long now = System.nanoTime();
            long next = Long.MAX_VALUE;
            boolean wrote = false;
            for (DelayRing ring : rings) {
                long due;
                int burst = 0;
                while ((due = ring.peekDue()) <= now && burst++ < 256) {
                    long late = now - due;
                    lateNanosTotal.addAndGet(late);
                    if (late > lateNanosMax.get()) {
                        lateNanosMax.set(late);
                    }
                    if (late > LATE_NANOS) {
                        latePackets.incrementAndGet();
                    }
                    try {
                        LibC.write(fd, ring.peekPacket(), ring.peekLength());
                        packetsOut.incrementAndGet();
                        bytesOut.addAndGet(ring.peekLength());
                    } catch (LastErrorException e) {
                        writeErrors.incrementAndGet();
                    }
                    ring.release();
                    wrote = true;
                    now = System.nanoTime();
                }
                next = Math.min(next, due);
            }
            if (!wrote) {
                LockSupport.parkNanos(next == Long.MAX_VALUE ? TimeUnit.MILLISECONDS.toNanos(50) : next - now);
            }
        }
    }

    private String stats() {
        Map<String, Long> s = new LinkedHashMap<>();
        s.put("packets_in", packetsIn.get());
        s.put("bytes_in", bytesIn.get());
        s.put("packets_out", packetsOut.get());
        s.put("bytes_out", bytesOut.get());
        s.put("stalls", stalls.get());
        s.put("unrouted", unrouted.get());
        s.put("write_errors", writeErrors.get());
        s.put("late_nanos_total", lateNanosTotal.get());
        s.put("late_nanos_max", lateNanosMax.get());
        s.put("late_packets", latePackets.get());
        s.put("realtime", realTimeThreads.get() == 2 ? 1L : 0L);
        StringBuilder b = new StringBuilder("stats");
        s.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        return b.toString();
    }

    private static void reap(List<String> namespaces) {
        for (String ns : namespaces) {
            if (ns.isBlank()) {
                continue;
            }
            try {
                Process p = new ProcessBuilder("ip", "netns", "del", ns).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (IOException e) {
                System.err.println(String.format(Locale.ROOT, "delay line: cannot delete namespace %s: %s", ns, e.getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
