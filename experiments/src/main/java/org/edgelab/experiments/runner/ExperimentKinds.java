package org.edgelab.experiments.runner;

import java.util.Collection;
import org.edgelab.plugin.PluginRegistry;

/**
 * The registry of {@link ExperimentPlugin}s found through {@code ServiceLoader}; an unknown name fails
 * loudly listing the known ones. Thread-safe.
 */
public final class ExperimentKinds {

    /** The kind used when a descriptor names none: the matrix runner. */
    public static final String DEFAULT = "matrix";

    private static final class Holder {
        static final PluginRegistry<ExperimentPlugin> REGISTRY = PluginRegistry.load("experiment kind", ExperimentPlugin.class);
    }

    private ExperimentKinds() {
    }

    /** The registry of experiment kinds visible to this class's loader. */
    public static PluginRegistry<ExperimentPlugin> registry() {
        return Holder.REGISTRY;
    }

    /** The kind named {@code name}, or {@code UnknownPluginException} listing the known ones. */
    public static ExperimentPlugin get(String name) {
        return Holder.REGISTRY.get(name);
    }

    /** Every registered kind, sorted by name. */
    public static Collection<ExperimentPlugin> all() {
        return Holder.REGISTRY.all();
    }
}
