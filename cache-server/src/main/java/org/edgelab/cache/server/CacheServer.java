package org.edgelab.cache.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.edgelab.cache.admin.AdminHandler;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.cache.admin.PhaseTimes;
import org.edgelab.cache.fetch.FetchRegistry;
import org.edgelab.cache.origin.OriginClient;
import org.edgelab.cache.store.LoopStore;
import org.edgelab.cache.store.StoreExecutor;
import org.edgelab.cache.store.StoreLane;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.transport.LoopDelay;
import org.edgelab.transport.Transport;

/**
 * A running edge cache: an HTTP/1.1 listener in front of an origin (or several upstreams), storing into an
 * {@link ObjectStore}, and an optional admin listener on loopback ({@code /stats}, {@code /metrics},
 * {@code /health}). Uses epoll when available, NIO otherwise. Thread-safe; {@link #close()} stops
 * both listeners and the event loops but leaves the store open (the caller owns it).
 */
public final class CacheServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(CacheServer.class.getName());
    /**
     * How often each loop's {@link LoopDelay} probe is due ({@code loop_delay} in {@code /stats}): 10 ms, Node's default
     * resolution for {@code monitorEventLoopDelay}. The stalls it is there to find (a first-byte tail of 100 ms and more)
     * show at this rate as well as at 1 ms, and a server that is always on wakes each loop 100 times a second for it,
     * not 1,000 (loadgen's probe, which runs only during a load, stays at 1 ms).
     */
    static final Duration LOOP_DELAY_PERIOD = Duration.ofMillis(10);

    /** The {@code /stats} gauge of this JVM's total JIT compile time in milliseconds (-1 where the JVM does not time it). */
    public static final String JIT_GAUGE = "jit_compile_ms_total";

    private final EventLoopGroup group;
    private final Channel listener;
    private final Channel admin;
    private final OriginClient origin;
    private final CacheStats stats;
    private final StoreExecutor reads;
    private final StoreExecutor writes;
    private final LoopDelay loopDelay;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private CacheServer(EventLoopGroup group, Channel listener, Channel admin, OriginClient origin, CacheStats stats,
                        StoreExecutor reads, StoreExecutor writes, LoopDelay loopDelay) {
        this.loopDelay = loopDelay;
        this.group = group;
        this.listener = listener;
        this.admin = admin;
        this.origin = origin;
        this.stats = stats;
        this.reads = reads;
        this.writes = writes;
    }

    /** Binds the listeners and returns once they accept connections; fails if a port cannot be bound. */
    public static CacheServer start(CacheServerConfig config, ObjectStore store) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(store, "store");
        Transport transport = Transport.preferred();
        // One event loop per core by default, like nginx's worker_processes auto: measured on 2 cores,
        // Netty's default of two per core cost ~10 % of 100 KiB hit throughput in context switches.
        int loops = config.ioThreads() > 0 ? config.ioThreads() : Runtime.getRuntime().availableProcessors();
        EventLoopGroup group = transport.newGroup(loops, "edgelab-cache");
        // Two lanes, so that writes the device throttles (dirty-page limits, writeback) never hold the
        // threads lookups and reads need: every hit would wait behind them (issue 14).
        StoreExecutor reads = new StoreExecutor(store.engineName() + "-read", config.storeThreads(), config.storeQueue());
        StoreExecutor writes;
        try {
            writes = new StoreExecutor(store.engineName() + "-write", config.storeWriteThreads(), config.storeQueue());
        } catch (RuntimeException e) {
            reads.close(5_000);
            throw e;
        }
        try {
            CacheStats stats = new CacheStats();
            OriginClient origin = new OriginClient(config.upstreams(), config.upstreamVirtualNodes(),
                    config.upstreamProbeInterval(), config.preserveHost(), transport.socketChannelClass(), config.originConnectTimeout(),
                    config.originResponseTimeout());
            stats.upstreams(origin::stats);
            LoopStore loopStore = new LoopStore(store, reads, writes);
            FetchRegistry fetches = new FetchRegistry(loopStore, origin, stats, config.upstreamHost(), config.clock(),
                    config.storeWriteShedAfter());
            ServerContext sc = new ServerContext(config, loopStore, origin, fetches, stats);
            // store_executor_*: both lanes together (what they counted when the store had one executor);
            // store_read_lane_* and store_write_lane_*: each lane's share.
            stats.gauge("store_executor_admitted", () -> reads.admitted() + writes.admitted());
            stats.gauge("store_executor_waiting", () -> reads.waiting() + writes.waiting());
            stats.gauge("store_executor_calls_total", () -> reads.totals()[0] + writes.totals()[0]);
            stats.gauge("store_executor_waited_in_line_total", () -> reads.totals()[1] + writes.totals()[1]);
            laneGauges(stats, "store_read_lane_", reads);
            laneGauges(stats, "store_write_lane_", writes);
            stats.gauge("loop_turns_total", () -> sum(sc, 0));
            stats.gauge("loop_turns_with_bodies_left_total", () -> sum(sc, 1));
            // This JVM's JIT compile time so far: a run that compiled while it was measured measured a JVM still warming
            // up, which the runner reports per repetition (server_jit_ms). -1 where the JVM does not time its compiler.
            java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
            stats.gauge(JIT_GAUGE, jit != null && jit.isCompilationTimeMonitoringSupported() ? jit::getTotalCompilationTime : () -> -1);
            Channel listener = transport.serverBootstrap(group)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 << 10, 1 << 20))
                    .childHandler(new CacheServerInitializer(sc))
                    .bind(new InetSocketAddress(config.bindHost(), config.port()))
                    .syncUninterruptibly().channel();
            Channel admin = null;
            if (config.adminPort() >= 0) {
                AdminHandler adminHandler = new AdminHandler(stats, store,
                        loopStore.blocks(StoreCall.USAGE) ? loopStore.executor(StoreLane.of(StoreCall.USAGE))::execute
                                : Runnable::run);
                admin = transport.serverBootstrap(group)
                        .childHandler(new ChannelInitializer<Channel>() {
                            @Override
                            protected void initChannel(Channel ch) {
                                ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(8192), adminHandler);
                            }
                        })
                        .bind(new InetSocketAddress("127.0.0.1", config.adminPort()))
                        .syncUninterruptibly().channel();
            }
            LOG.log(System.Logger.Level.INFO, "edge cache listening on {0} ({1}), upstreams {2}, store calls that may "
                    + "block: {3} on {4} read-lane and {5} write-lane threads", listener.localAddress(), transport.label(),
                    config.upstreams(), store.blockingCalls(), config.storeThreads(), config.storeWriteThreads());
            LoopDelay delay = LoopDelay.start(group, LOOP_DELAY_PERIOD, ns -> stats.phases().record(PhaseTimes.Phase.LOOP_DELAY, ns));
            return new CacheServer(group, listener, admin, origin, stats, reads, writes, delay);
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            writes.close(5_000);
            reads.close(5_000);
            throw e;
        }
    }

    /** Registers one lane's figures under {@code prefix}: calls admitted, waiting in line, made, made after waiting. */
    private static void laneGauges(CacheStats stats, String prefix, StoreExecutor lane) {
        stats.gauge(prefix + "admitted", lane::admitted);
        stats.gauge(prefix + "waiting", lane::waiting);
        stats.gauge(prefix + "calls_total", () -> lane.totals()[0]);
        stats.gauge(prefix + "waited_in_line_total", () -> lane.totals()[1]);
    }

    /** Sums one of the loops' write-scheduler figures (read racily: a gauge). */
    private static long sum(ServerContext sc, int figure) {
        long n = 0;
        for (WriteScheduler w : sc.schedulers()) {
            n += w.figures()[figure];
        }
        return n;
    }

    /** Returns the HTTP port the server listens on. */
    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** Returns the admin port, or -1 when there is no admin listener. */
    public int adminPort() {
        return admin == null ? -1 : ((InetSocketAddress) admin.localAddress()).getPort();
    }

    /** Returns the executor of the store's blocking calls of {@code lane}. */
    StoreExecutor storeExecutor(StoreLane lane) {
        return lane == StoreLane.READ ? reads : writes;
    }

    /** Returns the live counters. */
    public CacheStats stats() {
        return stats;
    }

    /**
     * Stops accepting, closes every connection and the event loops, then drains both of the store's
     * lanes, writes then reads (every store call already taken runs, so fills in progress commit or
     * abort; what they would have handed to a loop is released). Waits up to a few seconds for each.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        loopDelay.close();
        listener.close().syncUninterruptibly();
        if (admin != null) {
            admin.close().syncUninterruptibly();
        }
        origin.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        writes.close(10_000);
        reads.close(10_000);
    }
}
