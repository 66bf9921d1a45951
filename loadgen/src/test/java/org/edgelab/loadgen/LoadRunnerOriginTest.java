package org.edgelab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.loadgen.workload.FixedUrlWorkload;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Closed-loop runs against a real origin on loopback: counts, verification, fault classes and reports. */
class LoadRunnerOriginTest {
    private static OriginServer origin;

    @BeforeAll
    static void startOrigin() throws InterruptedException {
        Warm.up();
        origin = OriginServer.start(OriginConfig.builder().port(0).ioThreads(1).build());
    }

    @AfterAll
    static void stopOrigin() {
        origin.close();
    }

    /**
     * Eight connections to {@code path}; a test bounds its run by {@link LoadConfig.Builder#requests}, so the 60-s
     * duration is only the cap a run stopped by nothing else ends at (a test about the duration sets its own).
     */
    private static LoadConfig.Builder config(String path) {
        return LoadConfig.builder().url(origin.baseUri() + path).connections(8).threads(2)
                .duration(Duration.ofSeconds(60)).timeout(Duration.ofSeconds(5));
    }

    /**
     * The plain listener (told each interval's completions) and the snapshot listener, told together from one run:
     * a run of its own for the plain listener checked nothing this one does not. The interval is 1 s unless set; this
     * run sets 0.5 s and lasts 3.5 of them, as the 3.5-s run at the 1-s default did, in half the time.
     */
    @Test
    void theIntervalListenerIsToldEachSecondsCompletionsAndEachSnapshotCarriesThatIntervalsCountersAlone() throws Exception {
        assertThat(config("/").build().reportInterval()).as("the default interval").isEqualTo(Duration.ofSeconds(1));
        double interval = 0.5;
        List<org.edgelab.loadgen.measure.IntervalSnapshot> snapshots = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Long> plain = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Double> lengths = new java.util.concurrent.CopyOnWriteArrayList<>();
        // every response a 503: each completed request is an error of class status_5xx, counted in its own interval
        LoadResult r = LoadRunner.run(config("/objects/10KB/snapshots?status=503").duration(Duration.ofMillis(1750))
                .reportInterval(Duration.ofMillis(500))
                .onInterval(org.edgelab.loadgen.measure.IntervalListener.both((n, seconds) -> {
                    plain.add(n);
                    lengths.add(seconds);
                }, org.edgelab.loadgen.measure.IntervalListener.ofSnapshots(snapshots::add))).build());

        assertThat(plain).hasSizeBetween(2, 4).allMatch(n -> n > 0);
        // The reporter runs at a fixed rate of one interval from the start: its k-th report is never early (k intervals
        // after the start at the soonest), and each is told the time since the one before. How late a report comes is the
        // scheduler's, with no bound on a loaded machine (a report more than 0.6 s late broke "within 0.6 s of k"): so the
        // assertion is the guaranteed lower bound, and that the lengths add up to the time since the start.
        assertThat(lengths).allMatch(s -> s > 0, "a length since the report before");
        // every interval but the last part-second was told, from loadgen's own completions
        assertThat(plain.stream().mapToLong(Long::longValue).sum()).isPositive().isLessThanOrEqualTo(r.counters().completed());
        assertThat(snapshots).hasSizeBetween(2, 4).hasSameSizeAs(plain);
        for (int i = 0; i < snapshots.size(); i++) {
            var s = snapshots.get(i);
            assertThat(s.completed()).isEqualTo(plain.get(i));
            assertThat(s.secondsSinceStart()).as("report %d is never early", i + 1).isGreaterThanOrEqualTo((i + 1) * interval - 0.001);
            assertThat(lengths.subList(0, i + 1).stream().mapToDouble(Double::doubleValue).sum())
                    .isCloseTo(s.secondsSinceStart(), org.assertj.core.data.Offset.offset(0.01));
            assertThat(s.counters().completed()).isPositive();
            assertThat(s.counters().errors(ErrorClass.STATUS_5XX)).isPositive().isEqualTo(s.errors());
            assertThat(s.hits()).isZero(); // the origin sends no X-Cache
            assertThat(s.hitRatio()).isNaN();
        }
        // the intervals' counters are differences: together they never exceed the run's totals
        long errors = snapshots.stream().mapToLong(s -> s.errors()).sum();
        long completed = snapshots.stream().mapToLong(s -> s.counters().completed()).sum();
        assertThat(errors).isLessThanOrEqualTo(r.counters().errors(ErrorClass.STATUS_5XX));
        assertThat(completed).isLessThanOrEqualTo(r.counters().completed()).isGreaterThan(r.counters().completed() / 2);
    }

