package org.edgelab.experiments.runner;

import java.io.IOException;
import org.edgelab.experiments.descriptor.Descriptor;

/**
 * The {@code matrix} experiment, the default kind: every cell of the descriptor's matrix with its
 * repetitions, run by {@link ExperimentRunner}. Takes no settings. Stateless and thread-safe.
 */
public final class MatrixExperiment implements ExperimentPlugin {

    @Override
    public String name() {
        return ExperimentKinds.DEFAULT;
    }

    @Override
    public String description() {
        return "run every cell of the matrix (servers x sizes x connections x ranges x links) with its repetitions (the default)";
    }

    @Override
    public void validate(Descriptor descriptor) {
        // every knob is a descriptor field the loader has checked; settings() is empty, so none are accepted
    }

    @Override
    public RunResult run(Descriptor descriptor, RunOptions options) throws IOException {
        return ExperimentRunner.run(descriptor, options);
    }
}
