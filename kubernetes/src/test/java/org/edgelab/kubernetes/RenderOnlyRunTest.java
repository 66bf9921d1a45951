package org.edgelab.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.edgelab.container.ContainerTarget;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.kubernetes.manifest.StrictModelAccess;
import org.edgelab.kubernetes.worker.WorkerMain;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/**
 * A render-only experiment through the runner: the server image is built (the container target's, with Docker),
 * tagged for the registry without a push, and every cell's manifests land in its folder; nothing runs, no rows.
 * Skipped without Docker, failed instead when EDGELAB_REQUIRE_DOCKER=1.
 */
class RenderOnlyRunTest {
    @TempDir
    Path dir;

    @Test
    void everyCellIsWrittenAsManifestsNamingTheTaggedImageAndNothingRuns() throws Exception {
        var unavailable = ContainerTarget.dockerUnavailableReason();
        if (unavailable.isPresent() && "1".equals(System.getenv("EDGELAB_REQUIRE_DOCKER"))) {
            throw new AssertionError("EDGELAB_REQUIRE_DOCKER=1 but " + unavailable.get());
        }
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> "skipped: " + unavailable.get());
        Path file = dir.resolve("k8s-render.yaml");
        Files.writeString(file, """
                name: k8s-render
                target: kubernetes
                target_settings: {registry: "registry.example.com/edgelab-test", push: false, render_only: true, workers: 2, namespace: bench}
                servers: [{engine: memory, settings: {capacity: 64MiB}}]
                load: {connections: [2, 4], duration: 5s, workload: {object_sizes: [10KB], working_set: 1MB}}
                """);
        Descriptor descriptor = DescriptorLoader.load(file.toString(), false);
        RunResult result = ExperimentRunner.run(descriptor, RunOptions.defaults().withOutputRoot(dir.resolve("results"))
                .withProgress(System.out));
        List<String> images = new ArrayList<>();
        try {
            assertThat(result.rows()).as("nothing ran").isEmpty();
            List<Path> manifests;
            try (Stream<Path> files = Files.walk(result.directory().resolve("targets"))) {
                manifests = files.filter(p -> p.getFileName().toString().equals(KubernetesTarget.MANIFEST)).sorted().toList();
            }
            assertThat(manifests).hasSize(2);
            List<Integer> connections = new ArrayList<>();
            for (Path manifest : manifests) {
                List<HasMetadata> objects = StrictModelAccess.read(Files.readString(manifest));
                Job job = (Job) objects.get(objects.size() - 1);
                var worker = job.getSpec().getTemplate().getSpec().getContainers().get(0);
                images.add(worker.getImage());
                assertThat(worker.getImage()).startsWith("registry.example.com/edgelab-test/edgelab-server:");
                assertThat(worker.getArgs()).contains(WorkerMain.class.getName());
                connections.add(org.edgelab.kubernetes.worker.WorkerSpec.parse(worker.getEnv().get(0).getValue()).connections());
                assertThat(objects).allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo("bench"));
            }
            assertThat(connections).containsExactlyInAnyOrder(2, 4);
            assertThat(images).as("one image for every cell").containsOnly(images.get(0));
            // the tag is in the local Docker, ready for a push
            DockerClientFactory.instance().client().inspectImageCmd(images.get(0)).exec();
        } finally {
            for (String image : images.stream().distinct().toList()) {
                DockerClientFactory.instance().client().removeImageCmd(image).withForce(false).exec(); // removes the tag only
            }
        }
    }
}
