package org.edgelab.loadgen.workers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.HistogramLogReader;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.RateSchedule;
import org.edgelab.loadgen.Warm;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three workers in one JVM against a real origin on loopback: started together, merged by adding histograms. */
class LocalWorkersTest {
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

    @Test
    void mergedCountsAreTheWorkersSumsAndTheMergedP99IsThatOfAllSamples(@TempDir Path dir) throws Exception {
        // 2 s: the window loses the workers' start skew, which the bounds below allow as a fixed 0.2 s (and the
        // requests outside the window as a tenth of the run); a 1-s run halves both margins
        LoadConfig config = LoadConfig.builder().url(origin.baseUri() + "/objects/2KB/merge").connections(7).threads(1)
                .duration(Duration.ofSeconds(2)).timeout(Duration.ofSeconds(5)).build();
        LocalWorkers.Outcome run = LocalWorkers.run(config, 3, Duration.ofMillis(500));
        MergedLoad merged = run.merged();

        assertThat(run.workers()).hasSize(3);
        assertThat(run.workers()).extracting(r -> r.config().segment().connections(7)).containsExactly(3, 2, 2);
        long sum = run.workers().stream().mapToLong(r -> r.counters().completed()).sum();
        assertThat(merged.requests()).isEqualTo(sum).isPositive();
        assertThat(merged.counters().bytesRead()).isEqualTo(run.workers().stream().mapToLong(r -> r.counters().bytesRead()).sum());
        assertThat(merged.ttlb().getTotalCount()).isEqualTo(sum);
        assertThat(merged.counters().totalErrors()).isZero();

        // every sample the workers logged, interval by interval in their .hlog files, ranked by value
        List<Long> samples = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            LoadResult worker = run.workers().get(i);
            Path hlog = dir.resolve("ttlb-" + i + ".hlog");
            worker.writeHlog(hlog, LatencyLog.Kind.TTLB);
            try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
                EncodableHistogram interval;
                while ((interval = reader.nextIntervalHistogram()) != null) {
                    for (HistogramIterationValue v : ((Histogram) interval).recordedValues()) {
                        for (long c = 0; c < v.getCountAtValueIteratedTo(); c++) {
                            samples.add(v.getValueIteratedTo());
                        }
                    }
                }
                // the .hlog's StartTime is the worker's real start
                assertThat((long) (reader.getStartTimeSec() * 1000)).isEqualTo(worker.realStart().toEpochMilli());
            }
        }
        samples.sort(null);
        assertThat((long) samples.size()).isEqualTo(sum);
        long p99OfAll = samples.get((int) Math.ceil(0.99 * samples.size()) - 1);
        long mergedP99 = merged.ttlb().getValueAtPercentile(99);
        assertThat(merged.ttlb().valuesAreEquivalent(mergedP99, p99OfAll))
                .as("merged p99 %d ns, p99 of all %d samples %d ns", mergedP99, samples.size(), p99OfAll).isTrue();

        // all started at the barrier and ran over a common window
        assertThat(merged.startSkew()).isLessThanOrEqualTo(skewBound(run, 0));
        for (LoadResult worker : run.workers()) {
            assertThat(worker.start()).isEqualTo(run.workers().get(0).start());
            assertThat(worker.realStart()).isAfterOrEqualTo(worker.start());
        }
        // the window ends with the first worker to stop: no longer than its run, which is 2 s plus however late
        // its thread woke at the deadline (2.3 s with the machine's load average at 20)
        double firstToStop = run.workers().stream().mapToDouble(LoadResult::elapsedSeconds).min().orElseThrow();
        assertThat(merged.windowSeconds()).isBetween(1.8, firstToStop + 0.001);
        assertThat(merged.requestsInWindow()).isLessThanOrEqualTo(sum).isGreaterThan(0.8 * sum);
        assertThat(merged.requestsPerSecond()).isPositive();
    }

    @Test
    void openLoopWorkersSendTheUndividedRateAndTheWarmUpRunsOnce() throws Exception {
        ObjectWorkload workload = ObjectWorkload.builder().objects(20).sizes("1KB").targetHitRatio(0.5).namespace("warmonce").build();
        LoadConfig config = LoadConfig.builder().url(origin.baseUri()).connections(6).threads(1).workload(workload)
                .duration(Duration.ofSeconds(1)).timeout(Duration.ofSeconds(5)).rate(RateSchedule.constant(150)).build();
        long before = origin.stats().requests();
        LocalWorkers.Outcome run = LocalWorkers.run(config, 3, Duration.ofMillis(500));
        long originRequests = origin.stats().requests() - before;

        // 150 req/s for 1 s: requests 0..149 of the undivided schedule, 50 per worker
        assertThat(run.workers()).extracting(r -> r.counters().sent()).containsExactly(50L, 50L, 50L);
        assertThat(run.merged().counters().sent()).isEqualTo(150);
        // the 20 set objects were fetched once by the one warm-up pass, not once per worker
        assertThat(originRequests).isEqualTo(20 + 150);
        // worker 2's first arrival (request 2) is due 13.3 ms after the barrier
        assertThat(run.merged().startSkew()).isLessThanOrEqualTo(skewBound(run, 2 * 1_000_000_000L / 150));
    }

    /**
     * A worker's first send is its first arrival's due time after the shared barrier plus its loop's lateness,
     * so the start skew is at most the latest first arrival's offset plus the largest lateness any worker
     * measured (2 ms more for the millisecond clocks): a worker that anchored its schedule anywhere but at
     * the barrier would exceed it. The 50 ms skew of issue 21 is a figure of an experiment run, not this
     * test's: with the machine's load average at 16 one worker's first send was 73 ms late.
     */
    private static Duration skewBound(LocalWorkers.Outcome run, long latestFirstOffsetNanos) {
        return Duration.ofNanos(latestFirstOffsetNanos + run.merged().counters().maxStartDelayNanos()).plusMillis(2);
    }

    @Test
    void moreWorkersThanConnectionsFailsBeforeAnyLoad() {
        LoadConfig config = LoadConfig.builder().url(origin.baseUri() + "/objects/1KB/x").connections(2).threads(1).build();
        long before = origin.stats().requests();
        assertThatThrownBy(() -> LocalWorkers.run(config, 3, Duration.ofMillis(100)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 load workers need at least 3 connections");
        assertThat(origin.stats().requests()).isEqualTo(before);
    }

    @Test
    void aWorkerReportSurvivesItsFile(@TempDir Path dir) throws Exception {
        LoadConfig config = LoadConfig.builder().url(origin.baseUri() + "/objects/1KB/file").connections(2).threads(1)
                .duration(Duration.ofMillis(500)).build();
        LocalWorkers.Outcome run = LocalWorkers.run(config, 2, Duration.ofMillis(300));
        List<WorkerReport> read = new ArrayList<>();
        for (LoadResult worker : run.workers()) {
            Path file = dir.resolve(worker.config().segment().index() + "-" + WorkerReport.FILE);
            WorkerReport.of(worker).write(file);
            read.add(WorkerReport.read(file));
        }
        MergedLoad again = MergedLoad.of(read);
        assertThat(again.counters()).usingRecursiveComparison().isEqualTo(run.merged().counters());
        assertThat(again.ttlb()).isEqualTo(run.merged().ttlb());
        assertThat(again.startSkew()).isEqualTo(run.merged().startSkew());
        assertThat(again.requestsInWindow()).isEqualTo(run.merged().requestsInWindow());
        assertThatThrownBy(() -> MergedLoad.of(read.subList(0, 1))).hasMessageContaining("are not the segments 0..1");
    }
}
