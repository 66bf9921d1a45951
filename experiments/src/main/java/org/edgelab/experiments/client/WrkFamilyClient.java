package org.edgelab.experiments.client;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;

/**
 * The load-client side of {@code wrk} and {@code wrk2}: every call but the description and the method goes
 * to their {@link WrkTool}. Stateless and thread-safe.
 */
abstract sealed class WrkFamilyClient implements LoadClient permits WrkClient, Wrk2Client {

    private final WrkTool tool;

    WrkFamilyClient(WrkTool tool) {
        this.tool = tool;
    }

    @Override
    public final String name() {
        return tool.name();
    }

    @Override
    public final List<Setting> settings() {
        return tool.settings();
    }

    @Override
    public final void validate(ClientLoad load, PluginSettings settings) {
        tool.validate(load, settings);
    }

    @Override
    public final Optional<String> unavailableReason(PluginSettings settings) {
        return tool.unavailableReason(settings);
    }

    @Override
    public final ClientResult run(ClientRun run) throws IOException, InterruptedException {
        return tool.run(run);
    }
}
