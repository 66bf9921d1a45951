package org.edgelab.experiments.target;

import java.util.Collection;
import org.edgelab.plugin.PluginRegistry;

/**
 * The registry of {@link Target} plugins, found through {@code ServiceLoader}
 * ({@code META-INF/services/org.edgelab.experiments.target.Target}); an unknown name fails loudly
 * with the known names. Thread-safe.
 */
public final class Targets {

    /** The target used when a descriptor names none. */
    public static final String DEFAULT = "embedded";

    private static final class Holder {
        static final PluginRegistry<Target> REGISTRY = PluginRegistry.load("target", Target.class);
    }

    private Targets() {
    }

    /** The target named {@code name}, or {@code UnknownPluginException} listing the known ones. */
    public static Target get(String name) {
        return Holder.REGISTRY.get(name);
    }

    /** Every registered target, sorted by name. */
    public static Collection<Target> all() {
        return Holder.REGISTRY.all();
    }

    /** The registered names, sorted. */
    public static Collection<String> names() {
        return Holder.REGISTRY.names();
    }
}
