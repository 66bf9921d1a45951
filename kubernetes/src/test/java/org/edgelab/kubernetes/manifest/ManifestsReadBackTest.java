package org.edgelab.kubernetes.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.edgelab.experiments.target.CellLoad;
import org.edgelab.experiments.workload.WorkloadRequest;
import org.edgelab.kubernetes.worker.WorkerMain;
import org.edgelab.kubernetes.worker.WorkerSpec;
import org.edgelab.plugin.PluginSettings;
import org.junit.jupiter.api.Test;

/** The rendered YAML read back into fabric8's typed model, refusing any unknown field, and checked object by object. */
class ManifestsReadBackTest {

    static ClusterPlan plan(int workers) {
        CellLoad load = new CellLoad(8, 2, Duration.ofSeconds(10), Duration.ofSeconds(2), "2000", "objects",
                new WorkloadRequest(1_000_000, 0, 50_000_000, 1000, "zipf:0.8", 0.925, PluginSettings.EMPTY, "c3-"), true, 42);
        String edge = "http://run1-edge.bench.svc:8080";
        return new ClusterPlan("bench", "run1", "registry.example.com:5000/edgelab/edgelab-server:0123abcd", "/opt/edgelab/cp/a.jar:/opt/edgelab/cp/b.jar",
                List.of("--add-opens", "java.base/java.nio=ALL-UNNAMED"),
                List.of(new Tier("edge", "raw-log", Map.of("disks", "/var/lib/edgelab/store", "capacity", "1GiB"),
                        List.of("-XX:MaxRAMPercentage=50"), 1.5, 2L << 30)),
                WorkerSpec.of(edge, load, workers));
    }

