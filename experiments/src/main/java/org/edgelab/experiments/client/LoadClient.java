package org.edgelab.experiments.client;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.edgelab.plugin.NamedPlugin;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;

/**
 * What sends a cell's measured load (a descriptor's {@code load.client}): EdgeLab's own load generator
 * ({@code loadgen}, the default) or an outside tool such as {@code wrk} or {@code wrk2}, so a figure can be
 * checked with the client a reader trusts. Found by name through {@link LoadClients}; a jar adds one with a
 * {@code META-INF/services/org.edgelab.experiments.client.LoadClient} line. Implementations are stateless
 * and thread-safe; {@link #run} blocks for the run's duration.
 */
public interface LoadClient extends NamedPlugin {

    /** The keys this client accepts under a {@code load.client} entry's {@code settings:}. */
    default List<Setting> settings() {
        return List.of();
    }

    /**
     * Checks, while the descriptor loads, that this client can send {@code load} with these settings; throws
     * {@code SettingException} whose key is a settings key, or a descriptor pointer starting with {@code /}
     * (e.g. {@code /load/rate}) for a load field it cannot honour.
     */
    void validate(ClientLoad load, PluginSettings settings);

    /**
     * Empty when the client can run on this machine now, otherwise what is missing and how to get it (its
     * cells are then skipped with that note). Cheap.
     */
    default Optional<String> unavailableReason(PluginSettings settings) {
        return Optional.empty();
    }

    /** One line for the manifest: how this client's figures are measured and what it cannot say. */
    String method();

    /** Sends {@code run}'s load until its duration has passed and returns what was measured. Blocks. */
    ClientResult run(ClientRun run) throws IOException, InterruptedException;
}
