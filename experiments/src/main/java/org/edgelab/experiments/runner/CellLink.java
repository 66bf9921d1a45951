package org.edgelab.experiments.runner;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import org.edgelab.experiments.client.ClientResult;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.link.Endpoint;
import org.edgelab.link.HostEndpoint;
import org.edgelab.link.LinkCounters;
import org.edgelab.link.LinkSampler;
import org.edgelab.link.LinkShape;
import org.edgelab.link.NetworkLink;
import org.edgelab.link.NetworkLinks;
import org.edgelab.link.RoundTrip;
import org.edgelab.link.kernel.KernelLink;
import org.edgelab.loadgen.LinkEmulation;

/**
 * The link of one cell: opened before its target starts, closed after it stopped. Behind a kernel link the target is
 * started, read and stopped from a thread in the server namespace ({@link #onServer}) and every load runs from a
 * thread in the client namespace ({@link #onClient}; loadgen's event loops are started from it and inherit it); a
 * user-space link leaves both on loopback and gives the load generator the shaping to do. Records the probed round
 * trip once per cell and, per measured window, what the link carried. Not thread-safe (one cell at a time).
 */
final class CellLink implements AutoCloseable {
    /** Connects the RTT probe makes and keeps. */
    static final int PROBE_SAMPLES = 7;

    private final Descriptor.Link spec;
    private final NetworkLink link;
    private final Optional<RoundTrip> rtt;
    private final LinkSampler sampler;
    private Map<String, Long> delayStart = Map.of();

    private CellLink(Descriptor.Link spec, NetworkLink link, Optional<RoundTrip> rtt) {
        this.spec = spec;
        this.link = link;
        this.rtt = rtt;
        this.sampler = link == null || link.shapedByLoad() ? null : new LinkSampler(link, LinkSampler.PERIOD);
    }

    /**
     * Opens {@code spec} for a cell of {@code build} on {@code target}: nothing for no link, else the emulation the
     * descriptor names (a kernel link when the target cannot run in a namespace falls back to user space only where
     * the descriptor allows it); {@code note} hears of a fallback.
     */
    static CellLink open(Descriptor.Link spec, Target target, ServerBuild build, Consumer<String> note) {
        if (spec.isNone()) {
            return new CellLink(spec, null, Optional.empty());
        }
        Optional<String> blocker = target.listensOnAnyAddress() ? Optional.empty()
                : Optional.of("the " + target.name() + " target cannot serve from a network namespace (build " + build.name() + ")");
        NetworkLink link = NetworkLinks.open(new LinkShape(spec.bitsPerSecond(), spec.oneWayLatency(), spec.bufferBytes()),
                spec.emulation(), spec.fallback(), blocker);
        try {
            if (!link.emulation().equals(spec.emulation())) {
                note.accept("link " + spec.name() + " of " + build.name() + ": " + link.describe());
            }
            return new CellLink(spec, link, link.probe(PROBE_SAMPLES));
        } catch (RuntimeException e) {
            link.close();
            throw e;
        }
    }

    /** The emulation used: {@code kernel}, {@code user-space} or {@code none}. */
    String emulation() {
        return link == null ? "none" : link.emulation();
    }

    /** The target context for this link: the server listens on the server side's address. */
    TargetContext context(TargetContext base) {
        return new TargetContext(base.storeDir(), base.workDir(), base.cores(), base.memoryBytes(), base.startTimeout(),
                server().address(), base.cgroup());
    }

    /** What the load generator must emulate itself: the whole link for a user-space link, nothing otherwise. */
    LinkEmulation loadEmulation() {
        return link != null && link.shapedByLoad() ? new LinkEmulation(spec.bitsPerSecond(), spec.oneWayLatency()) : LinkEmulation.NONE;
    }

    /** Runs {@code task} on the server side (a thread in its namespace behind a kernel link). */
    <T> T onServer(Callable<T> task) throws IOException, InterruptedException {
        return on(server(), task);
    }

    /** Runs {@code task} on the client side, after checking that the thread really is there. */
    <T> T onClient(Callable<T> task) throws IOException, InterruptedException {
        Endpoint client = client();
        return on(client, () -> {
            client.checkCurrentThread();
            return task.call();
        });
    }

