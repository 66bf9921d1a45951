package org.edgelab.experiments.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.edgelab.commandline.Converters;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.runner.ExperimentKinds;
import org.edgelab.experiments.runner.ExperimentPlugin;
import org.edgelab.experiments.runner.RunOptions;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.storage.disk.ScratchFileSystem;
import org.edgelab.storage.disk.ScratchFileSystems;
import org.edgelab.units.ByteSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code edgelab run <name|file> [--quick] [--target NAME] [--out DIR] [--resume DIR] [--store-dir DIR | --store-fs SIZE]}: runs
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

    @Option(names = "--store-fs", paramLabel = "SIZE", converter = Converters.Bytes.class,
            description = "make a fresh ext4 file system with a journal (as production stores have) of SIZE on a loop"
                    + " device doing direct I/O, keep the engines' files on it for this run and remove it afterwards (root);"
                    + " the cells' diskstats are then its device's alone, and no earlier run's deletions or this machine's"
                    + " root file system weigh on the engines")
    private Long storeFs;

    @Override
    public Integer call() throws Exception {
        if (storeFs != null && storeDir != null) {
            throw new ParameterException(spec.commandLine(), "--store-dir and --store-fs both say where the stores go: give one");
        }
        PrintWriter writer = spec.commandLine().getOut();
        Descriptor descriptor = DescriptorLoader.load(experiment, quick, target);
        writer.printf("experiment %s%s (%s): %s%n", descriptor.name(), quick ? " (quick)" : "", descriptor.kind(),
                descriptor.description());
        writer.flush();
        ExperimentPlugin kind = ExperimentKinds.get(descriptor.kind());
        RunResult result;
        if (storeFs == null) {
            result = kind.run(descriptor, runOptions(storeDir));
        } else {
            try (ScratchFileSystem fs = ScratchFileSystems.loopExt4(storeFs, true)) {
                System.err.printf("stores on %s: ext4 with a journal on %s (%s, direct I/O), made for this run%n", fs.dir(),
                        fs.device().orElse("?"), ByteSize.format(storeFs));
                result = kind.run(descriptor, runOptions(fs.dir()));
            }
        }
        PrintWriter table = writer;
        table.println();
        kind.printSummary(result.rows(), table);
        result.notes().forEach(note -> table.println("note: " + note));
        table.printf("%s: %d of %d cells run now, %d resumed; results in %s%n", result.status(), result.cellsRun(),
                result.cellsTotal(), result.cellsResumed(), result.directory());
        table.flush();
        return result.complete() ? 0 : 1;
    }

    private RunOptions runOptions(Path storeRoot) {
        return RunOptions.defaults().withOutputRoot(out).withResume(resume).withStoreRoot(storeRoot).withProgress(System.err);
    }
}
