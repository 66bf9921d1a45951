package org.edgelab.kubernetes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.edgelab.container.ContainerTarget;
import org.edgelab.container.ServerImages;
import org.edgelab.experiments.target.BuildValidationException;
import org.edgelab.experiments.target.CellLoad;
import org.edgelab.experiments.target.EdgeLabBuilds;
import org.edgelab.experiments.target.JvmCommand;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.workload.WorkloadPlugins;
import org.edgelab.kubernetes.manifest.ClusterPlan;
import org.edgelab.kubernetes.manifest.Manifests;
import org.edgelab.kubernetes.manifest.Tier;
import org.edgelab.kubernetes.worker.WorkerSpec;
import org.edgelab.loadgen.Segment;
import org.edgelab.plugin.Setting;

/**
 * The {@code kubernetes} target: EdgeLab's origin and the build's cache as StatefulSets behind headless Services, and
 * the load as a suspended Indexed Job of {@code workers} pods, each sending its segment of the cell's load from a common
 * start barrier ({@link org.edgelab.kubernetes.cluster.ClusterRun}); the image is the container target's, tagged for
 * and pushed to the registry the build names. With {@code render_only: true} the runner writes each cell's manifests
 * ({@value #MANIFEST}) into the run folder for applying by hand. Measured runs on a cluster are not wired into the
 * experiment runner (its load clients run in its own JVM): such a build is unavailable, saying so.
 *
 * <p>Stateless and thread-safe; {@link #render} blocks while the image is built and pushed.
 */
public final class KubernetesTarget implements Target {
    /** The file each render-only cell's manifests are written to, in the cell's folder under {@code targets/}. */
    public static final String MANIFEST = "kubernetes.yaml";
    /** The one cache tier of a build today. */
    static final String EDGE_TIER = "edge";

    private static final System.Logger LOG = System.getLogger(KubernetesTarget.class.getName());

    @Override
    public String name() {
        return "kubernetes";
    }

    @Override
    public String description() {
        return "origin and cache as StatefulSets, load workers as an Indexed Job on a cluster (fabric8); render_only: true"
                + " writes the manifests (target_settings: registry, push, namespace, workers, render_only, java_options)";
    }

    @Override
    public List<Setting> settings() {
        return KubernetesSettings.SETTINGS;
    }

    @Override
    public void validate(ServerBuild build) {
        KubernetesSettings.of(build.targetSettings());
        EdgeLabBuilds.validate(build);
    }

    @Override
    public void validateLoad(ServerBuild build, List<Integer> connections, String workloadKind) {
        KubernetesSettings settings = KubernetesSettings.of(build.targetSettings());
        for (int c : connections) {
            try {
                Segment.checkConnections(settings.workers(), c);
            } catch (IllegalArgumentException e) {
                throw new BuildValidationException("target_settings/" + KubernetesSettings.WORKERS, e.getMessage()
                        + " (load.connections); give fewer workers or more connections");
            }
        }
        if (!workloadKind.equals(WorkloadPlugins.DEFAULT)) {
            throw new BuildValidationException("target", "the kubernetes target's workers build the '" + WorkloadPlugins.DEFAULT
                    + "' workload only (a '" + workloadKind + "' workload reads files the worker pods do not have)");
        }
    }

    @Override
    public Optional<String> unavailableReason(ServerBuild build) {
        Optional<String> engine = EdgeLabBuilds.unavailableReason(build);
        if (engine.isPresent()) {
            return engine;
        }
        if (!KubernetesSettings.of(build.targetSettings()).renderOnly()) {
            return Optional.of("measured runs on a cluster are not wired into the experiment runner yet (its load clients run"
                    + " in its own JVM); set target_settings.render_only: true to write each cell's manifests instead");
        }
        // the manifests name the server image by its content hash: building it needs Docker
        return ContainerTarget.dockerUnavailableReason();
    }

    @Override
    public boolean rendersOnly(ServerBuild build) {
        return KubernetesSettings.of(build.targetSettings()).renderOnly();
    }

    @Override
    public Path render(ServerBuild build, TargetContext context, CellLoad load) throws IOException {
        KubernetesSettings settings = KubernetesSettings.of(build.targetSettings());
        ServerImages.ServerImage local = ServerImages.serverImage();
        String image = RegistryImages.tag(local.name(), settings.registry());
        Path manifest = writeManifests(plan(build, context, load, image, local.classPath(), settings), context.workDir());
        if (settings.push()) {
            RegistryImages.push(image);
        } else {
            LOG.log(System.Logger.Level.INFO, "server '" + build.name() + "': tagged " + image + "; push it yourself (docker push "
                    + image + ") before applying " + manifest);
        }
        return manifest;
    }

    @Override
    public RunningTarget start(ServerBuild build, TargetContext context) throws IOException {
        throw new IOException("server '" + build.name() + "': " + unavailableReason(build).orElse(
                "the kubernetes target renders cells (render_only); it does not start a server for the runner's own load"));
    }

    /** The runner's --add-opens and logging flags, for every JVM of the cell. */
    private static List<String> runnerJvmFlags() {
        List<String> flags = new java.util.ArrayList<>(JvmCommand.inheritedModuleFlags());
        flags.addAll(JvmCommand.inheritedLoggingFlags());
        return flags;
    }

    /** The plan of one cell: its objects are named after the cell's folder. */
    static ClusterPlan plan(ServerBuild build, TargetContext context, CellLoad load, String image, String classPath,
                            KubernetesSettings settings) {
        String run = runName(context.workDir().getFileName().toString());
        List<Tier> tiers = build.noCache() ? List.of() : List.of(new Tier(EDGE_TIER, build.engine(),
                EdgeLabBuilds.storeSettings(build, Path.of(Manifests.STORE_PATH)), settings.javaOptions(), context.cores(),
                context.memoryBytes()));
        // the workers' URL is the edge tier's: rendered from a plan without the load first, then with it
        ClusterPlan named = new ClusterPlan(settings.namespace(), run, image, classPath, runnerJvmFlags(), tiers,
                WorkerSpec.of("http://unused", load, settings.workers()));
        return new ClusterPlan(named.namespace(), run, image, classPath, named.jvmFlags(), tiers,
                WorkerSpec.of(Manifests.edgeUrl(named), load, settings.workers()));
    }

    /** Writes the plan's objects as YAML to {@value #MANIFEST} in {@code folder}; returns the file. */
    static Path writeManifests(ClusterPlan plan, Path folder) throws IOException {
        Files.createDirectories(folder);
        Path file = folder.resolve(MANIFEST);
        Files.writeString(file, "# EdgeLab kubernetes target, run " + plan.run() + ": kubectl apply -f " + MANIFEST + ", then create"
                + " the start barrier and unsuspend the Job (README: the kubernetes target)\n" + Manifests.yaml(Manifests.render(plan)),
                StandardCharsets.UTF_8);
        return file;
    }

    /**
     * A DNS label of at most {@link ClusterPlan#MAX_RUN} characters from a cell's folder name: lower case, other characters
     * as '-', cut, and a hash of the whole name at the end so that two cells never share one.
     */
    static String runName(String cell) {
        String label = cell.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        String hash = String.format(Locale.ROOT, "%08x", cell.hashCode());
        int room = ClusterPlan.MAX_RUN - hash.length() - 1;
        label = label.length() > room ? label.substring(0, room).replaceAll("-+$", "") : label;
        return (label.isEmpty() ? "cell" : label) + "-" + hash;
    }
}
