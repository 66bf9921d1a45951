package org.edgelab.experiments.workload;

import java.nio.file.Path;
import java.util.List;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.NamedPlugin;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;

/**
 * A kind of load (a descriptor's {@code load.workload.kind}): turns the descriptor's workload block into
 * the load generator's {@link Workload} for one cell. Found by name through {@link WorkloadPlugins};
 * a jar adds one with a {@code META-INF/services/org.edgelab.experiments.workload.WorkloadPlugin} line.
 * Implementations are stateless and thread-safe.
 */
public interface WorkloadPlugin extends NamedPlugin {

    /** The keys this kind accepts under {@code load.workload.settings}. */
    default List<Setting> settings() {
        return List.of();
    }

    /**
     * Checks the settings while the descriptor loads and returns them ready to use (relative paths
     * resolved against {@code descriptorDirectory}, null for a built-in descriptor); throws
     * {@code SettingException} naming the bad key.
     */
    PluginSettings prepare(PluginSettings settings, Path descriptorDirectory);

    /**
     * The requests of one cell. Its {@link Workload#warmUp()} is the unmeasured pass the runner sends
     * before each repetition when {@code load.warm_up} is on (null for none).
     */
    Workload create(WorkloadRequest request);

    /** One line for the manifest: how this kind chooses requests and reaches its hit ratio. */
    String method();
}
