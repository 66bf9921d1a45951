package org.edgelab.experiments.process.cgroup;

/**
 * Memory figures of one cgroup, -1 where the kernel does not expose them. Immutable.
 *
 * @param usageBytes     memory charged now, page cache included ({@code memory.usage_in_bytes} / {@code memory.current})
 * @param peakBytes      the highest charge since the cgroup was made ({@code memory.max_usage_in_bytes} / {@code memory.peak})
 * @param pageCacheBytes page cache charged now ({@code memory.stat} {@code total_cache} in v1, {@code file} in v2)
 */
public record CgroupMemory(long usageBytes, long peakBytes, long pageCacheBytes) {
}
