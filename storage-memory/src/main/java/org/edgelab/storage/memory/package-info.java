/**
 * The {@code memory} storage engine: object bodies in pooled off-heap chunks bounded by a byte
 * capacity, evicted by a named {@link org.edgelab.storage.eviction.EvictionPolicy}; not persistent.
 */
package org.edgelab.storage.memory;
