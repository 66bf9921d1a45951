package org.edgelab.experiments.workload;

import org.edgelab.plugin.PluginSettings;

/**
 * What a {@link WorkloadPlugin} builds one cell's workload from: the cell's object and range size, the
 * descriptor's object set (working set, count bound, popularity, target hit ratio), the kind's prepared
 * settings and a namespace. Immutable and thread-safe.
 *
 * @param objectSize     the cell's object size in bytes
 * @param rangeSize      the cell's range size in bytes, 0 for full fetches
 * @param workingSet     bytes of the warmed object set
 * @param maxObjects     upper bound on the object count
 * @param popularity     {@code uniform} or {@code zipf:ALPHA}
 * @param targetHitRatio 0..1, or NaN for none
 * @param settings       the kind's prepared settings
 * @param namespace      a prefix for object ids that is distinct per cell, so cells never share objects
 */
public record WorkloadRequest(long objectSize, long rangeSize, long workingSet, long maxObjects, String popularity,
                             double targetHitRatio, PluginSettings settings, String namespace) {
}