    private Endpoint server() {
        return link == null ? HostEndpoint.LOOPBACK : link.server();
    }

    private Endpoint client() {
        return link == null ? HostEndpoint.LOOPBACK : link.client();
    }

    private static <T> T on(Endpoint endpoint, Callable<T> task) throws IOException, InterruptedException {
        try {
            return endpoint.call(task);
        } catch (IOException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Marks the start of a measured window: a kernel link's counters are read from now until {@link #columns}. */
    void startWindow() {
        if (sampler != null) {
            delayStart = delayLineStats();
            sampler.start();
        }
    }

    /**
     * The link's columns for a row measured since {@link #startWindow}: emulation, probed RTT, the rate carried each
     * way while the link was busy ({@link LinkSampler.BusyRate}), drops, and how late the delay line was. Throws IOException when a kernel link carried fewer bytes towards
     * the client than the load received: traffic that did not cross the link would make every figure wrong.
     */
    Map<String, String> columns(ClientResult result) throws IOException {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("link_emulation", emulation());
        v.put("link_rtt_ms", rtt.map(r -> ExperimentRunner.num(RoundTrip.millis(r.median()))).orElse(""));
        v.put("link_rtt_min_ms", rtt.map(r -> ExperimentRunner.num(RoundTrip.millis(r.min()))).orElse(""));
        String down = "";
        String up = "";
        String drops = "";
        String lateMean = "";
        String lateMax = "";
        if (sampler != null) {
            List<LinkSampler.Sample> samples = sampler.stop();
            LinkCounters carried = samples.get(samples.size() - 1).counters().minus(samples.get(0).counters());
            if (carried.bytesDown() < result.bytes()) {
                throw new IOException("the kernel link carried " + carried.bytesDown() + " bytes towards the client but the load read "
                        + result.bytes() + ": some traffic did not cross the link");
            }
            LinkSampler.BusyRate busy = LinkSampler.BusyRate.of(samples, spec.bitsPerSecond());
            down = ExperimentRunner.num(busy.downBps());
            up = ExperimentRunner.num(busy.upBps());
            drops = String.valueOf(carried.droppedDown() + carried.droppedUp());
            Map<String, Long> now = delayLineStats();
            long packets = now.getOrDefault("packets_out", 0L) - delayStart.getOrDefault("packets_out", 0L);
            long late = now.getOrDefault("late_nanos_total", 0L) - delayStart.getOrDefault("late_nanos_total", 0L);
            lateMean = packets == 0 ? "" : ExperimentRunner.num(late / 1e6 / packets);
            lateMax = ExperimentRunner.num(now.getOrDefault("late_nanos_max", 0L) / 1e6);
        } else if (link != null && result.link().isPresent()) {
            down = ExperimentRunner.num(result.link().get().measuredDownBitsPerSecond());
            up = ExperimentRunner.num(result.link().get().measuredUpBitsPerSecond());
        }
        v.put("link_down_bps", down);
        v.put("link_up_bps", up);
        v.put("link_drops", drops);
        v.put("link_late_mean_ms", lateMean);
        v.put("link_late_max_ms", lateMax);
        return v;
    }

    private Map<String, Long> delayLineStats() {
        return link instanceof KernelLink k ? k.delayLineStats() : Map.of();
    }

    /** The cell's entry in the manifest: emulation, description, probed RTT and the rates of the last measured run. */
    Map<String, Object> manifestEntry(Map<String, String> lastColumns) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("emulation", emulation());
        m.put("description", describe());
        rtt.ifPresent(r -> {
            m.put("rtt_ms", RoundTrip.millis(r.median()));
            m.put("rtt_min_ms", RoundTrip.millis(r.min()));
            m.put("rtt_method", r.method());
        });
        if (lastColumns != null) {
            m.put("measured_down_bps", lastColumns.get("link_down_bps"));
            m.put("measured_up_bps", lastColumns.get("link_up_bps"));
        }
        return m;
    }

    /** One line for notes. */
    String describe() {
        return link == null ? "no link" : link.describe() + rtt.map(r -> "; probed RTT " + r.describe()).orElse("");
    }

    @Override
    public void close() {
        if (sampler != null) {
            sampler.cancel();
        }
        if (link != null) {
            link.close();
        }
    }
}
