package org.edgelab.experiments.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;

/**
 * A test's descriptor files in its own folder ({@code @TempDir}): writes a descriptor's YAML to a file there, loads it
 * as {@code ./edgelab run FILE} does (not quick), and runs it with the kind it names, the run folder under the folder's
 * {@code results}. Stateless; each call blocks until done.
 */
public final class DescriptorFixture {

    private DescriptorFixture() {
    }

    /** Writes {@code yaml} to {@code fileName} in {@code dir} and loads it; a bad one throws as the loader does. */
    public static Descriptor load(Path dir, String fileName, String yaml) throws IOException {
        Path file = dir.resolve(fileName);
        Files.writeString(file, yaml);
        return DescriptorLoader.load(file.toString(), false);
    }

    /** Runs {@code d} with the kind it names, under {@code dir/results}, its progress to {@code progress} (null: none). */
    public static RunResult run(Path dir, Descriptor d, PrintStream progress) throws IOException {
        return ExperimentKinds.get(d.kind()).run(d, RunOptions.defaults().withOutputRoot(dir.resolve("results"))
                .withProgress(progress));
    }

    /** {@link #load} then {@link #run(Path, Descriptor, PrintStream)}. */
    public static RunResult run(Path dir, String fileName, String yaml, PrintStream progress) throws IOException {
        return run(dir, load(dir, fileName, yaml), progress);
    }
}
