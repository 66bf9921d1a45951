package org.edgelab.experiments.runner;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * How to run an experiment. Immutable and thread-safe.
 *
 * @param outputRoot where new runs go: {@code <outputRoot>/<experiment>/<yyyyMMdd-HHmmss>/}
 * @param resume     an earlier run's folder to continue (cells already in its results.csv are skipped), or null
 * @param storeRoot  where engine files go (a disk to test), or null for {@code stores/} inside the run folder
 * @param progress   where the progress line goes, or null for none
 */
public record RunOptions(Path outputRoot, Path resume, Path storeRoot, PrintStream progress) {

    /** Runs under {@code results/}, no resume, stores inside the run folder, progress on standard error. */
    public static RunOptions defaults() {
        return new RunOptions(Path.of("results"), null, null, System.err);
    }

    /** A copy writing new runs under {@code root}. */
    public RunOptions withOutputRoot(Path root) {
        return new RunOptions(root, resume, storeRoot, progress);
    }

    /** A copy continuing the run in {@code folder}. */
    public RunOptions withResume(Path folder) {
        return new RunOptions(outputRoot, folder, storeRoot, progress);
    }

    /** A copy putting engine files under {@code root}. */
    public RunOptions withStoreRoot(Path root) {
        return new RunOptions(outputRoot, resume, root, progress);
    }

    /** A copy printing progress to {@code out} (null for none). */
    public RunOptions withProgress(PrintStream out) {
        return new RunOptions(outputRoot, resume, storeRoot, out);
    }
}
