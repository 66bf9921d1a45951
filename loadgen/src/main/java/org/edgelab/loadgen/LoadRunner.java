package org.edgelab.loadgen;

import java.net.InetSocketAddress;

import org.edgelab.loadgen.client.LoadEngine;
import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.loadgen.workload.Workload;

/**
 * Runs a {@link LoadConfig}: an unmeasured warm-up pass if the workload asks for one, then unrecorded load
 * for {@link LoadConfig#warmUp()} if set, then the measured run, bounded by the duration and the request bound. The Java API behind {@code edgelab load}.
 *
 * <p>Thread-safety: stateless; concurrent runs are independent (each has its own event loops).
 */
public final class LoadRunner {
    private LoadRunner() {
    }

    /** Runs {@code config} and returns what it measured; blocks for at most about twice the duration. */
    public static LoadResult run(LoadConfig config) throws InterruptedException {
        InetSocketAddress address = new InetSocketAddress(config.url().getHost(),
                config.url().getPort() < 0 ? 80 : config.url().getPort());
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve host '" + config.url().getHost() + "'");
        }
        String host = config.hostHeader().orElse(
                config.url().getPort() < 0 ? config.url().getHost() : config.url().getHost() + ":" + config.url().getPort());
        LoadEngine.Outcome warmUp = null;
        Workload warm = config.workload().warmUp();
        if (warm != null) {
            warmUp = LoadEngine.run(new LoadEngine.Phase(address, host, config.headers(), config.connections(), config.threads(),
                    config.duration(), 0, config.timeout(), null, warm, LinkEmulation.NONE, config.verify(),
                    config.seed() ^ 0x3C6EF372FE94F82AL, config.reportInterval(), config.lateThreshold(), config.onInterval()));
        }
        if (!config.warmUp().isZero()) {
            // unrecorded: only warms the JIT, connections and caches on both sides
            LoadEngine.run(new LoadEngine.Phase(address, host, config.headers(), config.connections(), config.threads(),
                    config.warmUp(), 0, config.timeout(), config.schedule(), config.workload(), config.link(),
                    config.verify(), config.seed() ^ 0x9E3779B97F4A7C15L, config.reportInterval(), config.lateThreshold(),
                    config.onInterval()));
        }
        LoadEngine.Outcome measured = LoadEngine.run(new LoadEngine.Phase(address, host, config.headers(), config.connections(),
                config.threads(), config.duration(), config.requests(), config.timeout(), config.schedule(),
                config.workload(), config.link(), config.verify(), config.seed(), config.reportInterval(),
                config.lateThreshold(), config.onInterval()));
        double target = config.workload() instanceof ObjectWorkload o ? o.targetHitRatio() : Double.NaN;
        return new LoadResult(config, measured, warmUp, target);
    }
}
