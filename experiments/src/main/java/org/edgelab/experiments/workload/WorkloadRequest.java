package org.edgelab.experiments.workload;

import org.edgelab.experiments.descriptor.Descriptor.LoadProfile;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.plugin.PluginSettings;

/**
 * What a {@link WorkloadPlugin} builds one cell's workload from. Immutable and thread-safe.
 *
 * @param load      the descriptor's load profile (object set, popularity, target hit ratio)
 * @param settings  the kind's prepared settings
 * @param cell      the cell (object size, range size, connections)
 * @param namespace a prefix for object ids that is distinct per cell, so cells never share objects
 */
public record WorkloadRequest(LoadProfile load, PluginSettings settings, Cell cell, String namespace) {
}
