package org.edgelab.kubernetes.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.edgelab.experiments.target.CellLoad;
import org.edgelab.experiments.workload.WorkloadRequest;
import org.edgelab.loadgen.Segment;
import org.edgelab.loadgen.workers.MergedLoad;
import org.edgelab.loadgen.workers.WorkerReport;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.plugin.PluginSettings;
import org.junit.jupiter.api.Test;

/**
 * Two workers as their pods run them (the same spec JSON, their completion index, one barrier), here in threads against
 * a real origin on loopback: each prints a framed report, which reads back as its segment, and the reports merge.
 */
class WorkerMainTest {

    @Test
    void workersOfOneSpecSendTheirSegmentsFromTheBarrierAndPrintReportsThatMerge() throws Exception {
        try (OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).ioThreads(1).build())) {
            CellLoad load = new CellLoad(5, 2, Duration.ofSeconds(1), Duration.ofSeconds(5), null, "objects",
                    new WorkloadRequest(4096, 0, 40 * 4096, 40, "uniform", 0.9, PluginSettings.EMPTY, "c0-"), true, 11);
            String json = WorkerSpec.of(origin.baseUri().toString(), load, 2).toJson();
            // epoch milliseconds, as the start ConfigMap holds it
            Instant barrier = Instant.ofEpochMilli(System.currentTimeMillis() + 2000);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<String>> logs = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    int index = i;
                    logs.add(pool.submit(() -> {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        try (PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
                            print.println("a line the JVM logged before the report");
                            WorkerMain.run(WorkerSpec.parse(json), index, barrier, print);
                            print.println("a line after it");
                        }
                        return out.toString(StandardCharsets.UTF_8);
                    }));
                }
                List<WorkerReport> reports = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    reports.add(WorkerLog.read(logs.get(i).get(), "worker-" + i));
                }
                assertThat(reports).extracting(WorkerReport::segment).containsExactly(new Segment(0, 2), new Segment(1, 2));
                assertThat(reports).allSatisfy(r -> {
                    // never before the barrier (worker 0's warm-up may hold it past it on a busy machine: that is skew)
                    assertThat(r.start()).isAfterOrEqualTo(barrier);
                    assertThat(r.realStart()).isAfterOrEqualTo(r.start());
                    assertThat(r.counters().completed()).isPositive();
                    assertThat(r.counters().totalErrors()).isZero();
                });
                MergedLoad merged = MergedLoad.of(reports);
                assertThat(merged.requests()).isEqualTo(reports.get(0).counters().completed() + reports.get(1).counters().completed());
                assertThat(merged.ttlb().getTotalCount()).isEqualTo(merged.requests());
                assertThat(merged.startSkew()).isEqualTo(Duration.between(
                        reports.stream().map(WorkerReport::realStart).min(Instant::compareTo).orElseThrow(),
                        reports.stream().map(WorkerReport::realStart).max(Instant::compareTo).orElseThrow()));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aLogWithoutACompleteReportNamesThePodAndShowsItsEnd() {
        assertThatThrownBy(() -> WorkerLog.read("Exception in thread main: connection refused\n" + WorkerLog.BEGIN + "\n{\"segm", "w-3"))
                .hasMessageContaining("w-3").hasMessageContaining("connection refused");
    }

    @Test
    void moreWorkersThanConnectionsIsRefused() {
        CellLoad load = new CellLoad(2, 1, Duration.ofSeconds(1), Duration.ofSeconds(1), null, "objects",
                new WorkloadRequest(4096, 0, 4096, 1, "uniform", 0.9, PluginSettings.EMPTY, "c0-"), true, 1);
        assertThatThrownBy(() -> WorkerSpec.of("http://x:1", load, 3)).hasMessageContaining("3 load workers need at least 3 connections");
    }
}
