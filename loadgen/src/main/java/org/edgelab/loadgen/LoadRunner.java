package org.edgelab.loadgen;

import java.net.InetSocketAddress;

import org.edgelab.loadgen.client.LoadEngine;
import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.loadgen.workload.Workload;

/**
 * Runs a {@link LoadConfig}: an unmeasured warm-up pass if the workload asks for one, then unrecorded load
 * for {@link LoadConfig#warmUp()} if set, then the measured run, bounded by the duration and the request bound. The
 * Java API behind {@code edgelab load}. A worker of a divided load ({@link LoadConfig#segment()}) sends its share of
 * the measured run, from the start barrier ({@link LoadConfig#startAt()}) on; the warm-ups run once for the whole load,
 * in worker 0 before its barrier ({@link #run}) or by whoever starts the workers ({@link #warmUp}, then {@link #measure}).
 *
 * <p>Thread-safety: stateless; concurrent runs are independent (each has its own event loops).
 */
public final class LoadRunner {
    private LoadRunner() {
    }

    /**
     * Runs {@code config} and returns what it measured: the warm-ups (unless this is a worker other than 0), then the
     * measured run. Blocks for at most about twice the duration, plus the wait for the start barrier.
     */
    public static LoadResult run(LoadConfig config) throws InterruptedException {
        LoadEngine.Outcome warmUp = config.segment().index() == 0 ? warmUp(config) : null;
        return measure(config, warmUp);
    }

    /**
     * Runs the warm-ups of the whole load (all its connections, whatever its segment): the workload's warm-up pass, then
     * {@link LoadConfig#warmUp()} of unrecorded load. Returns the pass's outcome, or null when the workload has none.
     */
    public static LoadEngine.Outcome warmUp(LoadConfig config) throws InterruptedException {
        LoadEngine.Destination address = destination(config);
        String host = host(config);
        LoadEngine.Outcome warmUp = null;
        Workload warm = config.workload().warmUp();
        if (warm != null) {
            warmUp = LoadEngine.run(new LoadEngine.Phase(address, host, config.headers(), config.connections(), config.threads(),
                    config.duration(), 0, config.timeout(), null, warm, LinkEmulation.NONE, config.verify(),
                    config.seed() ^ 0x3C6EF372FE94F82AL, config.reportInterval(), config.lateThreshold(), config.onInterval(), null, null));
        }
        if (!config.warmUp().isZero()) {
            // unrecorded: only warms the JIT, connections and caches on both sides
            LoadEngine.run(new LoadEngine.Phase(address, host, config.headers(), config.connections(), config.threads(),
                    config.warmUp(), 0, config.timeout(), config.schedule(), config.workload(), config.link(),
                    config.verify(), config.seed() ^ 0x9E3779B97F4A7C15L, config.reportInterval(), config.lateThreshold(),
                    config.onInterval(), null, null));
        }
        return warmUp;
    }

    /** Runs only the measured run of {@code config} (this worker's share of it, from its start barrier); no warm-up. */
    public static LoadResult measure(LoadConfig config) throws InterruptedException {
        return measure(config, null);
    }

    private static LoadResult measure(LoadConfig config, LoadEngine.Outcome warmUp) throws InterruptedException {
        Segment segment = config.segment();
        int connections = segment.connections(config.connections());
        LoadEngine.Outcome measured = LoadEngine.run(new LoadEngine.Phase(destination(config), host(config), config.headers(),
                connections, Math.min(config.threads(), connections), config.duration(), segment.requests(config.requests()),
                config.timeout(), segment.schedule(config.schedule()), segment.workload(config.workload()), config.link(),
                config.verify(), segment.seed(config.seed()), config.reportInterval(), config.lateThreshold(),
                config.onInterval(), config.startAt().orElse(null), config.stopSignal().orElse(null)));
        double target = config.workload() instanceof ObjectWorkload o ? o.targetHitRatio() : Double.NaN;
        return new LoadResult(config, measured, warmUp, target);
    }

    /** The load's server, or its shards' servers with their router. */
    private static LoadEngine.Destination destination(LoadConfig config) {
        if (config.shards().isEmpty()) {
            return LoadEngine.Destination.of(address(config.url()));
        }
        Shards shards = config.shards().get();
        return new LoadEngine.Destination(shards.servers().stream().map(LoadRunner::address).toList(), shards.router());
    }

    private static InetSocketAddress address(java.net.URI url) {
        InetSocketAddress address = new InetSocketAddress(url.getHost(), url.getPort() < 0 ? 80 : url.getPort());
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve host '" + url.getHost() + "'");
        }
        return address;
    }

    private static String host(LoadConfig config) {
        return config.hostHeader().orElse(
                config.url().getPort() < 0 ? config.url().getHost() : config.url().getHost() + ":" + config.url().getPort());
    }
}