    @Test
    void everyRenderedObjectReadsBackIntoTheTypedModelAsRendered() {
        ClusterPlan plan = plan(4);
        List<HasMetadata> rendered = Manifests.render(plan);
        List<HasMetadata> read = StrictModel.read(Manifests.yaml(rendered));
        assertThat(read).extracting(HasMetadata::getKind).containsExactly("Service", "StatefulSet", "Service", "StatefulSet", "Job");
        assertThat(read).isEqualTo(rendered);
        assertThat(read).allSatisfy(o -> assertThat(o.getMetadata().getLabels()).containsEntry(Manifests.RUN_LABEL, "run1"))
                .allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo("bench"));
    }

    @Test
    void theTiersAreStatefulSetsBehindHeadlessServicesAndTheEdgeFetchesFromTheOrigin() {
        ClusterPlan plan = plan(4);
        List<HasMetadata> read = StrictModel.read(Manifests.yaml(Manifests.render(plan)));
        for (String name : List.of("run1-origin", "run1-edge")) {
            Service service = find(read, Service.class, name);
            StatefulSet set = find(read, StatefulSet.class, name);
            assertThat(service.getSpec().getClusterIP()).as("headless").isEqualTo("None");
            assertThat(set.getSpec().getServiceName()).isEqualTo(name);
            assertThat(set.getSpec().getReplicas()).isEqualTo(1);
            assertThat(set.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(set.getSpec().getSelector().getMatchLabels())
                    .containsAllEntriesOf(service.getSpec().getSelector());
        }
        Container cache = find(read, StatefulSet.class, "run1-edge").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(cache.getImage()).isEqualTo(plan.image());
        assertThat(cache.getArgs()).containsSubsequence("--add-opens", "java.base/java.nio=ALL-UNNAMED", "-XX:MaxRAMPercentage=50",
                        "-cp", plan.classPath(), Manifests.CACHE_MAIN)
                .containsSubsequence("--origin", "http://run1-origin.bench.svc:" + Manifests.ORIGIN_PORT)
                .containsSubsequence("--engine", "raw-log", "-o", "capacity=1GiB", "-o", "disks=/var/lib/edgelab/store");
        assertThat(cache.getResources().getLimits().get("cpu").toString()).isEqualTo("1500m");
        assertThat(cache.getResources().getLimits().get("memory").getNumericalAmount().longValueExact()).isEqualTo(2L << 30);
        assertThat(cache.getVolumeMounts()).anyMatch(m -> m.getMountPath().equals(Manifests.STORE_PATH));
    }

    @Test
    void theWorkersAreASuspendedIndexedJobThatReadsTheStartBarrierFromItsConfigMap() {
        ClusterPlan plan = plan(4);
        Job job = find(StrictModel.read(Manifests.yaml(Manifests.render(plan))), Job.class, "run1-workers");
        assertThat(job.getSpec().getSuspend()).isTrue();
        assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(job.getSpec().getCompletions()).isEqualTo(4);
        assertThat(job.getSpec().getParallelism()).as("all workers at once").isEqualTo(4);
        assertThat(job.getSpec().getBackoffLimit()).as("a failed worker fails the run, it is not retried late").isZero();
        Container worker = job.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(worker.getArgs()).endsWith("-cp", plan.classPath(), WorkerMain.class.getName());
        EnvVar start = worker.getEnv().stream().filter(e -> e.getName().equals(WorkerMain.START_ENV)).findFirst().orElseThrow();
        assertThat(start.getValueFrom().getConfigMapKeyRef().getName()).isEqualTo(Manifests.startConfigMapName(plan));
        assertThat(start.getValueFrom().getConfigMapKeyRef().getKey()).isEqualTo(Manifests.START_KEY);
        String spec = worker.getEnv().stream().filter(e -> e.getName().equals(WorkerMain.SPEC_ENV)).findFirst().orElseThrow().getValue();
        WorkerSpec load = WorkerSpec.parse(spec);
        assertThat(load).isEqualTo(plan.load());
        assertThat(load.url()).isEqualTo(Manifests.edgeUrl(plan)).isEqualTo("http://run1-edge.bench.svc:8080");
        assertThat(job.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
    }

    @Test
    void theNoCacheBaselineSendsTheWorkersToTheOrigin() {
        ClusterPlan full = plan(2);
        ClusterPlan none = new ClusterPlan(full.namespace(), full.run(), full.image(), full.classPath(), full.jvmFlags(), List.of(),
                full.load());
        assertThat(StrictModel.read(Manifests.yaml(Manifests.render(none)))).extracting(HasMetadata::getKind)
                .containsExactly("Service", "StatefulSet", "Job");
        assertThat(Manifests.edgeUrl(none)).isEqualTo("http://run1-origin.bench.svc:" + Manifests.ORIGIN_PORT);
    }

    @Test
    void theStrictReaderRefusesAnUnknownFieldAtAnyDepth() {
        String yaml = Manifests.yaml(Manifests.render(plan(2)));
        String typo = yaml.replaceFirst("completionMode: \"Indexed\"", "completionMode: \"Indexed\"\n  completionsMode: \"Indexed\"");
        assertThat(typo).isNotEqualTo(yaml);
        assertThatThrownBy(() -> StrictModel.read(typo)).hasMessageContaining("completionsMode").hasMessageContaining("Job/run1-workers");
        String deep = yaml.replaceFirst("clusterIP: \"None\"", "clusterIP: \"None\"\n  clusterIp: \"None\"");
        assertThat(deep).isNotEqualTo(yaml);
        assertThatThrownBy(() -> StrictModel.read(deep)).hasMessageContaining("clusterIp");
        String nested = yaml.replaceFirst("(?m)^(\\s+)readinessProbe:", "$1readinessProbe:\n$1  tcpSockets: {}");
        assertThat(nested).isNotEqualTo(yaml);
        assertThatThrownBy(() -> StrictModel.read(nested)).hasMessageContaining("tcpSockets");
    }

    private static <T extends HasMetadata> T find(List<HasMetadata> objects, Class<T> kind, String name) {
        return objects.stream().filter(kind::isInstance).map(kind::cast).filter(o -> o.getMetadata().getName().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind.getSimpleName() + " " + name));
    }
}
