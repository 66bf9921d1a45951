package org.edgelab.experiments.client;

import java.util.Collection;
import org.edgelab.plugin.PluginRegistry;

/**
 * The registry of {@link LoadClient}s found through {@code ServiceLoader}; an unknown name fails loudly
 * listing the known ones. Thread-safe.
 */
public final class LoadClients {

    /** The client used when a descriptor names none: EdgeLab's load generator. */
    public static final String DEFAULT = "loadgen";

    private static final class Holder {
        static final PluginRegistry<LoadClient> REGISTRY = PluginRegistry.load("load client", LoadClient.class);
    }

    private LoadClients() {
    }

    /** The client named {@code name}, or {@code UnknownPluginException} listing the known ones. */
    public static LoadClient get(String name) {
        return Holder.REGISTRY.get(name);
    }

    /** The registered names, sorted. */
    public static Collection<String> names() {
        return Holder.REGISTRY.names();
    }

    /** Every registered client, sorted by name. */
    public static Collection<LoadClient> all() {
        return Holder.REGISTRY.all();
    }
}
