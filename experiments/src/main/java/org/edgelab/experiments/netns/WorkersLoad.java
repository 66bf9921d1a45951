package org.edgelab.experiments.netns;

import java.io.IOException;

import org.edgelab.experiments.client.ClientLoad;
import org.edgelab.experiments.client.ClientResult;
import org.edgelab.experiments.client.ClientRun;
import org.edgelab.experiments.client.LoadClient;
import org.edgelab.experiments.client.LoadgenClient;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.Shards;
import org.edgelab.loadgen.workers.LocalWorkers;
import org.edgelab.plugin.PluginSettings;

/**
 * The load of a running topology: each run (warm-up, settle, measured) is sent by the topology's workers, each from its
 * own namespace with its segment of the run's connections, rate and requests, starting together at a barrier the target's
 * {@code start_lead} ahead, each request to the edge the ring over the edges names; their reports are merged
 * ({@link MergedResult}). Not a registered plugin: the runner gets it from the running target. Thread-safe; {@link #run}
 * blocks for the run.
 */
final class WorkersLoad implements LoadClient {
    private final TopologyNodes nodes;

    WorkersLoad(TopologyNodes nodes) {
        this.nodes = nodes;
    }

    @Override
    public String name() {
        return "loadgen-workers";
    }

    @Override
    public String description() {
        return "loadgen workers of a topology, each in its own network namespace, started at one barrier and merged";
    }

    @Override
    public void validate(ClientLoad load, PluginSettings settings) {
        // the descriptor loader checks a topology's load (client loadgen, a fixed settle, no links)
    }

    @Override
    public String method() {
        return MergedResult.METHOD;
    }

    @Override
    public ClientResult run(ClientRun run) throws IOException, InterruptedException {
        return new MergedResult(send(LoadgenClient.config(run)));
    }

    /**
     * Sends {@code config} (its URL the first edge's) with the topology's workers, at most one per connection, each
     * request to its edge; returns each worker's result and their merge. Blocks for the run.
     */
    LocalWorkers.Outcome send(LoadConfig.Builder config) throws IOException, InterruptedException {
        if (nodes.topology().edge().replicas() > 1) {
            config.shards(new Shards(nodes.edges(), nodes.edgeRouter()));
        }
        LoadConfig built = config.build();
        int workers = Math.min(nodes.topology().workers(), built.connections());
        try {
            return LocalWorkers.run(built, workers, nodes.settings().startLead(), nodes.placement());
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
