package org.edgelab.experiments.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.runner.ExperimentKinds;
import org.edgelab.experiments.runner.ExperimentPlugin;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code edgelab run <name|file> [--quick] [--target NAME] [--out DIR] [--resume DIR] [--store-dir DIR]}: runs
 * an experiment with its kind's plugin ({@code matrix} by default) and prints a comparison of the main
 * figures. Exit status 0 when every cell finished, 1 when the result is partial. One invocation per instance.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run an experiment (a built-in name, see 'edgelab list', or a descriptor file) and print its comparison.")
public final class RunCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<name|file>", description = "built-in experiment name or descriptor YAML file")
    private String experiment;

    @Option(names = "--quick", description = "apply the descriptor's quick variant (minutes instead of hours)")
    private boolean quick;

    @Option(names = "--target", paramLabel = "NAME",
            description = "run the builds that name no target of their own on this target (see 'edgelab list')")
    private String target;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
            description = "results root; the run goes to DIR/<experiment>/<yyyyMMdd-HHmmss>/ (default: ${DEFAULT-VALUE})")
    private Path out;

    @Option(names = "--resume", paramLabel = "DIR", description = "continue an earlier run folder, skipping its finished cells")
    private Path resume;

    @Option(names = "--store-dir", paramLabel = "DIR", description = "where engines keep their files (the disk under test); default: inside the run folder")
    private Path storeDir;

    @Override
    public Integer call() throws Exception {
        PrintWriter writer = spec.commandLine().getOut();
        Descriptor descriptor = DescriptorLoader.load(experiment, quick, target);
        writer.printf("experiment %s%s (%s): %s%n", descriptor.name(), quick ? " (quick)" : "", descriptor.kind(),
                descriptor.description());
        writer.flush();
        RunOptions options = RunOptions.defaults().withOutputRoot(out).withResume(resume).withStoreRoot(storeDir)
                .withProgress(System.err);
        ExperimentPlugin kind = ExperimentKinds.get(descriptor.kind());
        RunResult result = kind.run(descriptor, options);
        PrintWriter table = writer;
        table.println();
        kind.printSummary(result.rows(), table);
        result.notes().forEach(note -> table.println("note: " + note));
        table.printf("%s: %d of %d cells run now, %d resumed; results in %s%n", result.status(), result.cellsRun(),
                result.cellsTotal(), result.cellsResumed(), result.directory());
        table.flush();
        return result.complete() ? 0 : 1;
    }
}
