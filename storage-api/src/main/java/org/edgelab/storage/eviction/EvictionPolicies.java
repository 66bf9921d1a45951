package org.edgelab.storage.eviction;

import org.edgelab.plugin.PluginRegistry;

/** The registry of eviction policies on the class path, by name; unknown names fail loudly. Thread-safe. */
public final class EvictionPolicies {

    private static final class Holder {
        static final PluginRegistry<EvictionPolicyFactory> REGISTRY =
                PluginRegistry.load("eviction policy", EvictionPolicyFactory.class);
    }

    private EvictionPolicies() {
    }

    /** Returns the registry of policies. */
    public static PluginRegistry<EvictionPolicyFactory> registry() {
        return Holder.REGISTRY;
    }

    /** Creates the named policy for a store of {@code capacityBytes}. */
    public static <K> EvictionPolicy<K> create(String name, long capacityBytes) {
        return registry().get(name).create(capacityBytes);
    }
}
