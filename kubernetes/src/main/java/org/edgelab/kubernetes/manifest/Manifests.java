package org.edgelab.kubernetes.manifest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.edgelab.kubernetes.worker.WorkerMain;

/**
 * Turns a {@link ClusterPlan} into fabric8's typed objects, and those into YAML: the origin and each cache tier as a
 * one-replica StatefulSet behind a headless Service of the same name, and the load workers as a suspended Indexed Job
 * (completions = parallelism = N workers, no retries) whose pods read the start barrier from the ConfigMap
 * {@link #startConfigMapName} (created just before the Job is unsuspended). Every object carries the run's label
 * {@value #RUN_LABEL}. Stateless and thread-safe.
 */
public final class Manifests {
    /** The label every object of a run carries, its value the run's name. */
    public static final String RUN_LABEL = "edgelab.org/run";
    /** The label naming an object's part: {@code origin}, {@code tier} or {@code workers}. */
    public static final String COMPONENT_LABEL = "app.kubernetes.io/component";
    /** The key of the start barrier (epoch milliseconds) in the start ConfigMap. */
    public static final String START_KEY = "start_at_epoch_ms";
    /** The origin's port in its pod. */
    public static final int ORIGIN_PORT = 8081;
    /** A cache server's client port in its pod. */
    public static final int CACHE_PORT = 8080;
    /** A cache server's admin port ({@code /stats}) in its pod. */
    public static final int ADMIN_PORT = 8082;

    static final String ORIGIN_MAIN = "org.edgelab.origin.cli.OriginCommand";
    static final String CACHE_MAIN = "org.edgelab.cache.cli.ServeCommand";
    /** Where a cache pod's store lives (an emptyDir). */
    public static final String STORE_PATH = "/var/lib/edgelab/store";

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private Manifests() {
    }

    /** The origin's StatefulSet and Service name. */
    public static String originName(ClusterPlan plan) {
        return plan.run() + "-origin";
    }

    /** A tier's StatefulSet and Service name. */
    public static String tierName(ClusterPlan plan, Tier tier) {
        return plan.run() + "-" + tier.name();
    }

    /** The workers' Job name. */
    public static String jobName(ClusterPlan plan) {
        return plan.run() + "-workers";
    }

    /** The ConfigMap holding the start barrier. */
    public static String startConfigMapName(ClusterPlan plan) {
        return plan.run() + "-start";
    }

    /** The origin's base URL inside the cluster. */
    public static String originUrl(ClusterPlan plan) {
        return "http://" + originName(plan) + "." + plan.namespace() + ".svc:" + ORIGIN_PORT;
    }

    /** A tier's base URL inside the cluster. */
    public static String tierUrl(ClusterPlan plan, Tier tier) {
        return "http://" + tierName(plan, tier) + "." + plan.namespace() + ".svc:" + CACHE_PORT;
    }

    /** The URL the workers load: the edge tier's, or the origin's when there is no tier. */
    public static String edgeUrl(ClusterPlan plan) {
        return plan.tiers().isEmpty() ? originUrl(plan) : tierUrl(plan, plan.tiers().get(0));
    }

