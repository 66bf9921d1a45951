package org.edgelab.kubernetes.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Queue;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import org.HdrHistogram.Histogram;
import org.edgelab.experiments.target.CellLoad;
import org.edgelab.experiments.workload.WorkloadRequest;
import org.edgelab.kubernetes.manifest.ClusterPlan;
import org.edgelab.kubernetes.manifest.Manifests;
import org.edgelab.kubernetes.manifest.Tier;
import org.edgelab.kubernetes.worker.WorkerLog;
import org.edgelab.kubernetes.worker.WorkerMain;
import org.edgelab.kubernetes.worker.WorkerSpec;
import org.edgelab.loadgen.Segment;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.LatencyLog.IntervalCount;
import org.edgelab.loadgen.workers.MergedLoad;
import org.edgelab.loadgen.workers.WorkerReport;
import org.edgelab.plugin.PluginSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The submit/watch/start/collect flow against fabric8's mock API server in CRUD mode (bound to 127.0.0.1), the test
 * playing the StatefulSet and Job controllers and the kubelet: it marks the tiers ready, creates one pod per completion
 * index once the Job is unsuspended (checking the start barrier was written first), serves each pod's log with the
 * report a worker printed and completes the Job.
 */
class ClusterRunMockTest {
    private static final String NS = "edgelab-test";

    private KubernetesMockServer server;
    private KubernetesClient client;

