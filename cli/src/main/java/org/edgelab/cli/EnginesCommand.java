package org.edgelab.cli;

import java.io.PrintWriter;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.api.StorageEngine;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.eviction.EvictionPolicies;
import org.edgelab.storage.eviction.EvictionPolicyFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code edgelab engines}: lists the storage engines and eviction policies on the class path, with their settings. Stateless. */
@Command(name = "engines", mixinStandardHelpOptions = true,
        description = "List the storage engines and eviction policies found on the class path, with each engine's settings.")
final class EnginesCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("Storage engines (--engine NAME, settings with -o NAME=VALUE):");
        for (StorageEngine engine : StorageEngines.registry().all()) {
            out.printf("  %-10s %s%n", engine.name(), engine.description());
            for (Setting s : engine.settings()) {
                out.printf("      %-22s %s%s%n", s.name(), s.description(),
                        s.defaultValue() == null ? " (required)" : " (default: " + s.defaultValue() + ")");
            }
        }
        out.println("Eviction policies (-o policy=NAME):");
        for (EvictionPolicyFactory policy : EvictionPolicies.registry().all()) {
            out.printf("  %-10s %s%n", policy.name(), policy.description());
        }
        out.flush();
    }
}