    /**
     * A report still being made when the run ends (its listener slow, or the machine busy) is told before the run
     * returns, never after: a caller that adds the part-second after the last report from the totals would
     * otherwise count that interval twice (RestartExperimentTest saw a series 1,815 requests above its total).
     */
    @Test
    void noIntervalIsToldAfterTheRunReturns() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean returned = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger late = new java.util.concurrent.atomic.AtomicInteger();
        List<org.edgelab.loadgen.measure.IntervalSnapshot> snapshots = new java.util.concurrent.CopyOnWriteArrayList<>();
        // the first report is due 0.1 s into a 0.5-s run; it is told until 1.5 s after the run's end, long after a
        // run that did not wait for it would have returned and this test's check below had run
        long runEnds = System.nanoTime() + Duration.ofMillis(500).toNanos();
        LoadResult r = LoadRunner.run(config("/objects/10KB/late-report").duration(Duration.ofMillis(500))
                .reportInterval(Duration.ofMillis(100))
                .onInterval(org.edgelab.loadgen.measure.IntervalListener.ofSnapshots(s -> {
                    if (snapshots.isEmpty()) {
                        // the first report is slow, and deaf to interrupts (as a listener writing a file is): it is
                        // still being told well after the run's deadline. It waits parked, not spinning, so the
                        // run it waits on keeps the machine's cores.
                        long until = runEnds + Duration.ofMillis(1500).toNanos();
                        boolean interrupted = false;
                        for (long left; (left = until - System.nanoTime()) > 0; ) {
                            java.util.concurrent.locks.LockSupport.parkNanos(left);
                            interrupted |= Thread.interrupted();
                        }
                        if (interrupted) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    if (returned.get()) {
                        late.incrementAndGet();
                    }
                    snapshots.add(s);
                })).build());
        returned.set(true);
        Thread.sleep(300);

        assertThat(late.get()).as("intervals told after the run returned").isZero();
        assertThat(snapshots).isNotEmpty();
        assertThat(snapshots.stream().mapToLong(s -> s.counters().completed()).sum()).isLessThanOrEqualTo(r.counters().completed());
    }

    /**
     * Each run is stopped by its listener at its second report; reports come every 0.25 s, so a run that honours the
     * signal lasts 0.5 s (never less: reports are never early) and one that ignores it its 30 s.
     */
    @Test
    void aStopSignalEndsTheMeasuredRunLongBeforeItsDuration() throws Exception {
        Duration interval = Duration.ofMillis(250);
        StopSignal stop = new StopSignal();
        java.util.concurrent.atomic.AtomicInteger intervals = new java.util.concurrent.atomic.AtomicInteger();
        long start = System.nanoTime();
        LoadResult r = LoadRunner.run(config("/objects/10KB/stop").duration(Duration.ofSeconds(30)).stopSignal(stop)
                .reportInterval(interval)
                .onInterval((n, seconds) -> {
                    if (intervals.incrementAndGet() == 2) {
                        stop.stop();
                    }
                }).build());
        double seconds = (System.nanoTime() - start) / 1e9;

        assertThat(stop.stopped()).isTrue();
        assertThat(seconds).as("ended after its second interval, not at 30 s").isLessThan(10);
        assertThat(r.elapsedSeconds()).isBetween(0.49, 9.0);
        assertThat(r.finishedBeforeDeadline()).as("its connections were stopped, as at a deadline").isFalse();
        assertThat(r.counters().completed()).isPositive();
        assertThat(r.counters().totalErrors()).isZero();

        // open loop: ended at once too, without the grace owed arrivals get at a deadline
        StopSignal openStop = new StopSignal();
        java.util.concurrent.atomic.AtomicInteger openIntervals = new java.util.concurrent.atomic.AtomicInteger();
        LoadResult open = LoadRunner.run(config("/objects/10KB/stop-open").duration(Duration.ofSeconds(30))
                .rate(RateSchedule.constant(200)).stopSignal(openStop).reportInterval(interval).onInterval((n, s) -> {
                    if (openIntervals.incrementAndGet() == 2) {
                        openStop.stop();
                    }
                }).build());
        assertThat(open.elapsedSeconds()).isBetween(0.49, 9.0);
        assertThat(open.counters().completed()).isPositive();

        // given before the run starts, the signal ends the run as soon as it starts
        long again = System.nanoTime();
        LoadResult given = LoadRunner.run(config("/objects/10KB/stop-given").duration(Duration.ofSeconds(30)).stopSignal(stop).build());
        assertThat((System.nanoTime() - again) / 1e9).isLessThan(10);
        assertThat(given.elapsedSeconds()).isLessThan(2);
    }

