package org.edgelab.experiments.cli;

import java.io.PrintWriter;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.edgelab.experiments.client.LoadClients;
import org.edgelab.experiments.descriptor.yaml.BuiltinExperiments;
import org.edgelab.experiments.power.PowerModels;
import org.edgelab.experiments.runner.ExperimentKinds;
import org.edgelab.experiments.target.Targets;
import org.edgelab.experiments.workload.WorkloadPlugins;
import org.edgelab.plugin.NamedPlugin;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.eviction.EvictionPolicies;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code edgelab list}: the built-in experiments with their descriptions, then the registered plugins of
 * every kind (those in jars under {@code $EDGELAB_PLUGINS} included) with one line each. Stateless.
 */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List the built-in experiments and the plugins of every kind on the class path.")
public final class ListCommand implements Runnable {

    /** A plugin kind as listed: heading, where a descriptor selects it, the plugins. */
    private record Kind(String heading, String selector, Collection<? extends NamedPlugin> plugins) {
    }

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("Experiments (edgelab run NAME [--quick] [--target NAME]):");
        for (Map.Entry<String, String> e : BuiltinExperiments.descriptions().entrySet()) {
            out.printf("  %-16s %s%n", e.getKey(), e.getValue());
        }
        List<Kind> kinds = List.of(
                new Kind("Storage engines", "servers[].engine", StorageEngines.registry().all()),
                new Kind("Eviction policies", "engine setting policy", EvictionPolicies.registry().all()),
                new Kind("Targets", "target, servers[].target, --target", Targets.all()),
                new Kind("Workloads", "load.workload.kind", WorkloadPlugins.all()),
                new Kind("Load clients", "load.client", LoadClients.all()),
                new Kind("Power models", "hardware.power.model", PowerModels.all()),
                new Kind("Experiment kinds", "kind", ExperimentKinds.all()));
        for (Kind kind : kinds) {
            out.printf("%s (%s):%n", kind.heading(), kind.selector());
            for (NamedPlugin plugin : kind.plugins()) {
                out.printf("  %-16s %s%n", plugin.name(), plugin.description());
            }
        }
        out.println("Add plugins by dropping their jars in $EDGELAB_PLUGINS (default: plugins/ next to the edgelab launcher).");
        out.flush();
    }
}
