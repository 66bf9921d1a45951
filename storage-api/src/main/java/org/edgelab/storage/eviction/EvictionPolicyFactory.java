package org.edgelab.storage.eviction;

import org.edgelab.plugin.NamedPlugin;

/**
 * A named eviction policy plugin, registered through
 * {@code META-INF/services/org.edgelab.storage.eviction.EvictionPolicyFactory} and found with
 * {@link EvictionPolicies}. Stateless and thread-safe.
 */
public interface EvictionPolicyFactory extends NamedPlugin {

    /** Creates a policy for a store of {@code capacityBytes} (policies with queues size them from it). */
    <K> EvictionPolicy<K> create(long capacityBytes);
}
