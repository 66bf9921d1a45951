package org.edgelab.link.kernel;

import java.time.Duration;
import java.util.Optional;

import org.edgelab.link.Endpoint;
import org.edgelab.link.LinkCounters;
import org.edgelab.link.LinkShape;
import org.edgelab.link.NetworkLink;
import org.edgelab.link.RoundTrip;
import org.edgelab.link.TcpConnectProbe;

/**
 * A link emulated in the kernel: a {@link Fabric} of two nodes, {@code client} and {@code server}, each direction
 * shaped by {@code tbf} on the sender's side (the server's outbound link carries the responses, the client's the
 * requests) and delayed by the fabric's delay line, so that every connection of a load shares one cap per direction
 * and TCP sees the round-trip time. Thread-safe.
 */
public final class KernelLink implements NetworkLink {
    /** The emulation's name in results. */
    public static final String EMULATION = "kernel";
    static final String CLIENT = "client";
    static final String SERVER = "server";

    private final LinkShape shape;
    private final Fabric fabric;

    private KernelLink(LinkShape shape, Fabric fabric) {
        this.shape = shape;
        this.fabric = fabric;
    }

    /** Makes the link; throws {@link KernelLinkException} naming what is missing when this machine cannot. */
    public static KernelLink open(LinkShape shape) {
        long buffer = shape.effectiveBufferBytes();
        Fabric fabric = Fabric.builder()
                .node(new Fabric.NodeSpec(CLIENT, shape.bitsPerSecond(), 0, buffer))
                .node(new Fabric.NodeSpec(SERVER, shape.bitsPerSecond(), 0, buffer))
                .delay(CLIENT, SERVER, shape.oneWayDelay())
                .open();
        return new KernelLink(shape, fabric);
    }

    @Override
    public String emulation() {
        return EMULATION;
    }

    @Override
    public LinkShape shape() {
        return shape;
    }

    @Override
    public NamespaceEndpoint client() {
        return fabric.node(CLIENT);
    }

    @Override
    public NamespaceEndpoint server() {
        return fabric.node(SERVER);
    }

    @Override
    public boolean shapedByLoad() {
        return false;
    }

    @Override
    public LinkCounters counters() {
        QdiscCounters down = fabric.egress(SERVER);
        QdiscCounters up = fabric.egress(CLIENT);
        return new LinkCounters(down.bytes(), up.bytes(), down.dropped(), up.dropped());
    }

    @Override
    public Optional<RoundTrip> probe(int samples) {
        Endpoint client = client();
        try {
            return Optional.of(TcpConnectProbe.measure(client, server(), samples,
                    shape.roundTrip().multipliedBy(10).plus(Duration.ofSeconds(5))));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new KernelLinkException("the RTT probe across the kernel link failed: " + e.getMessage(), e);
        }
    }

    /** The delay line's counters (packets in and out, {@code late_nanos_total}, {@code late_nanos_max}, stalls). */
    public java.util.Map<String, Long> delayLineStats() {
        return fabric.delayLineStats();
    }

    /** The fabric underneath (its namespaces, the delay line's counters). */
    public Fabric fabric() {
        return fabric;
    }

    @Override
    public String describe() {
        return "kernel link (namespaces " + client().namespace() + " and " + server().namespace() + ", tbf each way, TUN delay line): "
                + shape.describe();
    }

    @Override
    public void close() {
        fabric.close();
    }
}
