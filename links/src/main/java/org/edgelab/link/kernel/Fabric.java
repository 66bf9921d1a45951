package org.edgelab.link.kernel;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Network namespaces joined into one star, made and removed by EdgeLab: a hub namespace that routes, and a node
 * namespace per side (a load, a server; later several workers and cache tiers), each joined to the hub by a veth
 * pair. A node's outbound and inbound links are shaped by {@code tbf} on the two ends of its veth (rate and a queue
 * limit like a real link's buffer), and every packet the hub forwards goes through the fabric's {@link DelayLine},
 * which holds it for the one-way delay of its pair of nodes, so TCP sees the round-trip time. Addresses are in
 * 198.18.0.0/15 (set aside for benchmarking): node {@code k} is {@code 198.18+k/256.k%256.2/24}, the hub {@code .1};
 * the namespaces have no other route, so nothing in them can reach any other address.
 *
 * <p>{@link #close()} deletes everything (namespaces, veth pairs, qdiscs, the TUN device, the delay line); so does a
 * JVM shutdown hook, the delay line itself if the JVM dies without closing, and the sweep of leftovers by name
 * prefix before a JVM's first fabric. Thread-safe; {@code open} and {@code close} block for the commands they run.
 */
public final class Fabric implements AutoCloseable {
    /** The MTU of every veth and the TUN device: 64 KiB packets keep a 10 Gbit/s link at tens of thousands of packets per second. */
    public static final int MTU = 65535;
    /** The most nodes one fabric holds (the delay line's table, less the hub). */
    public static final int MAX_NODES = DelayLine.MAX_NODES - 1;
    static final String NODE_DEVICE = "el0";
    static final String TUN_DEVICE = "dl0";
    private static final int ROUTE_TABLE = 100;
    /** Packets the TUN device queues while the delay line cannot take them (16 MiB of 64 KiB packets). */
    private static final int TUN_QUEUE_PACKETS = 256;
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Set<Fabric> OPEN = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(OPEN).forEach(Fabric::close), "fabric-cleanup"));
    }

    /**
     * One node of a fabric.
     *
     * @param name                 a short name ([a-z0-9-], at most 20 characters)
     * @param egressBitsPerSecond  the node's outbound link, 0 for unshaped
     * @param ingressBitsPerSecond the node's inbound link, 0 for unshaped
     * @param bufferBytes          the queue limit of each of its shapers
     */
    public record NodeSpec(String name, long egressBitsPerSecond, long ingressBitsPerSecond, long bufferBytes) {
        /** Validates the name and the numbers. */
        public NodeSpec {
            if (!name.matches("[a-z0-9-]{1,20}") || name.equals("hub")) {
                throw new IllegalArgumentException("node name must be 1-20 of [a-z0-9-] and not 'hub', got '" + name + "'");
            }
            if (egressBitsPerSecond < 0 || ingressBitsPerSecond < 0 || bufferBytes <= 0) {
                throw new IllegalArgumentException("node " + name + ": rates must be >= 0 and the buffer > 0");
            }
        }
    }

    /** Collects nodes and delays, then {@link #open()}s the fabric. Not thread-safe. */
    public static final class Builder {
        private final Map<String, NodeSpec> nodes = new LinkedHashMap<>();
        private final Map<List<String>, Duration> delays = new LinkedHashMap<>();
        private Duration defaultDelay = Duration.ZERO;
        private Consumer<String> afterStep = step -> { };

        private Builder() {
        }

        /** Adds a node. */
        public Builder node(NodeSpec node) {
            if (nodes.putIfAbsent(node.name(), node) != null) {
                throw new IllegalArgumentException("node " + node.name() + " given twice");
            }
            if (nodes.size() > MAX_NODES) {
                throw new IllegalArgumentException("a fabric holds at most " + MAX_NODES + " nodes");
            }
            return this;
        }

        /** The one-way delay between {@code a} and {@code b}, both ways. */
        public Builder delay(String a, String b, Duration oneWay) {
            delays.put(List.of(a, b), oneWay);
            delays.put(List.of(b, a), oneWay);
            return this;
        }

        /** The one-way delay between nodes with no {@link #delay} of their own (zero unless set). */
        public Builder defaultDelay(Duration oneWay) {
            this.defaultDelay = oneWay;
            return this;
        }

        /** Calls {@code hook} with each step's name as {@link #open} completes it (tests use it to fail or interrupt at a step). */
        Builder afterStep(Consumer<String> hook) {
            this.afterStep = hook;
            return this;
        }

        /** Makes the fabric; on any failure removes what it made and throws {@link KernelLinkException} naming the cause. */
        public Fabric open() {
            KernelSupport.unavailableReason().ifPresent(reason -> {
                throw new KernelLinkException(reason);
            });
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("a fabric needs at least one node");
            }
            for (List<String> pair : delays.keySet()) {
                for (String n : pair) {
                    if (!nodes.containsKey(n)) {
                        throw new IllegalArgumentException("delay names node '" + n + "', which the fabric does not have");
                    }
                }
            }
            Leftovers.sweepOnce();
            Fabric fabric = new Fabric(Leftovers.PREFIX + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet() + "-",
                    List.copyOf(nodes.values()), Map.copyOf(delays), defaultDelay, afterStep);
            OPEN.add(fabric);
            try {
                fabric.build();
            } catch (RuntimeException | Error e) {
                fabric.close();
                throw e;
            }
            return fabric;
        }
    }

    private final String prefix;
    private final List<NodeSpec> specs;
    private final Map<List<String>, Duration> delays;
    private final Duration defaultDelay;
    private final Consumer<String> afterStep;
    private final List<String> namespaces = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, NamespaceEndpoint> endpoints = new ConcurrentHashMap<>();
    private volatile NamespaceEndpoint hub;
    private volatile DelayLineProcess delayLine;
    private volatile boolean closed;

    private Fabric(String prefix, List<NodeSpec> specs, Map<List<String>, Duration> delays, Duration defaultDelay,
                   Consumer<String> afterStep) {
        this.afterStep = afterStep;
        this.prefix = prefix;
        this.specs = specs;
        this.delays = delays;
        this.defaultDelay = defaultDelay;
    }

    /** A new builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** The node called {@code name}, as an endpoint (its namespace, its address, a thread inside it). */
    public NamespaceEndpoint node(String name) {
        NamespaceEndpoint e = endpoints.get(name);
        if (e == null) {
            throw new IllegalArgumentException("the fabric has no node '" + name + "'; it has " + endpoints.keySet());
        }
        return e;
    }

    /** The names of the namespaces this fabric made (the hub's first). */
    public List<String> namespaces() {
        synchronized (namespaces) {
            return List.copyOf(namespaces);
        }
    }

    /** What node {@code name}'s outbound link sent: its shaper's counters, or its device's where it is unshaped. */
    QdiscCounters egress(String name) {
        NodeSpec spec = spec(name);
        String namespace = node(name).namespace();
        return spec.egressBitsPerSecond() == 0 ? QdiscCounters.readDevice(namespace, NODE_DEVICE) : QdiscCounters.read(namespace, NODE_DEVICE);
    }

    /** What node {@code name}'s inbound link sent it: its shaper's counters, or its hub device's where it is unshaped. */
    QdiscCounters ingress(String name) {
        NodeSpec spec = spec(name);
        String device = hubDevice(index(name));
        return spec.ingressBitsPerSecond() == 0 ? QdiscCounters.readDevice(hub.namespace(), device) : QdiscCounters.read(hub.namespace(), device);
    }

    /** The delay line's counters (packets in and out, drops). */
    Map<String, Long> delayLineStats() {
        return delayLine.stats();
    }

    /** The delay line's process id. */
    long delayLinePid() {
        return delayLine.pid();
    }

    /** The address of node {@code index} (1-based). */
    static InetAddress nodeAddress(int index) {
        return address(index, 2);
    }

    private static InetAddress address(int index, int host) {
        try {
            return InetAddress.getByAddress(new byte[]{(byte) 198, (byte) (18 + index / 256), (byte) (index % 256), (byte) host});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hubDevice(int index) {
        return "n" + index;
    }

    private NodeSpec spec(String name) {
        return specs.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the fabric has no node '" + name + "'"));
    }

    private int index(String name) {
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).name().equals(name)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException("the fabric has no node '" + name + "'");
    }

    private void build() {
        String hubName = prefix + "hub";
        List<String> all = new ArrayList<>(List.of(hubName));
        specs.forEach(s -> all.add(prefix + s.name()));
        namespaces.addAll(all);
        NetworkNamespace hubNs = NetworkNamespace.create(hubName);
        hub = new NamespaceEndpoint("hub", hubNs, address(0, 1));
        hub.callUnchecked(() -> {
            hubNs.sysctl("net.ipv6.conf.all.disable_ipv6", "1");
            hubNs.sysctl("net.ipv6.conf.default.disable_ipv6", "1");
            hubNs.sysctl("net.ipv4.ip_forward", "1");
            hubNs.sysctl("net.ipv4.conf.all.rp_filter", "0");
            hubNs.sysctl("net.ipv4.conf.default.rp_filter", "0");
            return null;
        });
        Commands.run(Commands.ipIn(hubName, "link", "set", "lo", "up"));
        afterStep.accept("hub");
        long tcpMax = tcpBufferMax();
        for (int i = 0; i < specs.size(); i++) {
            NodeSpec spec = specs.get(i);
            int index = i + 1;
            String nsName = prefix + spec.name();
            NetworkNamespace ns = NetworkNamespace.create(nsName);
            NamespaceEndpoint endpoint = new NamespaceEndpoint(spec.name(), ns, nodeAddress(index));
            endpoints.put(spec.name(), endpoint);
            endpoint.callUnchecked(() -> {
                ns.sysctl("net.ipv6.conf.all.disable_ipv6", "1");
                ns.sysctl("net.ipv6.conf.default.disable_ipv6", "1");
                ns.sysctl("net.ipv4.tcp_rmem", "4096 131072 " + tcpMax);
                ns.sysctl("net.ipv4.tcp_wmem", "4096 16384 " + tcpMax);
                return null;
            });
            String hubDev = hubDevice(index);
            Commands.run(Commands.ip("link", "add", NODE_DEVICE, "netns", nsName, "mtu", Integer.toString(MTU), "type", "veth",
                    "peer", "name", hubDev, "netns", hubName, "mtu", Integer.toString(MTU)));
            Commands.run(Commands.ipIn(nsName, "link", "set", "lo", "up"));
            Commands.run(Commands.ipIn(nsName, "addr", "add", nodeAddress(index).getHostAddress() + "/24", "dev", NODE_DEVICE));
            Commands.run(Commands.ipIn(nsName, "link", "set", NODE_DEVICE, "up"));
            Commands.run(Commands.ipIn(nsName, "route", "add", "198.18.0.0/15", "via", address(index, 1).getHostAddress()));
            Commands.run(Commands.ipIn(hubName, "addr", "add", address(index, 1).getHostAddress() + "/24", "dev", hubDev));
            Commands.run(Commands.ipIn(hubName, "link", "set", hubDev, "up"));
            if (spec.egressBitsPerSecond() > 0) {
                shape(nsName, NODE_DEVICE, spec.egressBitsPerSecond(), spec.bufferBytes());
            }
            if (spec.ingressBitsPerSecond() > 0) {
                shape(hubName, hubDev, spec.ingressBitsPerSecond(), spec.bufferBytes());
            }
            afterStep.accept("node " + spec.name());
        }
        delayLine = hub.callUnchecked(() -> DelayLineProcess.start(TUN_DEVICE, ringBytes(), delayTable(), all));
        afterStep.accept("delay line");
        Commands.run(Commands.ipIn(hubName, "link", "set", TUN_DEVICE, "mtu", Integer.toString(MTU), "txqueuelen", Integer.toString(TUN_QUEUE_PACKETS), "up"));
        hub.callUnchecked(() -> {
            hubNs.sysctl("net.ipv4.conf." + TUN_DEVICE + ".rp_filter", "0");
            return null;
        });
        Commands.run(Commands.ipIn(hubName, "route", "add", "default", "dev", TUN_DEVICE, "table", Integer.toString(ROUTE_TABLE)));
        for (int i = 1; i <= specs.size(); i++) {
            Commands.run(Commands.ipIn(hubName, "rule", "add", "iif", hubDevice(i), "lookup", Integer.toString(ROUTE_TABLE),
                    "pref", Integer.toString(1000 + i)));
        }
        afterStep.accept("routes");
    }

    /** A token bucket on {@code device}: {@code bitsPerSecond}, bursts of a millisecond (at least two packets), {@code limit} bytes queued. */
    private static void shape(String namespace, String device, long bitsPerSecond, long limit) {
        long burst = Math.max(2L * (MTU + 14), bitsPerSecond / 8 / 1000);
        Commands.run(Commands.tcIn(namespace, "qdisc", "add", "dev", device, "root", "tbf", "rate", bitsPerSecond + "bit",
                "burst", Long.toString(burst), "limit", Long.toString(Math.max(limit, burst))));
    }

    private List<long[]> delayTable() {
        List<long[]> table = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            for (int j = 0; j < specs.size(); j++) {
                if (i != j) {
                    Duration d = delays.getOrDefault(List.of(specs.get(i).name(), specs.get(j).name()), defaultDelay);
                    table.add(new long[]{i + 1, j + 1, d.toNanos()});
                }
            }
        }
        return table;
    }

    private Duration maxDelay() {
        return delays.values().stream().max(Duration::compareTo).map(d -> d.compareTo(defaultDelay) > 0 ? d : defaultDelay)
                .orElse(defaultDelay);
    }

    /** The fastest link of the fabric in bits/s (an unshaped one counts as 10 Gbit/s). */
    private long maxRate() {
        long max = 0;
        for (NodeSpec s : specs) {
            max = Math.max(max, s.egressBitsPerSecond() == 0 ? 10_000_000_000L : s.egressBitsPerSecond());
        }
        return max;
    }

    /** Socket buffers that let one connection fill the fastest link over the longest round trip: twice its BDP, 6-1024 MiB. */
    private long tcpBufferMax() {
        long bdp = (long) (maxRate() / 8.0 * maxDelay().multipliedBy(2).toNanos() / 1e9);
        return Math.min(1L << 30, Math.max(6L << 20, 2 * bdp));
    }

    /**
     * Room in the delay line for the fastest link's bytes in flight over the longest delay, a quarter more, times the
     * nodes that may send at once (at most four), plus 8 MiB. No more: a delay line too slow for its load then stops
     * reading, and the device's short queue drops, instead of holding packets far past their delay.
     */
    private long ringBytes() {
        long inFlight = (long) (maxRate() / 8.0 * maxDelay().toNanos() / 1e9);
        return Math.min(1L << 30, inFlight * 5 / 4 * Math.max(1, Math.min(specs.size() - 1, 4)) + (8L << 20));
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        List<RuntimeException> failures = new ArrayList<>();
        if (delayLine != null) {
            delayLine.close();
        }
        endpoints.values().forEach(NamespaceEndpoint::close);
        if (hub != null) {
            hub.close();
        }
        for (String ns : namespaces()) {
            try {
                NetworkNamespace.delete(ns);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        OPEN.remove(this);
        if (!failures.isEmpty()) {
            KernelLinkException e = new KernelLinkException("some namespaces could not be deleted: " + failures.get(0).getMessage());
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }

    @Override
    public String toString() {
        return "fabric " + prefix + "* " + endpoints.values();
    }
}
