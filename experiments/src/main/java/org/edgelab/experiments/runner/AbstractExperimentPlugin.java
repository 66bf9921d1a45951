package org.edgelab.experiments.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.plugin.Setting;

/**
 * What the experiment kinds that drive loadgen themselves ({@code restart}, {@code churn}, {@code disk-failure},
 * {@code video-streams}) share as plugins: a name, a description and settings fixed at construction, a run in a run
 * folder opened by {@link RunFolders#open}, and the progress lines ({@link KindChecks} holds the descriptor checks they
 * make alike, {@link CellLoop#inFolder} the run loop). Subclasses are final and stateless; thread-safe.
 */
public abstract class AbstractExperimentPlugin implements ExperimentPlugin {

    private final String name;
    private final String description;
    private final List<Setting> settings;

    protected AbstractExperimentPlugin(String name, String description, List<Setting> settings) {
        this.name = name;
        this.description = description;
        this.settings = List.copyOf(settings);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final List<Setting> settings() {
        return settings;
    }

    @Override
    public final RunResult run(Descriptor descriptor, RunOptions options) throws IOException {
        return run(descriptor, options, RunFolders.open(descriptor, options));
    }

    /** Runs the experiment in its run folder {@code directory} (new, or the one being resumed). */
    protected abstract RunResult run(Descriptor descriptor, RunOptions options, Path directory) throws IOException;

    /** Prints {@code line} to {@code out} (null: nowhere) at once. */
    protected static void say(PrintStream out, String line) {
        if (out != null) {
            out.println(line);
            out.flush();
        }
    }

    /** {@code s}, or {@code -} when null or empty (for the kinds' printed summaries). */
    protected static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}
