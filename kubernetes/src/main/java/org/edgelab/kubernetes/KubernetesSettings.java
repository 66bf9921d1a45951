package org.edgelab.kubernetes;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.edgelab.container.ContainerTarget;
import org.edgelab.experiments.target.BuildValidationException;
import org.edgelab.experiments.target.TargetSettings;
import org.edgelab.kubernetes.manifest.ClusterPlan;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;

/**
 * A build's {@code target_settings} for the kubernetes target, read and checked once: a bad one is a
 * {@link BuildValidationException} on the setting's own field ({@code target_settings/KEY}), so the descriptor error
 * points at its line. Immutable.
 *
 * @param registry    where the cluster pulls EdgeLab's image from ({@code host[:port][/path]}); no default
 * @param push        whether the target pushes the image there (false: the user pushes it)
 * @param namespace   the namespace every object goes to
 * @param workers     the load workers N (the Job's completions)
 * @param renderOnly  whether the cell's manifests are only written, for applying by hand
 * @param javaOptions JVM flags of the cache server
 */
public record KubernetesSettings(String registry, boolean push, String namespace, int workers, boolean renderOnly,
                                 List<String> javaOptions) {
    static final String REGISTRY = "registry";
    static final String PUSH = "push";
    static final String NAMESPACE = "namespace";
    static final String WORKERS = "workers";
    static final String RENDER_ONLY = "render_only";

    /** The settings the target takes. */
    public static final List<Setting> SETTINGS = List.of(
            new Setting(REGISTRY, null, "the registry the cluster pulls EdgeLab's image from, host[:port][/path] (required)"),
            new Setting(PUSH, "true", "push the image to the registry (false: tag it only and push it yourself)"),
            new Setting(NAMESPACE, "default", "the namespace every object goes to"),
            new Setting(WORKERS, "1", "load workers (pods of the Indexed Job), at most the load's connections"),
            new Setting(RENDER_ONLY, "false", "only write the manifests to the run folder, for kubectl apply by hand"),
            new Setting(ContainerTarget.JAVA_OPTIONS, ContainerTarget.DEFAULT_JAVA_OPTIONS, "JVM flags of the cache server"));

    private static final String REGISTRY_PATTERN = "[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?(/[a-z0-9]+([._-][a-z0-9]+)*)*";

    /** Reads and checks {@code settings}. */
    public static KubernetesSettings of(Map<String, String> settings) {
        TargetSettings.requireOnly("kubernetes", settings, SETTINGS);
        Optional<String> registry = TargetSettings.get(settings, REGISTRY);
        if (registry.isEmpty()) {
            throw new BuildValidationException("target_settings", "the kubernetes target needs target_settings." + REGISTRY
                    + ": the registry the cluster pulls EdgeLab's image from, e.g. registry.example.com:5000/edgelab"
                    + " (there is no default)");
        }
        if (!registry.get().matches(REGISTRY_PATTERN)) {
            throw new BuildValidationException("target_settings/" + REGISTRY, "'" + registry.get() + "' is not a registry:"
                    + " expected host[:port][/path] in lower case, without a scheme, e.g. registry.example.com:5000/edgelab");
        }
        PluginSettings s = PluginSettings.of(settings);
        try {
            String namespace = s.string(NAMESPACE, "default");
            try {
                ClusterPlan.requireDnsLabel("namespace", namespace);
            } catch (IllegalArgumentException e) {
                throw new SettingException(NAMESPACE, e.getMessage());
            }
            String javaOptions = s.string(ContainerTarget.JAVA_OPTIONS, ContainerTarget.DEFAULT_JAVA_OPTIONS).trim();
            return new KubernetesSettings(registry.get(), s.bool(PUSH, true), namespace, s.integer(WORKERS, 1, 1, 10_000),
                    s.bool(RENDER_ONLY, false), javaOptions.isEmpty() ? List.of() : List.of(javaOptions.split("\\s+")));
        } catch (SettingException e) {
            throw new BuildValidationException("target_settings/" + e.key(), e.getMessage());
        }
    }
}
