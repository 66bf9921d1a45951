package org.edgelab.experiments.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.plugin.NamedPlugin;
import org.edgelab.plugin.Setting;

/**
 * A whole experiment written in Java (a descriptor's top-level {@code kind}): runs a loaded descriptor and
 * writes the usual run folder ({@code manifest.json}, {@code descriptor.yaml}, {@code results.csv}).
 * Found by name through {@link ExperimentKinds}; a jar adds one with a
 * {@code META-INF/services/org.edgelab.experiments.runner.ExperimentPlugin} line. Implementations are
 * stateless and thread-safe; each run is independent.
 */
public interface ExperimentPlugin extends NamedPlugin {

    /** The keys this kind accepts under the descriptor's top-level {@code settings:}. */
    default List<Setting> settings() {
        return List.of();
    }

    /**
     * Checks a loaded descriptor for this kind; throws {@code SettingException} whose key is a settings key,
     * or a descriptor pointer starting with {@code /} (e.g. {@code /load/workload/kind}), so the loader can
     * report the file, line and column.
     */
    void validate(Descriptor descriptor);

    /** Runs the experiment and returns what the run folder holds. */
    RunResult run(Descriptor descriptor, RunOptions options) throws IOException;

    /** Prints the main figures of a run's rows (by default the matrix comparison, one line per cell). */
    default void printSummary(List<ResultRow> rows, PrintWriter out) {
        ComparisonTable.print(rows, out);
    }
}
