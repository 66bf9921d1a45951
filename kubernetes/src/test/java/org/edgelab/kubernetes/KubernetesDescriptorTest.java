package org.edgelab.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorException;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.target.CellLoad;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.Targets;
import org.edgelab.experiments.workload.WorkloadRequest;
import org.edgelab.kubernetes.manifest.ClusterPlan;
import org.edgelab.kubernetes.manifest.StrictModelAccess;
import org.edgelab.kubernetes.worker.WorkerSpec;
import org.edgelab.plugin.PluginSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A descriptor naming the kubernetes target: what it needs is checked at load, at the line of the field at fault. */
class KubernetesDescriptorTest {
    @TempDir
    Path dir;

    private Descriptor load(String text) throws Exception {
        Path file = dir.resolve("k8s.yaml");
        Files.writeString(file, text);
        return DescriptorLoader.load(file.toString(), false);
    }

    @Test
    void theTargetIsFoundByName() {
        assertThat(Targets.names()).contains("kubernetes");
        assertThat(Targets.get("kubernetes")).isInstanceOf(KubernetesTarget.class);
    }

    @Test
    void aGoodDescriptorLoadsWithItsSettings() throws Exception {
        Descriptor d = load("""
                name: k8s
                target: kubernetes
                target_settings: {registry: "registry.example.com:5000/edgelab", workers: 3, render_only: true}
                servers: [{engine: memory}]
                load: {connections: [3, 12]}
                """);
        ServerBuild build = d.servers().get(0);
        assertThat(build.target()).isEqualTo("kubernetes");
        KubernetesSettings settings = KubernetesSettings.of(build.targetSettings());
        assertThat(settings.workers()).isEqualTo(3);
        assertThat(settings.renderOnly()).isTrue();
        assertThat(settings.namespace()).isEqualTo("default");
        assertThat(Targets.get("kubernetes").rendersOnly(build)).isTrue();
    }

    @Test
    void aMissingRegistryFailsAtLoadAtTheBuildsTargetSettings() {
        assertThatThrownBy(() -> load("""
                name: k8s
                servers:
                  - engine: memory
                    target: kubernetes
                    target_settings: {workers: 2}
                load: {connections: [4]}
                """)).isInstanceOf(DescriptorException.class).hasMessageContaining("k8s.yaml:5:")
                .hasMessageContaining("needs target_settings.registry").hasMessageContaining("no default");
    }

    @Test
    void aRegistryWithASchemeFailsAtItsLine() {
        assertThatThrownBy(() -> load("""
                name: k8s
                target: kubernetes
                target_settings:
                  registry: https://registry.example.com
                servers: [{engine: memory}]
                """)).isInstanceOf(DescriptorException.class).hasMessageContaining("k8s.yaml:4:")
                .hasMessageContaining("without a scheme");
    }

    @Test
    void moreWorkersThanConnectionsFailsAtLoadAtTheWorkersLine() {
        assertThatThrownBy(() -> load("""
                name: k8s
                servers:
                  - engine: memory
                    target: kubernetes
                    target_settings:
                      registry: registry.example.com/edgelab
                      workers: 4
                load: {connections: [8, 2]}
                """)).isInstanceOf(DescriptorException.class).hasMessageContaining("k8s.yaml:7:")
                .hasMessageContaining("4 load workers need at least 4 connections").hasMessageContaining("got 2");
    }

    @Test
    void anUnknownBuildFailsAtLoadAtItsEngine() {
        assertThatThrownBy(() -> load("""
                name: k8s
                target: kubernetes
                target_settings: {registry: registry.example.com/edgelab}
                servers:
                  - engine: memroy
                """)).isInstanceOf(DescriptorException.class).hasMessageContaining("k8s.yaml:5:")
                .hasMessageContaining("memroy");
    }

    @Test
    void anUnknownSettingFailsAtLoad() {
        assertThatThrownBy(() -> load("""
                name: k8s
                target: kubernetes
                target_settings: {registry: registry.example.com/edgelab, replicas: 3}
                servers: [{engine: memory}]
                """)).isInstanceOf(DescriptorException.class).hasMessageContaining("k8s.yaml:3:").hasMessageContaining("replicas");
    }

    @Test
    void aCellRendersToManifestsThatReadBackIntoTheTypedModel() throws Exception {
        ServerBuild build = new ServerBuild("raw", "kubernetes", "raw-log", java.util.Map.of("capacity", "1GiB"),
                java.util.Map.of("registry", "registry.example.com/edgelab", "workers", "2", "render_only", "true", "namespace", "bench"));
        Path cell = dir.resolve("targets").resolve("c003-raw_100KB_c8_Conns_1Gbit_s");
        TargetContext context = new TargetContext(dir.resolve("store"), cell, 2, 1L << 30, Duration.ofSeconds(30));
        CellLoad load = new CellLoad(8, 2, Duration.ofSeconds(10), Duration.ofSeconds(2), null, "objects",
                new WorkloadRequest(100_000, 0, 10_000_000, 100, "uniform", 0.9, PluginSettings.EMPTY, "c3-"), true, 42);
        ClusterPlan plan = KubernetesTarget.plan(build, context, load, "registry.example.com/edgelab/edgelab-server:ab12", "/cp/a.jar",
                KubernetesSettings.of(build.targetSettings()));
        Path written = KubernetesTarget.writeManifests(plan, cell);
        assertThat(written).isEqualTo(cell.resolve(KubernetesTarget.MANIFEST));
        List<HasMetadata> objects = StrictModelAccess.read(Files.readString(written));
        assertThat(plan.run()).matches("[a-z0-9-]{1,40}").startsWith("c003-raw-100kb-c8-conns-1gbit-s");
        Job job = (Job) objects.get(objects.size() - 1);
        WorkerSpec spec = WorkerSpec.parse(job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("EDGELAB_WORKER_SPEC")).findFirst().orElseThrow().getValue());
        assertThat(spec.url()).isEqualTo("http://" + plan.run() + "-edge.bench.svc:8080");
        assertThat(spec.workers()).isEqualTo(2);
        assertThat(spec.connections()).isEqualTo(8);
        assertThat(spec.namespace()).isEqualTo("c3-");
    }

    @Test
    void runNamesAreDistinctDnsLabels() {
        String a = KubernetesTarget.runName("c001-" + "x".repeat(80) + "-A");
        String b = KubernetesTarget.runName("c001-" + "x".repeat(80) + "-B");
        assertThat(a).hasSizeLessThanOrEqualTo(ClusterPlan.MAX_RUN).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?").isNotEqualTo(b);
    }

    @Test
    void aMeasuredRunIsUnavailableSayingWhy() {
        ServerBuild build = new ServerBuild("m", "kubernetes", "memory", java.util.Map.of(),
                java.util.Map.of("registry", "registry.example.com/edgelab"));
        assertThat(Targets.get("kubernetes").unavailableReason(build)).hasValueSatisfying(r -> assertThat(r)
                .contains("not wired into the experiment runner").contains("render_only: true"));
    }
}
