package org.edgelab.loadgen.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.Schedule;
import org.edgelab.loadgen.StopSignal;
import org.edgelab.loadgen.link.Link;
import org.edgelab.loadgen.link.LinkEmulators;
import org.edgelab.loadgen.link.LinkReport;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.measure.IntervalSnapshot;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.loadgen.measure.LoopMetrics;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.measure.CpuClock;
import org.edgelab.transport.LoopDelay;
import org.edgelab.transport.Transport;

/**
 * Runs one phase of load: opens N connections over E event loops, lets them send until the request
 * bound or the deadline, stops them, and returns the counters, latency histograms and CPU time.
 *
 * <p>Thread-safety: {@link #run} is called from one thread, which blocks until the phase ends; the
 * connections run on the event loops.
 */
public final class LoadEngine {
    /**
     * What one phase measured. {@code start} is the phase's start on the wall clock (the start barrier when it had
     * one), {@code realStart} when its first request was written (equal to {@code start} when none was), and
     * {@code end} when it stopped ({@code start} plus {@code elapsedNanos}). {@code loopDelay}: how late the load's own
     * event loops ran a timer due every {@link #LOOP_DELAY_PERIOD} ({@link LoopDelay}), ns, over the phase: a first
     * byte that arrives while its loop is busy is timed only when the loop reads it, so TTFB includes this.
     */
    public record Outcome(Counters counters, LatencyLog latency, Histogram serviceTime, Histogram ttfbHit,
                          Histogram ttfbMiss, Histogram ttlbHit, Histogram ttlbMiss, Histogram loopDelay, long elapsedNanos, long processCpuNanos, long loopCpuNanos,
                          boolean finishedBeforeDeadline, String transport, LinkReport link, Instant start,
                          Instant realStart, Instant end) {
    }

    /**
     * Settings of one phase; {@code startAt} is the start barrier, the wall-clock instant the phase starts at after
     * its connections are open (null: at once); {@code stop} ends it before its duration when given (null: none).
     */
    public record Phase(Destination destination, String hostHeader, List<String> headers, int connections, int threads,
                        Duration duration, long requestBound, Duration timeout, Schedule schedule,
                        Workload workload, LinkEmulation link, boolean verify, long seed,
                        Duration reportInterval, Duration lateThreshold, IntervalListener listener, Instant startAt,
                        StopSignal stop) {
    }

    /**
     * Where a phase's requests go: one server, or several with a router that names the index of each request target's
     * server ({@link org.edgelab.loadgen.Shards}). Immutable; the router must be pure and never block.
     *
     * @param addresses the servers, at least one
     * @param router    the index in {@code addresses} of a request target's server
     */
    public record Destination(List<InetSocketAddress> addresses, ToIntFunction<String> router) {
        /** Copies the list; checks it is not empty. */
        public Destination {
            addresses = List.copyOf(addresses);
            if (addresses.isEmpty()) {
                throw new IllegalArgumentException("a load needs at least one server");
            }
        }

        /** Every request to {@code address}. */
        public static Destination of(InetSocketAddress address) {
            return new Destination(List.of(address), path -> 0);
        }
    }

    /**
     * How often each load loop's {@link LoopDelay} probe is due: 1 ms, finer than the TTFB figures it explains (a
     * hit's first byte comes in a few ms on loopback) and one scheduled task per loop per ms.
     */
    static final Duration LOOP_DELAY_PERIOD = Duration.ofMillis(1);

    private LoadEngine() {
    }

