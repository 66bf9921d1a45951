package org.edgelab.kubernetes.manifest;

import java.util.Map;

/**
 * One cache tier of a topology: an EdgeLab cache build run as a StatefulSet behind a headless Service. Its upstream
 * is the next tier of {@link ClusterPlan#tiers()} (its parent), the last one's is the origin. Immutable.
 *
 * @param name          the tier's name in object names (a DNS label, e.g. {@code edge})
 * @param engine        the storage engine
 * @param storeSettings the engine's settings, with its directory inside the pod
 * @param javaOptions   JVM flags of the cache server
 * @param cpus          the CPU limit of each cache pod (cores), 0 for none
 * @param memoryBytes   the memory limit of each cache pod, 0 for none
 */
public record Tier(String name, String engine, Map<String, String> storeSettings, java.util.List<String> javaOptions, double cpus,
                   long memoryBytes) {
    /** Copies the settings and flags; checks the name is a DNS label. */
    public Tier {
        storeSettings = Map.copyOf(storeSettings);
        javaOptions = java.util.List.copyOf(javaOptions);
        ClusterPlan.requireDnsLabel("tier name", name);
    }
}
