package org.edgelab.experiments.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.Targets;

/**
 * A cell's server under test on a new store, as the experiment kinds start it: its store folder ({@code stores/<name>},
 * or under the run's store root), its work folder ({@code targets/<name>}), its memory cgroup and resource samples
 * ({@link CellResources}) and its running target. {@link #close()} stops the target, removes the cgroup and deletes the
 * store and the work folder if empty, also after a failure. Not thread-safe: owned by the runner's thread.
 */
public final class CellServer implements AutoCloseable {

    private final Path storeDir;
    private final Path workDir;
    private final Target target;
    private final CellResources resources;
    private final RunningTarget running;

    private CellServer(Path storeDir, Path workDir, Target target, CellResources resources, RunningTarget running) {
        this.storeDir = storeDir;
        this.workDir = workDir;
        this.target = target;
        this.resources = resources;
        this.running = running;
    }

    /**
     * Starts {@code cell}'s server on a new store named {@code name} in the run folder {@code directory}; on failure
     * leaves nothing behind.
     *
     * @throws IOException when the memory bound cannot be made ({@link CellResources#open}) or the target does not start
     */
    public static CellServer start(Descriptor d, RunOptions options, Path directory, Cell cell, String name) throws IOException {
        Path storeDir = (options.storeRoot() != null ? options.storeRoot() : directory.resolve("stores")).resolve(name);
        Path workDir = directory.resolve("targets").resolve(name);
        Files.createDirectories(workDir);
        Target target = Targets.get(cell.server().target());
        CellResources resources = null;
        try {
            resources = CellResources.open(target, cell.server(), d.hardware().memoryBytes(), d.name() + "-" + name, storeDir);
            RunningTarget running = target.start(cell.server(),
                    ExperimentRunner.targetContext(d, storeDir, workDir, resources.cgroup()));
            return new CellServer(storeDir, workDir, target, resources, running);
        } catch (IOException | RuntimeException e) {
            if (resources != null) {
                resources.close();
            }
            RunFolders.deleteRecursively(storeDir);
            RunFolders.deleteIfEmpty(workDir);
            throw e;
        }
    }

    /** The target the server runs on. */
    public Target target() {
        return target;
    }

    /** The running server. */
    public RunningTarget running() {
        return running;
    }

    /** Its memory bound and resource samples. */
    public CellResources resources() {
        return resources;
    }

    @Override
    public void close() {
        try {
            running.close();
        } finally {
            try {
                resources.close();
            } finally {
                RunFolders.deleteRecursively(storeDir);
                RunFolders.deleteIfEmpty(workDir);
            }
        }
    }
}
