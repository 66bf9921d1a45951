/**
 * Eviction policies shared by every engine that evicts: the {@link org.edgelab.storage.eviction.EvictionPolicy}
 * SPI, plugins found by name through {@link org.edgelab.storage.eviction.EvictionPolicies}
 * ({@code lru}, {@code fifo}, {@code sieve}, {@code s3-fifo}), each a small single-threaded class
 * that an engine drives under its own lock.
 */
package org.edgelab.storage.eviction;
