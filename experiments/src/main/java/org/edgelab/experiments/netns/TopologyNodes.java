package org.edgelab.experiments.netns;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

import org.edgelab.cache.cli.ServeCommand;
import org.edgelab.cache.origin.OriginClient;
import org.edgelab.experiments.client.LoadClient;
import org.edgelab.experiments.process.ManagedProcess;
import org.edgelab.experiments.process.ProcessCpu;
import org.edgelab.experiments.target.CpuSample;
import org.edgelab.experiments.target.EdgeLabBuilds;
import org.edgelab.experiments.target.JvmCommand;
import org.edgelab.experiments.target.ProcessTarget;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.ServerStatsReader;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.Topology;
import org.edgelab.hashing.HashRing;
import org.edgelab.link.kernel.Fabric;
import org.edgelab.link.kernel.KernelLinkException;
import org.edgelab.link.kernel.NamespaceEndpoint;
import org.edgelab.loadgen.workers.WorkerPlacement;
import org.edgelab.origin.cli.OriginCommand;

/**
 * One running topology: a {@link Fabric} with a namespace per node ({@value #ORIGIN}, {@code <tier>-<i>} for each cache
 * replica, {@code w<i>} for each load worker), the origin and every cache node as JVMs started inside their namespaces,
 * each cache listening on its node's address (port {@value #CACHE_PORT}) with its admin port on the namespace's own
 * loopback. Counters are read from inside each node's namespace. {@link #close()} stops every process, then removes the
 * namespaces. Thread-safe for reads; started and closed on one thread.
 */
final class TopologyNodes implements RunningTarget {
    static final String ORIGIN = Topology.ORIGIN;
    static final int CACHE_PORT = 8080;
    static final int ADMIN_PORT = 9090;
    static final int ORIGIN_PORT = 8081;
    /** The queue limit of each node's veth shaper, unused while the links are unshaped but required by the fabric. */
    private static final long BUFFER_BYTES = 1L << 20;
    private static final String CPU_METHOD = "netns: every cache node's JVM (origin and workers left out), " + ProcessCpu.METHOD;

    /** A process in its namespace: a cache node or the origin. */
    private record Node(String name, NamespaceEndpoint endpoint, ManagedProcess process, ServerStatsReader stats) {
    }

    private final Fabric fabric;
    private final Topology topology;
    private final NetnsTarget.Settings settings;
    private final Node origin;
    private final Map<String, List<Node>> tiers;
    private final List<ManagedProcess> processes;
    private final AtomicBoolean closed = new AtomicBoolean();

    private TopologyNodes(Fabric fabric, Topology topology, NetnsTarget.Settings settings, Node origin,
                          Map<String, List<Node>> tiers, List<ManagedProcess> processes) {
        this.fabric = fabric;
        this.topology = topology;
        this.settings = settings;
        this.origin = origin;
        this.tiers = tiers;
        this.processes = List.copyOf(processes);
    }

    static String nodeName(Topology.Tier tier, int replica) {
        return tier.name() + "-" + replica;
    }

    static String workerName(int worker) {
        return "w" + worker;
    }

    /** Makes the namespaces and starts the origin and every cache node; on failure removes all it made. */
    static TopologyNodes start(ServerBuild build, TargetContext context, NetnsTarget.Settings settings) throws IOException {
        Topology topology = build.topology();
        Fabric.Builder spec = Fabric.builder().node(new Fabric.NodeSpec(ORIGIN, 0, 0, BUFFER_BYTES));
        for (Topology.Tier tier : topology.tiers()) {
            for (int r = 0; r < tier.replicas(); r++) {
                spec.node(new Fabric.NodeSpec(nodeName(tier, r), 0, 0, BUFFER_BYTES));
            }
        }
        for (int w = 0; w < topology.workers(); w++) {
            spec.node(new Fabric.NodeSpec(workerName(w), 0, 0, BUFFER_BYTES));
        }
        Fabric fabric;
        try {
            fabric = spec.open();
        } catch (KernelLinkException e) {
            throw new IOException("the netns target could not make its namespaces: " + e.getMessage(), e);
        }
        List<ManagedProcess> started = new ArrayList<>();
        try {
            String io = String.valueOf(settings.ioThreads());
            NamespaceEndpoint originSide = fabric.node(ORIGIN);
            ManagedProcess originProcess = ManagedProcess.start(ORIGIN, originSide.command(JvmCommand.forMain(OriginCommand.class.getName(),
                    ProcessTarget.ORIGIN_HEAP, Optional.empty(), List.of("--bind", originSide.address().getHostAddress(),
                            "--port", String.valueOf(ORIGIN_PORT), "--io-threads", io))), context.workDir());
            started.add(originProcess);
            URI originUri = URI.create("http://" + originSide.address().getHostAddress() + ":" + ORIGIN_PORT);
            Node originNode = new Node(ORIGIN, originSide, originProcess, new ServerStatsReader(originUri.resolve("/_stats")));
            // every cache node starts at once (each JVM's start is the slow part); parents need not answer before edges start
            Map<String, List<Node>> tiers = new LinkedHashMap<>();
            for (Topology.Tier tier : topology.tiers()) {
                Topology.Tier parent = topology.parentOf(tier);
                List<String> upstream = parent == null
                        ? List.of("--origin", originUri.toString())
                        // an EdgeLab parent keys what it stores by the Host it gets: the edge passes the client's on
                        : List.of("--upstream", replicaUris(fabric, parent).stream().map(URI::toString).collect(Collectors.joining(",")),
                        "--preserve-host");
                List<Node> nodes = new ArrayList<>();
                for (int r = 0; r < tier.replicas(); r++) {
                    String name = nodeName(tier, r);
                    NamespaceEndpoint side = fabric.node(name);
                    Path store = context.storeDir().resolve(name);
                    Files.createDirectories(store);
                    List<String> args = new ArrayList<>(List.of("--bind", side.address().getHostAddress(), "--port", String.valueOf(CACHE_PORT),
                            "--admin-port", String.valueOf(ADMIN_PORT), "--engine", tier.build().engine(), "--io-threads", io));
                    args.addAll(upstream);
                    EdgeLabBuilds.storeSettings(tier.build(), store).forEach((k, v) -> {
                        args.add("-o");
                        args.add(k + "=" + v);
                    });
                    ManagedProcess p = ManagedProcess.start(name, side.command(JvmCommand.forMain(ServeCommand.class.getName(),
                            settings.heapBytes(), Optional.empty(), args)), context.workDir());
                    started.add(p);
                    nodes.add(new Node(name, side, p, new ServerStatsReader(URI.create("http://127.0.0.1:" + ADMIN_PORT + "/stats"))));
                }
                tiers.put(tier.name(), List.copyOf(nodes));
            }
            originProcess.awaitLogLine(ProcessTarget.ORIGIN_LINE, context.startTimeout());
            for (List<Node> nodes : tiers.values()) {
                for (Node n : nodes) {
                    n.process().awaitLogLine(ProcessTarget.CACHE_LINE, context.startTimeout());
                    n.process().awaitLogLine(ProcessTarget.ADMIN_LINE, context.startTimeout());
                }
            }
            return new TopologyNodes(fabric, topology, settings, originNode, tiers, started);
        } catch (InterruptedException e) {
            stopAll(started, fabric);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the topology of " + build.name(), e);
        } catch (IOException | RuntimeException | Error e) {
            stopAll(started, fabric);
            throw e;
        }
    }

