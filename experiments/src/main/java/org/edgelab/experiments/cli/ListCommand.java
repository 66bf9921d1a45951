package org.edgelab.experiments.cli;

import java.io.PrintWriter;
import java.util.Map;
import org.edgelab.experiments.descriptor.BuiltinExperiments;
import org.edgelab.storage.api.StorageEngine;
import org.edgelab.storage.api.StorageEngines;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code edgelab list}: the built-in experiments with their descriptions, and the storage engines found. Stateless. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List the built-in experiments and the storage engines on the class path.")
public final class ListCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("Experiments (edgelab run NAME [--quick]):");
        for (Map.Entry<String, String> e : BuiltinExperiments.descriptions().entrySet()) {
            out.printf("  %-16s %s%n", e.getKey(), e.getValue());
        }
        out.println("Storage engines:");
        for (StorageEngine engine : StorageEngines.registry().all()) {
            out.printf("  %-16s %s%n", engine.name(), engine.description());
        }
        out.flush();
    }
}