    @Test
    void closedLoopSendsExactlyTheBoundAndVerifiesEveryByte(@TempDir Path dir) throws Exception {
        long before = origin.stats().requests();
        LoadResult r = LoadRunner.run(config("/objects/100KB/closed-a").requests(400).latency(true).build());

        assertThat(r.finishedBeforeDeadline()).isTrue();
        assertThat(r.counters().completed()).isEqualTo(400);
        assertThat(r.counters().goodResponses()).isEqualTo(400);
        assertThat(r.counters().goodBytes()).isEqualTo(400L * 100_000);
        assertThat(r.counters().totalErrors()).isZero();
        assertThat(r.counters().bytesRead()).isGreaterThan(400L * 100_000);
        assertThat(origin.stats().requests() - before).isEqualTo(400);
        assertThat(r.ttlb().getTotalCount()).isEqualTo(400);
        assertThat(r.ttfb().getValueAtPercentile(50)).isLessThanOrEqualTo(r.ttlb().getValueAtPercentile(50));
        assertThat(r.counters().cacheResponses()).isZero(); // the origin sends no X-Cache
        assertThat(r.processCpuSeconds()).isGreaterThan(0);

        Path csv = dir.resolve("run.csv");
        Path json = dir.resolve("run.json");
        Path hlog = dir.resolve("ttlb.hlog");
        r.writeCsv(csv);
        r.writeJson(json);
        r.writeHlog(hlog, LatencyLog.Kind.TTLB);
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).split(",")).contains("requests", "req_per_s", "ttfb_p99_ms", "ttfb_p999_ms", "throughput_bps", "errors_integrity", "hit_ratio_requests")
                .doesNotContain("ttfb_p99_ns", "requests_per_s", "ttfb_p99_9_ms");
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.at("/figures/requests").asLong()).isEqualTo(400);
        assertThat(root.at("/figures/good_bytes").asLong()).isEqualTo(40_000_000L);
        assertThat(root.at("/environment/java_version").asText()).isNotEmpty();
        long logged = 0;
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
            logged += ((org.HdrHistogram.Histogram) h).getTotalCount();
        }
        assertThat(logged).isEqualTo(400);

        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        r.printSummary(new java.io.PrintStream(text, true, "UTF-8"));
        assertThat(text.toString("UTF-8")).contains("400 requests in", "Requests/sec:", "Latency Distribution", "99%");
    }

    @Test
    void corruptedByteIsAnIntegrityError() throws Exception {
        LoadResult r = LoadRunner.run(config("/objects/64KB/corrupt-a?corrupt-at=40000").requests(50).build());
        assertThat(r.counters().completed()).isEqualTo(50);
        assertThat(r.errors(ErrorClass.INTEGRITY)).isEqualTo(50);
        assertThat(r.counters().goodResponses()).isZero();
        assertThat(r.counters().goodBytes()).isZero();
    }

    @Test
    void rangesAtRandomOffsetsOfOneObjectAreVerified() throws Exception {
        LoadResult r = LoadRunner.run(config("/objects/4MiB/ranges-a").requests(40)
                .workload(FixedUrlWorkload.randomRanges("/objects/4MiB/ranges-a", 100_000)).build());
        assertThat(r.counters().goodResponses()).isEqualTo(40);
        assertThat(r.counters().goodBytes()).isEqualTo(40 * 100_000L);
        assertThat(r.counters().totalErrors()).isZero();
        assertThatThrownBy(() -> FixedUrlWorkload.randomRanges("/not/synthetic", 10))
                .hasMessageContaining("not a synthetic object path");
    }

    @Test
    void warmUpLoadIsSentButNotRecorded() throws Exception {
        long before = origin.stats().requests();
        LoadResult r = LoadRunner.run(config("/objects/10KB/warm-a").warmUp(Duration.ofMillis(500)).requests(50).build());
        assertThat(r.counters().completed()).isEqualTo(50);
        assertThat(r.ttlb().getTotalCount()).isEqualTo(50);
        long warmUpRequests = origin.stats().requests() - before - 50;
        assertThat(warmUpRequests).isGreaterThan(0); // the warm-up went to the server...
        assertThat(r.config().describe()).contains("unrecorded 0.5s warm-up"); // ...and the run says so
    }

    @Test
    void chunkedBodiesAreParsedAndVerified() throws Exception {
        LoadResult good = LoadRunner.run(config("/objects/300KB/chunked-a?chunked=true").requests(30).build());
        assertThat(good.counters().goodResponses()).isEqualTo(30);
        assertThat(good.counters().goodBytes()).isEqualTo(30 * 300_000L);
        assertThat(good.counters().totalErrors()).isZero();
        LoadResult corrupt = LoadRunner.run(config("/objects/300KB/chunked-b?chunked=true&corrupt-at=250000").requests(10).build());
        assertThat(corrupt.errors(ErrorClass.INTEGRITY)).isEqualTo(10);
        LoadResult cut = LoadRunner.run(config("/objects/300KB/chunked-c?chunked=true&reset-after=1000").requests(10).build());
        assertThat(cut.errors(ErrorClass.TRUNCATED)).isEqualTo(10);
    }

    @Test
    void resetMidBodyIsTruncation() throws Exception {
        LoadResult r = LoadRunner.run(config("/objects/64KB/reset-a?reset-after=1000").requests(40).build());
        assertThat(r.errors(ErrorClass.TRUNCATED)).isEqualTo(40);
        assertThat(r.counters().goodResponses()).isZero();
        assertThat(r.counters().connects()).isGreaterThanOrEqualTo(40); // every reset forces a reconnect
    }

    @Test
    void statusClassesAreCounted() throws Exception {
        LoadResult r503 = LoadRunner.run(config("/objects/1KB/s?status=503").requests(30).build());
        assertThat(r503.errors(ErrorClass.STATUS_5XX)).isEqualTo(30);
        assertThat(r503.counters().status(5)).isEqualTo(30);
        LoadResult r404 = LoadRunner.run(config("/objects/1KB/s?status=404").requests(20).build());
        assertThat(r404.errors(ErrorClass.STATUS_4XX)).isEqualTo(20);
        assertThat(r404.counters().status(4)).isEqualTo(20);
        assertThat(r404.errors(ErrorClass.STATUS_5XX)).isZero();
    }

    @Test
    void rangeRequestsAreVerifiedFromTheirOffset() throws Exception {
        LoadResult ok = LoadRunner.run(config("/").requests(60)
                .workload(FixedUrlWorkload.range("/objects/1MiB/range-a", 123_457, 223_456)).build());
        assertThat(ok.counters().status(2)).isEqualTo(60);
        assertThat(ok.counters().goodResponses()).isEqualTo(60);
        assertThat(ok.counters().goodBytes()).isEqualTo(60L * 100_000);

        LoadResult bad = LoadRunner.run(config("/").requests(10)
                .workload(FixedUrlWorkload.range("/objects/1MiB/range-a?corrupt-at=200000", 123_457, 223_456)).build());
        assertThat(bad.errors(ErrorClass.INTEGRITY)).isEqualTo(10);
    }

    @Test
    void durationBoundsAnUnboundedRun() throws Exception {
        // 2 s, not 0.7 s: a busy machine's first responses can take most of a second (the run must complete some).
        // An unbounded closed loop never finishes by itself, so it ends at its deadline, never before; how late
        // the waiting thread wakes is the scheduler's, so the upper bounds are seconds, not the 0.8 s it had
        long start = System.nanoTime();
        LoadResult r = LoadRunner.run(config("/objects/10KB/dur").duration(Duration.ofSeconds(2)).build());
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(r.finishedBeforeDeadline()).isFalse();
        assertThat(r.elapsedSeconds()).isBetween(1.999, 5.0);
        assertThat(seconds).as("ended by its duration, not by the 60-s default of this class").isLessThan(15);
        assertThat(r.counters().completed()).isGreaterThan(0);
        assertThat(r.counters().totalErrors()).isZero();
    }

    @Test
    void connectFailuresAreCountedAndTheRunStillEnds() throws Exception {
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        LoadResult r = LoadRunner.run(LoadConfig.builder().url("http://127.0.0.1:" + closedPort + "/x")
                .connections(2).threads(1).duration(Duration.ofSeconds(1)).build());
        assertThat(r.errors(ErrorClass.CONNECT)).isGreaterThan(0);
        assertThat(r.counters().completed()).isZero();
    }
}