    /** Runs {@code phase} to its end; throws InterruptedException if the caller is interrupted. */
    public static Outcome run(Phase phase) throws InterruptedException {
        Link link = LinkEmulators.open(phase.link());
        EventLoopGroup group = Transport.preferred().newGroup(phase.threads(), "loadgen");
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadgen-reporter");
            t.setDaemon(true);
            return t;
        });
        try {
            List<EventLoop> loops = new ArrayList<>();
            for (EventExecutor e : group) {
                loops.add((EventLoop) e);
            }
            List<Long> threadIds = new ArrayList<>();
            for (EventLoop loop : loops) {
                threadIds.add(await(loop.submit(() -> Thread.currentThread().getId())));
            }
            List<LoopMetrics> metrics = new ArrayList<>();
            List<List<HttpConnection>> connections = new ArrayList<>();
            for (int i = 0; i < loops.size(); i++) {
                metrics.add(new LoopMetrics());
                connections.add(new ArrayList<>());
            }
            List<Bootstrap> templates = new ArrayList<>();
            for (InetSocketAddress address : phase.destination().addresses()) {
                templates.add(HttpConnection.bootstrap(group, address, phase.timeout()));
            }
            HttpConnection.Settings settings = new HttpConnection.Settings(phase.hostHeader(), phase.headers(), phase.timeout().toNanos(),
                    phase.lateThreshold().toNanos(), phase.verify(), link);

            ConcurrentHistogram loopDelay = new ConcurrentHistogram(3);
            CpuClock cpu = new CpuClock(threadIds);
            long cpuStart = CpuClock.processCpuNanos();
            long loopCpuStart = cpu.threadCpuNanos();
            // The start barrier as a System.nanoTime value: connections open now and their first requests wait for it.
            long wait = phase.startAt() == null ? 0 : Duration.between(Instant.now(), phase.startAt()).toNanos();
            Instant wallStart = wait > 0 ? phase.startAt() : Instant.now();
            long start = System.nanoTime() + Math.max(0, wait); // a barrier already past: start at once (the real start says so)
            long startMillis = wallStart.toEpochMilli();
            // Every phase numbers its requests from 0: renewed, its first-time objects are its own, never those
            // of an earlier phase (a warm-up window, a settle) that a cache could still hold.
            Workload workload = phase.workload().renewed();
            long ticketLimit = Math.min(phase.requestBound() <= 0 ? Long.MAX_VALUE : phase.requestBound(), workload.size());
            RunControl control = new RunControl(phase.connections(), ticketLimit, phase.schedule(), start,
                    phase.duration().toNanos());
            LatencyLog latency = new LatencyLog(metrics, startMillis, true);
            long interval = phase.reportInterval().toNanos();
            long[] lastFlip = {start};
            Counters[] lastCounters = {Counters.ZERO};
            boolean snapshots = phase.listener() != IntervalListener.NONE;
            ScheduledFuture<?> flips = reporter.scheduleAtFixedRate(() -> {
                long completed = latency.flip();
                long now = System.nanoTime();
                if (!snapshots) {
                    phase.listener().interval(completed, (now - lastFlip[0]) / 1e9);
                    lastFlip[0] = now;
                    return;
                }
                // each loop copies its own counters (they are written by that loop only); the reporter waits for
                // the copies, never the loops for the reporter
                Counters counters;
                try {
                    Counters cumulative = Counters.ZERO;
                    for (int i = 0; i < loops.size(); i++) {
                        cumulative = cumulative.plus(await(loops.get(i).submit(metrics.get(i)::snapshot)));
                    }
                    counters = cumulative.minus(lastCounters[0]);
                    lastCounters[0] = cumulative;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return; // the phase is ending
                } catch (RuntimeException e) {
                    return; // a loop shutting down with the phase
                }
                phase.listener().interval(new IntervalSnapshot((now - start) / 1e9, (now - lastFlip[0]) / 1e9, completed, counters));
                lastFlip[0] = now;
            }, Math.max(0, start - System.nanoTime()) + interval, interval, TimeUnit.NANOSECONDS);
            long sweepNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(5), Math.min(phase.timeout().toNanos() / 10, TimeUnit.MILLISECONDS.toNanos(100)));
            List<ScheduledFuture<?>> sweepers = new ArrayList<>();
            for (int i = 0; i < loops.size(); i++) {
                List<HttpConnection> mine = connections.get(i);
                sweepers.add(loops.get(i).scheduleAtFixedRate(() -> {
                    long now = System.nanoTime();
                    for (HttpConnection c : mine) {
                        c.checkTimeout(now);
                    }
                }, sweepNanos, sweepNanos, TimeUnit.NANOSECONDS));
            }
            // One task per loop adds and starts all its connections: waiting on a busy loop once per
            // connection stretched the start of 1000 connections over minutes.
            List<List<HttpConnection>> fresh = new ArrayList<>();
            for (int i = 0; i < loops.size(); i++) {
                fresh.add(new ArrayList<>());
            }
            for (int c = 0; c < phase.connections(); c++) {
                int l = c % loops.size();
                RunDriver driver = new RunDriver(control, workload.newGenerator(phase.seed() * 1_000_003L + c));
                if (templates.size() == 1) {
                    fresh.get(l).add(new HttpConnection(driver, metrics.get(l), loops.get(l), templates.get(0), settings));
                    continue;
                }
                // spread by path: a connection to each server, one request at a time among them, on one loop
                ShardedDriver sharded = new ShardedDriver(driver, phase.destination().router(), templates.size());
                for (int s = 0; s < templates.size(); s++) {
                    HttpConnection member = new HttpConnection(sharded.member(s), metrics.get(l), loops.get(l), templates.get(s), settings);
                    sharded.connection(s, member);
                    fresh.get(l).add(member);
                }
            }
            LoopDelay delayProbe = LoopDelay.start(group, LOOP_DELAY_PERIOD, loopDelay::recordValue);
            List<io.netty.util.concurrent.Future<?>> started = new ArrayList<>();
            for (int i = 0; i < loops.size(); i++) {
                List<HttpConnection> mine = connections.get(i);
                List<HttpConnection> add = fresh.get(i);
                started.add(loops.get(i).submit(() -> {
                    mine.addAll(add);
                    add.forEach(HttpConnection::start);
                }));
            }
            for (io.netty.util.concurrent.Future<?> f : started) {
                await(f);
            }
            if (phase.stop() != null) {
                phase.stop().onStop(control::endEarly);
            }
            // Arrivals due before the deadline that are late (a late timer, every connection busy) are still
            // sent, for up to the request timeout (at most 1 s): one that cannot leave within that would
            // have timed out anyway.
            boolean finished = control.awaitEnd(Math.min(phase.timeout().toNanos(), TimeUnit.SECONDS.toNanos(1)));
            long elapsed = System.nanoTime() - start;
            LinkReport carried = new LinkReport(link.emulation(), phase.link().bitsPerSecond(), phase.link().oneWayLatency(),
                    link.bytesDown(), link.bytesUp(), elapsed / 1e9);
            control.stop();
            for (int i = 0; i < loops.size(); i++) {
                List<HttpConnection> mine = connections.get(i);
                await(loops.get(i).submit(() -> mine.forEach(HttpConnection::stop)));
            }
            delayProbe.close();
            for (ScheduledFuture<?> s : sweepers) {
                s.cancel(false);
            }
            flips.cancel(false);
            // A report being made now is told before the run returns, never after it: a caller that adds the
            // part-second after the last report from the totals would count it twice. Bounded, should a listener hang.
            reporter.shutdown();
            if (!reporter.awaitTermination(1, TimeUnit.MINUTES)) {
                System.getLogger(LoadEngine.class.getName()).log(System.Logger.Level.WARNING,
                        "an interval listener has not returned a minute after the run ended; the run returns without it");
            }
            long firstSend = Long.MAX_VALUE;
            for (int i = 0; i < loops.size(); i++) {
                LoopMetrics m = metrics.get(i);
                long first = await(loops.get(i).submit(() -> m.firstSendNanos));
                if (first != 0) {
                    firstSend = Math.min(firstSend, first);
                }
            }
            Instant realStart = firstSend == Long.MAX_VALUE ? wallStart : wallStart.plusNanos(firstSend - start);
            latency.startedAt(realStart.toEpochMilli());
            Counters total = Counters.ZERO;
            Histogram serviceTime = new Histogram(3);
            Histogram ttfbHit = new Histogram(3);
            Histogram ttfbMiss = new Histogram(3);
            Histogram ttlbHit = new Histogram(3);
            Histogram ttlbMiss = new Histogram(3);
            for (int i = 0; i < loops.size(); i++) {
                LoopMetrics m = metrics.get(i);
                total = total.plus(await(loops.get(i).submit(m::snapshot)));
                serviceTime.add(await(loops.get(i).submit(m.serviceTime::copy)));
                ttfbHit.add(await(loops.get(i).submit(m.ttfbHit::copy)));
                ttfbMiss.add(await(loops.get(i).submit(m.ttfbMiss::copy)));
                ttlbHit.add(await(loops.get(i).submit(m.ttlbHit::copy)));
                ttlbMiss.add(await(loops.get(i).submit(m.ttlbMiss::copy)));
            }
            long loopCpu = cpu.threadCpuNanos() - loopCpuStart;
            long processCpu = CpuClock.processCpuNanos() - cpuStart;
            latency.flip();
            return new Outcome(total, latency, serviceTime, ttfbHit, ttfbMiss, ttlbHit, ttlbMiss, loopDelay.copy(), elapsed, processCpu, loopCpu, finished,
                    Transport.preferred().label(), carried.emulated() ? carried : LinkReport.none(elapsed / 1e9),
                    wallStart, realStart, wallStart.plusNanos(elapsed));
        } finally {
            reporter.shutdownNow();
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            link.close();
        }
    }

    private static <T> T await(io.netty.util.concurrent.Future<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("event loop task failed", e.getCause());
        }
    }
}