    private static List<URI> replicaUris(Fabric fabric, Topology.Tier tier) {
        List<URI> uris = new ArrayList<>();
        for (int r = 0; r < tier.replicas(); r++) {
            uris.add(URI.create("http://" + fabric.node(nodeName(tier, r)).address().getHostAddress() + ":" + CACHE_PORT));
        }
        return uris;
    }

    private static void stopAll(List<ManagedProcess> processes, Fabric fabric) {
        try {
            for (int i = processes.size() - 1; i >= 0; i--) {
                processes.get(i).close();
            }
        } finally {
            fabric.close();
        }
    }

    /** The edge tier's base URIs, in replica order (the order the workers' ring names them in). */
    List<URI> edges() {
        return replicaUris(fabric, topology.edge());
    }

    /**
     * The index in {@link #edges()} of the edge a request target goes to: a consistent-hash ring over the edges'
     * {@code host:port}, by the target's path without its query, as a cache picks its upstream.
     */
    ToIntFunction<String> edgeRouter() {
        HashRing ring = new HashRing(edges().stream().map(URI::getAuthority).toList(), HashRing.DEFAULT_VIRTUAL_NODES);
        return target -> OriginClient.first(ring, target);
    }

    /** Where worker {@code i} runs: a thread in its own namespace, whose event loops (started from it) stay there. */
    WorkerPlacement placement() {
        return (worker, task) -> {
            NamespaceEndpoint side = fabric.node(workerName(worker));
            return side.call(() -> {
                side.checkCurrentThread();
                return task.call();
            });
        };
    }

    Topology topology() {
        return topology;
    }

    NetnsTarget.Settings settings() {
        return settings;
    }

    /** The names of the namespaces of this topology (the hub's first). */
    List<String> namespaces() {
        return fabric.namespaces();
    }

    @Override
    public URI clientUri() {
        return edges().get(0);
    }

    @Override
    public ServerCounters counters() throws IOException {
        return tierCounters().get(topology.edge().name());
    }

    @Override
    public Map<String, ServerCounters> tierCounters() throws IOException {
        requireAlive();
        Map<String, ServerCounters> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<Node>> tier : tiers.entrySet()) {
            ServerCounters sum = new ServerCounters(0, 0, 0, 0, 0);
            for (Node n : tier.getValue()) {
                ServerCounters c = read(n);
                sum = new ServerCounters(sum.requests() + c.requests(), sum.hits() + c.hits(), sum.misses() + c.misses(),
                        sum.bytesToClients() + c.bytesToClients(), sum.bytesFromOrigin() + c.bytesFromOrigin());
            }
            out.put(tier.getKey(), sum);
        }
        out.put(ORIGIN, read(origin));
        return out;
    }

    private static ServerCounters read(Node node) throws IOException {
        return inside(node.endpoint(), () -> node.stats().read());
    }

    /** {@code task} on a thread in {@code side}'s namespace, where its loopback and addresses are. */
    static <T> T inside(NamespaceEndpoint side, Callable<T> task) throws IOException {
        try {
            return side.call(task);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + side.name(), e);
        } catch (Exception e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public CpuSample cpu() throws IOException {
        requireAlive();
        double seconds = 0;
        for (List<Node> nodes : tiers.values()) {
            for (Node n : nodes) {
                seconds += n.process().cpuSeconds();
            }
        }
        return new CpuSample(seconds, CPU_METHOD);
    }

    @Override
    public Optional<LoadClient> ownLoad() {
        return Optional.of(new WorkersLoad(this));
    }

    private void requireAlive() throws IOException {
        for (ManagedProcess p : processes) {
            if (!p.alive()) {
                throw new IOException("a JVM of the topology exited with status " + p.exitStatus().orElse(-1) + "; last lines of "
                        + p.log() + ":\n" + p.tail(20));
            }
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            stopAll(new ArrayList<>(processes), fabric);
        }
    }
}