    @BeforeEach
    void start() throws Exception {
        // CRUD mode: the mixed dispatcher answers set expectations (the pods' logs) first, else keeps objects like an API server
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, new KubernetesMixedDispatcher(responses), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        client = server.createClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    @Test
    void mergedResultEqualsWhatTheWorkersReported() throws Exception {
        ClusterPlan plan = plan(3);
        Instant barrier = Instant.parse("2026-12-01T20:00:00Z");
        List<WorkerReport> reports = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            reports.add(report(new Segment(i, 3), barrier, barrier.plusMillis(3 + 7L * i), 1000 + 250L * i, 17 * (i + 1)));
        }
        CompletableFuture<Void> controller = CompletableFuture.runAsync(() -> playController(plan, reports, true));
        MergedLoad merged;
        try (ClusterRun run = new ClusterRun(client, plan, Duration.ofSeconds(30))) {
            run.submit();
            assertThat(client.batch().v1().jobs().inNamespace(NS).withName(Manifests.jobName(plan)).get().getSpec().getSuspend())
                    .as("the Job is created suspended").isTrue();
            run.awaitTiersReady();
            run.start(barrier);
            run.awaitWorkers();
            merged = MergedLoad.of(run.collect());
            controller.get(30, TimeUnit.SECONDS);
            run.close();
            assertThat(client.apps().statefulSets().inNamespace(NS).list().getItems()).as("close deletes the tiers").isEmpty();
            assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems()).as("close deletes the Job").isEmpty();
            assertThat(client.configMaps().inNamespace(NS).list().getItems()).as("close deletes the barrier").isEmpty();
        }
        MergedLoad expected = MergedLoad.of(reports);
        assertThat(merged.requests()).isEqualTo(expected.requests()).isEqualTo(1000 + 1250 + 1500);
        assertThat(merged.counters()).usingRecursiveComparison().isEqualTo(expected.counters());
        assertThat(merged.counters().errors()[0]).isEqualTo(17 + 34 + 51);
        assertThat(merged.ttlb()).isEqualTo(expected.ttlb());
        assertThat(merged.ttfb()).isEqualTo(expected.ttfb());
        assertThat(merged.ttlb().getTotalCount()).isEqualTo(3750);
        Histogram all = new Histogram(3);
        reports.forEach(r -> all.add(r.ttlb()));
        assertThat(merged.ttlb().getValueAtPercentile(99)).isEqualTo(all.getValueAtPercentile(99));
        assertThat(merged.startSkew()).isEqualTo(Duration.ofMillis(14));
        assertThat(merged.requestsInWindow()).isEqualTo(expected.requestsInWindow());
        assertThat(merged.workers()).extracting(WorkerReport::segment)
                .containsExactly(new Segment(0, 3), new Segment(1, 3), new Segment(2, 3));
    }

    @Test
    void aFailedJobFailsTheRunNamingItsPods() throws Exception {
        ClusterPlan plan = plan(2);
        Instant barrier = Instant.now();
        List<WorkerReport> reports = List.of(report(new Segment(0, 2), barrier, barrier, 10, 1),
                report(new Segment(1, 2), barrier, barrier, 10, 1));
        CompletableFuture<Void> controller = CompletableFuture.runAsync(() -> playController(plan, reports, false));
        try (ClusterRun run = new ClusterRun(client, plan, Duration.ofSeconds(30))) {
            run.submit();
            run.awaitTiersReady();
            run.start(barrier);
            assertThatThrownBy(run::awaitWorkers).hasMessageContaining("failed").hasMessageContaining(plan.run() + "-workers-1");
            controller.get(30, TimeUnit.SECONDS);
        }
    }

    static ClusterPlan plan(int workers) {
        CellLoad cell = new CellLoad(6, 1, Duration.ofSeconds(2), Duration.ofSeconds(2), null, "objects",
                new WorkloadRequest(100_000, 0, 10_000_000, 100, "uniform", 0.9, PluginSettings.EMPTY, "c0-"), true, 7);
        WorkerSpec load = WorkerSpec.of("http://r1-edge.edgelab-test.svc:8080", cell, workers);
        return new ClusterPlan(NS, "r1", "registry.example:5000/edgelab-server:abc", "/opt/edgelab/cp/a.jar",
                List.of(), List.of(new Tier("edge", "memory", Map.of("capacity", "64MiB"), List.of(), 1, 512L << 20)), load);
    }

    static WorkerReport report(Segment segment, Instant start, Instant realStart, long requests, long base) {
        Histogram ttfb = new Histogram(3);
        Histogram ttlb = new Histogram(3);
        for (long i = 0; i < requests; i++) {
            ttfb.recordValue(base * 1000 + i * 100);
            ttlb.recordValue(base * 2000 + i * 300);
        }
        long[] statusClasses = new long[6];
        statusClasses[2] = requests;
        long[] errors = new long[Counters.ZERO.errors().length];
        errors[0] = base;
        Counters counters = new Counters(requests, requests + 1, requests * 100_300, requests * 100_000, requests * 100_000,
                requests, requests, requests - base, 0, 0, 0, 0, base, base * 1000, 1, 0, statusClasses, errors);
        List<IntervalCount> intervals = List.of(new IntervalCount(realStart.toEpochMilli(), realStart.toEpochMilli() + 1000, requests));
        return new WorkerReport(segment, start, realStart, realStart.plusSeconds(1), counters, ttfb, ttlb, intervals);
    }

    /** The controllers and the kubelet: tiers ready; after the unsuspend, one pod per index with its log; Job done. */
    private void playController(ClusterPlan plan, List<WorkerReport> reports, boolean succeed) {
        String jobName = Manifests.jobName(plan);
        Job job = client.batch().v1().jobs().inNamespace(NS).withName(jobName).waitUntilCondition(j -> j != null, 20, TimeUnit.SECONDS);
        for (StatefulSet set : client.apps().statefulSets().inNamespace(NS).list().getItems()) {
            set.setStatus(new io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder().withReplicas(1).withReadyReplicas(1).build());
            client.resource(set).inNamespace(NS).updateStatus();
        }
        job = client.batch().v1().jobs().inNamespace(NS).withName(jobName)
                .waitUntilCondition(j -> Boolean.FALSE.equals(j.getSpec().getSuspend()), 20, TimeUnit.SECONDS);
        ConfigMap barrier = client.configMaps().inNamespace(NS).withName(Manifests.startConfigMapName(plan)).get();
        assertThat(barrier).as("the barrier exists before the Job is unsuspended").isNotNull();
        assertThat(job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .anyMatch(e -> e.getName().equals(WorkerMain.START_ENV) && e.getValueFrom() != null);
        for (int i = 0; i < reports.size(); i++) {
            String pod = jobName + "-" + i + "-x" + i;
            boolean ok = succeed || i == 0;
            client.resource(new PodBuilder().withNewMetadata().withName(pod).withNamespace(NS)
                    .addToLabels(ClusterRun.JOB_NAME_LABEL, jobName).addToAnnotations(ClusterRun.COMPLETION_INDEX, String.valueOf(i))
                    .endMetadata().withNewStatus().withPhase(ok ? "Succeeded" : "Failed").endStatus().build()).inNamespace(NS).create();
            try {
                String log = "[main] INFO loadgen - connecting\n" + WorkerLog.frame(reports.get(i)) + "[main] INFO done\n";
                server.expect().get().withPath("/api/v1/namespaces/" + NS + "/pods/" + pod + "/log?pretty=false")
                        .andReturn(200, log).always();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        job.setStatus(new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder().withConditions(new JobConditionBuilder()
                .withType(succeed ? "Complete" : "Failed").withStatus("True").withReason(succeed ? null : "BackoffLimitExceeded")
                .withMessage(succeed ? null : "Job has reached the specified backoff limit").build()).build());
        client.resource(job).inNamespace(NS).updateStatus();
    }
}
