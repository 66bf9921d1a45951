package org.edgelab.experiments.workload;

import java.util.Collection;
import org.edgelab.plugin.PluginRegistry;

/**
 * The registry of {@link WorkloadPlugin}s found through {@code ServiceLoader}; an unknown name fails
 * loudly listing the known ones. Thread-safe.
 */
public final class WorkloadPlugins {

    /** The kind used when a descriptor names none: today's object-set workload. */
    public static final String DEFAULT = "objects";

    private static final class Holder {
        static final PluginRegistry<WorkloadPlugin> REGISTRY = PluginRegistry.load("workload", WorkloadPlugin.class);
    }

    private WorkloadPlugins() {
    }

    /** The registry of workloads visible to this class's loader. */
    public static PluginRegistry<WorkloadPlugin> registry() {
        return Holder.REGISTRY;
    }

    /** The workload kind named {@code name}, or {@code UnknownPluginException} listing the known ones. */
    public static WorkloadPlugin get(String name) {
        return Holder.REGISTRY.get(name);
    }

    /** Every registered workload kind, sorted by name. */
    public static Collection<WorkloadPlugin> all() {
        return Holder.REGISTRY.all();
    }
}
