package org.edgelab.kubernetes.cluster;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import org.edgelab.kubernetes.manifest.ClusterPlan;
import org.edgelab.kubernetes.manifest.Manifests;
import org.edgelab.kubernetes.worker.WorkerLog;
import org.edgelab.loadgen.workers.MergedLoad;
import org.edgelab.loadgen.workers.WorkerReport;

/**
 * One cell on a cluster, through the API server only: {@link #submit} creates the plan's objects (the Job suspended),
 * {@link #awaitTiersReady} waits until every StatefulSet's replicas are ready, {@link #start} writes the start barrier
 * into its ConfigMap and then unsuspends the Job, so that every worker pod, whenever it is scheduled, reads the same
 * barrier; {@link #awaitWorkers} waits for the Job to complete or fail, {@link #collect} reads each completion index's
 * report from its pod's log and {@link #close} deletes everything the run created (also after a failure).
 *
 * <p>Not thread-safe: one thread drives a run. Every call but {@link #collect} may block up to the run's timeout.
 */
public final class ClusterRun implements AutoCloseable {
    /** The label the Job controller puts on each of its pods (also on clusters older than 1.27). */
    public static final String JOB_NAME_LABEL = "job-name";
    /** The annotation holding a pod's completion index in an Indexed Job. */
    public static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";

    private static final System.Logger LOG = System.getLogger(ClusterRun.class.getName());

    private final KubernetesClient client;
    private final ClusterPlan plan;
    private final List<HasMetadata> objects;
    private final Duration timeout;
    private final List<HasMetadata> created = new ArrayList<>();

    /** A run of {@code plan} through {@code client}, each wait giving up after {@code timeout}. */
    public ClusterRun(KubernetesClient client, ClusterPlan plan, Duration timeout) {
        this.client = client;
        this.plan = plan;
        this.objects = Manifests.render(plan);
        this.timeout = timeout;
    }

    /** Runs the whole flow and returns the workers' merged reports; deletes what it created before returning or throwing. */
    public static MergedLoad run(KubernetesClient client, ClusterPlan plan, Duration lead, Duration timeout)
            throws IOException, InterruptedException {
        try (ClusterRun run = new ClusterRun(client, plan, timeout)) {
            run.submit();
            run.awaitTiersReady();
            run.start(Instant.now().plus(lead));
            run.awaitWorkers();
            return MergedLoad.of(run.collect());
        }
    }

    /** Creates the plan's objects in order (origin, tiers, the suspended Job); throws IOException naming the one refused. */
    public void submit() throws IOException {
        for (HasMetadata object : objects) {
            try {
                created.add(client.resource(object).inNamespace(plan.namespace()).create());
            } catch (KubernetesClientException e) {
                throw new IOException("the API server refused " + object.getKind() + " " + object.getMetadata().getName()
                        + " in namespace " + plan.namespace() + ": " + e.getMessage(), e);
            }
        }
    }

    /** Waits until every StatefulSet of the plan has all its replicas ready. */
    public void awaitTiersReady() throws IOException {
        for (HasMetadata object : objects) {
            if (object instanceof StatefulSet set) {
                int replicas = set.getSpec().getReplicas();
                try {
                    client.apps().statefulSets().inNamespace(plan.namespace()).withName(set.getMetadata().getName())
                            .waitUntilCondition(s -> s != null && s.getStatus() != null && s.getStatus().getReadyReplicas() != null
                                    && s.getStatus().getReadyReplicas() >= replicas, timeout.toMillis(), TimeUnit.MILLISECONDS);
                } catch (KubernetesClientTimeoutException e) {
                    throw new IOException("StatefulSet " + set.getMetadata().getName() + " did not have " + replicas
                            + " ready replica(s) within " + timeout + " (kubectl -n " + plan.namespace() + " describe statefulset "
                            + set.getMetadata().getName() + ")", e);
                }
            }
        }
    }

    /**
     * Writes {@code startAt} into the start ConfigMap and then unsuspends the Job: its pods are created only now, and each
     * reads the barrier when it starts. Returns the barrier.
     */
    public Instant start(Instant startAt) throws IOException {
        ConfigMap barrier = new ConfigMapBuilder().withNewMetadata().withName(Manifests.startConfigMapName(plan))
                .withNamespace(plan.namespace()).withLabels(Map.of(Manifests.RUN_LABEL, plan.run())).endMetadata()
                .withData(Map.of(Manifests.START_KEY, String.valueOf(startAt.toEpochMilli()))).build();
        try {
            created.add(client.resource(barrier).inNamespace(plan.namespace()).create());
            client.batch().v1().jobs().inNamespace(plan.namespace()).withName(Manifests.jobName(plan))
                    .edit(job -> {
                        job.getSpec().setSuspend(false);
                        return job;
                    });
        } catch (KubernetesClientException e) {
            throw new IOException("could not start the workers of " + plan.run() + ": " + e.getMessage(), e);
        }
        return startAt;
    }