    /** Every object of the plan, in the order they are applied: origin, tiers from the last parent to the edge, Job. */
    public static List<HasMetadata> render(ClusterPlan plan) {
        List<HasMetadata> objects = new ArrayList<>();
        String origin = originName(plan);
        objects.add(headlessService(plan, origin, "origin", Map.of("http", ORIGIN_PORT)));
        objects.add(statefulSet(plan, origin, "origin", container(plan, "origin", List.of(), ORIGIN_MAIN,
                List.of("--bind", "0.0.0.0", "--port", String.valueOf(ORIGIN_PORT)), ORIGIN_PORT, 0, 0), false));
        for (int i = plan.tiers().size() - 1; i >= 0; i--) {
            Tier tier = plan.tiers().get(i);
            String upstream = i == plan.tiers().size() - 1 ? originUrl(plan) : tierUrl(plan, plan.tiers().get(i + 1));
            List<String> arguments = new ArrayList<>(List.of("--bind", "0.0.0.0", "--port", String.valueOf(CACHE_PORT),
                    "--admin-port", String.valueOf(ADMIN_PORT), "--origin", upstream, "--engine", tier.engine()));
            tier.storeSettings().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> arguments.addAll(List.of("-o", e.getKey() + "=" + e.getValue())));
            String name = tierName(plan, tier);
            objects.add(headlessService(plan, name, "tier", Map.of("http", CACHE_PORT, "admin", ADMIN_PORT)));
            objects.add(statefulSet(plan, name, "tier", container(plan, "cache", tier.javaOptions(), CACHE_MAIN, arguments,
                    CACHE_PORT, tier.cpus(), tier.memoryBytes()), true));
        }
        objects.add(job(plan));
        return objects;
    }

    /** The objects as one YAML stream, one document each. */
    public static String yaml(List<HasMetadata> objects) {
        StringBuilder out = new StringBuilder();
        for (HasMetadata object : objects) {
            String document = SERIALIZATION.asYaml(object);
            out.append(document.startsWith("---") ? "" : "---\n").append(document);
            if (!document.endsWith("\n")) {
                out.append('\n');
            }
        }
        return out.toString();
    }

    private static Map<String, String> labels(ClusterPlan plan, String component, String name) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("app.kubernetes.io/part-of", "edgelab");
        labels.put(RUN_LABEL, plan.run());
        labels.put(COMPONENT_LABEL, component);
        labels.put("app.kubernetes.io/name", name);
        return labels;
    }

    private static Service headlessService(ClusterPlan plan, String name, String component, Map<String, Integer> ports) {
        ServiceBuilder service = new ServiceBuilder().withNewMetadata().withName(name).withNamespace(plan.namespace())
                .withLabels(labels(plan, component, name)).endMetadata()
                .withNewSpec().withClusterIP("None").withSelector(Map.of(RUN_LABEL, plan.run(), "app.kubernetes.io/name", name))
                .withPublishNotReadyAddresses(false).endSpec();
        ports.entrySet().stream().sorted(Map.Entry.comparingByValue()).forEach(p -> service.editSpec().addNewPort()
                .withName(p.getKey()).withPort(p.getValue()).withTargetPort(new IntOrString(p.getValue())).withProtocol("TCP")
                .endPort().endSpec());
        return service.build();
    }

    private static StatefulSet statefulSet(ClusterPlan plan, String name, String component, Container container, boolean store) {
        PodSpecBuilder pod = new PodSpecBuilder().withContainers(container).withEnableServiceLinks(false)
                .addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume();
        if (store) {
            pod.addNewVolume().withName("store").withNewEmptyDir().endEmptyDir().endVolume();
        }
        return new StatefulSetBuilder().withNewMetadata().withName(name).withNamespace(plan.namespace())
                .withLabels(labels(plan, component, name)).endMetadata()
                .withNewSpec().withServiceName(name).withReplicas(1).withPodManagementPolicy("Parallel")
                .withNewSelector().withMatchLabels(Map.of(RUN_LABEL, plan.run(), "app.kubernetes.io/name", name)).endSelector()
                .withNewTemplate().withNewMetadata().withLabels(labels(plan, component, name)).endMetadata()
                .withSpec(pod.build()).endTemplate().endSpec().build();
    }

    private static Container container(ClusterPlan plan, String containerName, List<String> jvmFlags, String mainClass,
                                       List<String> arguments, int port, double cpus, long memoryBytes) {
        ContainerBuilder c = new ContainerBuilder().withName(containerName).withImage(plan.image()).withImagePullPolicy("IfNotPresent")
                .withArgs(javaArguments(plan, jvmFlags, mainClass, arguments))
                .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount()
                .addNewPort().withName("http").withContainerPort(port).withProtocol("TCP").endPort()
                .withNewReadinessProbe().withNewTcpSocket().withPort(new IntOrString(port)).endTcpSocket()
                .withPeriodSeconds(1).withFailureThreshold(3).endReadinessProbe();
        if (mainClass.equals(CACHE_MAIN)) {
            c.addNewVolumeMount().withName("store").withMountPath(STORE_PATH).endVolumeMount();
        }
        Map<String, Quantity> limits = new LinkedHashMap<>();
        if (cpus > 0) {
            limits.put("cpu", new Quantity(cpuQuantity(cpus)));
        }
        if (memoryBytes > 0) {
            limits.put("memory", new Quantity(String.valueOf(memoryBytes)));
        }
        if (!limits.isEmpty()) {
            c.withResources(new ResourceRequirementsBuilder().withLimits(limits).withRequests(limits).build());
        }
        return c.build();
    }

    private static Job job(ClusterPlan plan) {
        String name = jobName(plan);
        int workers = plan.load().workers();
        EnvVar spec = new EnvVarBuilder().withName(WorkerMain.SPEC_ENV).withValue(plan.load().toJson()).build();
        EnvVar start = new EnvVarBuilder().withName(WorkerMain.START_ENV).withNewValueFrom().withNewConfigMapKeyRef()
                .withName(startConfigMapName(plan)).withKey(START_KEY).withOptional(false).endConfigMapKeyRef().endValueFrom().build();
        Container worker = new ContainerBuilder().withName("worker").withImage(plan.image()).withImagePullPolicy("IfNotPresent")
                .withArgs(javaArguments(plan, List.of(), WorkerMain.class.getName(), List.of()))
                .withEnv(spec, start)
                .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount().build();
        PodSpec pod = new PodSpecBuilder().withContainers(worker).withRestartPolicy("Never").withEnableServiceLinks(false)
                .addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume().build();
        return new JobBuilder().withNewMetadata().withName(name).withNamespace(plan.namespace())
                .withLabels(labels(plan, "workers", name)).endMetadata()
                .withNewSpec().withSuspend(true).withCompletionMode("Indexed").withCompletions(workers).withParallelism(workers)
                .withBackoffLimit(0)
                .withNewTemplate().withNewMetadata().withLabels(labels(plan, "workers", name)).endMetadata()
                .withSpec(pod).endTemplate().endSpec().build();
    }

    private static List<String> javaArguments(ClusterPlan plan, List<String> jvmFlags, String mainClass, List<String> arguments) {
        // the image's entry point is java: its arguments are JVM flags, class path, main class and the program's
        List<String> args = new ArrayList<>(plan.jvmFlags());
        args.addAll(jvmFlags);
        args.addAll(List.of("-cp", plan.classPath(), mainClass));
        args.addAll(arguments);
        return args;
    }

    private static String cpuQuantity(double cpus) {
        long millis = Math.round(cpus * 1000);
        return millis % 1000 == 0 ? String.valueOf(millis / 1000) : millis + "m";
    }
}