    /** Waits until the Job has completed; throws IOException when it failed (naming its failed pods) or timed out. */
    public void awaitWorkers() throws IOException {
        String name = Manifests.jobName(plan);
        Job job;
        try {
            job = client.batch().v1().jobs().inNamespace(plan.namespace()).withName(name)
                    .waitUntilCondition(j -> j != null && (condition(j, "Complete") || condition(j, "Failed")),
                            timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (KubernetesClientTimeoutException e) {
            throw new IOException("the workers' Job " + name + " did not finish within " + timeout, e);
        }
        if (condition(job, "Failed")) {
            List<String> failed = pods().stream().filter(p -> p.getStatus() != null && "Failed".equals(p.getStatus().getPhase()))
                    .map(p -> p.getMetadata().getName()).toList();
            throw new IOException("the workers' Job " + name + " failed (" + reason(job) + "); failed pods: " + failed
                    + " (kubectl -n " + plan.namespace() + " logs POD)");
        }
    }

    /**
     * Each completion index's report, read from the log of its pod that succeeded, ordered by index; throws IOException
     * when an index has no succeeded pod, or a report is missing, broken or of another segment.
     */
    public List<WorkerReport> collect() throws IOException {
        int workers = plan.load().workers();
        Map<Integer, Pod> byIndex = new TreeMap<>();
        for (Pod pod : pods()) {
            if (pod.getStatus() == null || !"Succeeded".equals(pod.getStatus().getPhase())) {
                continue;
            }
            String index = pod.getMetadata().getAnnotations() == null ? null : pod.getMetadata().getAnnotations().get(COMPLETION_INDEX);
            if (index == null) {
                throw new IOException("worker pod " + pod.getMetadata().getName() + " has no " + COMPLETION_INDEX + " annotation");
            }
            byIndex.put(Integer.parseInt(index), pod);
        }
        List<WorkerReport> reports = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            Pod pod = byIndex.get(i);
            if (pod == null) {
                throw new IOException("no worker pod of Job " + Manifests.jobName(plan) + " succeeded with completion index " + i);
            }
            String podName = pod.getMetadata().getName();
            String log;
            try {
                log = client.pods().inNamespace(plan.namespace()).withName(podName).getLog();
            } catch (KubernetesClientException e) {
                throw new IOException("could not read the log of worker pod " + podName + ": " + e.getMessage(), e);
            }
            WorkerReport report = WorkerLog.read(log == null ? "" : log, podName);
            if (report.segment().index() != i || report.segment().count() != workers) {
                throw new IOException("worker pod " + podName + " (completion index " + i + ") reported segment "
                        + report.segment() + ", not " + i + "/" + workers);
            }
            reports.add(report);
        }
        return reports;
    }

    /** The Job's pods, ordered by name. */
    public List<Pod> pods() {
        return client.pods().inNamespace(plan.namespace()).withLabel(JOB_NAME_LABEL, Manifests.jobName(plan)).list().getItems()
                .stream().sorted(Comparator.comparing(p -> p.getMetadata().getName())).toList();
    }

    /** Deletes every object the run created, the Job's pods with it; a failure to delete is logged, not thrown. */
    @Override
    public void close() {
        for (int i = created.size() - 1; i >= 0; i--) {
            HasMetadata object = created.get(i);
            try {
                client.resource(object).inNamespace(plan.namespace()).withPropagationPolicy(
                        io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND).delete();
            } catch (KubernetesClientException e) {
                LOG.log(System.Logger.Level.WARNING, "could not delete " + object.getKind() + " " + object.getMetadata().getName()
                        + " in namespace " + plan.namespace() + ": " + e.getMessage());
            }
        }
        created.clear();
    }

    private static boolean condition(Job job, String type) {
        return job.getStatus() != null && job.getStatus().getConditions() != null && job.getStatus().getConditions().stream()
                .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static String reason(Job job) {
        Optional<JobCondition> failed = job.getStatus().getConditions().stream().filter(c -> "Failed".equals(c.getType())).findFirst();
        return failed.map(c -> c.getReason() + ": " + c.getMessage()).orElse("no reason given");
    }
}
