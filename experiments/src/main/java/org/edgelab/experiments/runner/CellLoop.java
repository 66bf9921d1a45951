package org.edgelab.experiments.runner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.matrix.Cell;

/**
 * The cell loop every experiment kind shares: runs the cells of a run folder that are not finished yet,
 * one at a time; a cell's rows are written by its {@link CellRun} only once it is complete, the manifest
 * records each finished cell and ends {@code complete} or {@code partial}, and Ctrl-C (a JVM shutdown
 * hook) interrupts the cell under way and waits up to 30 s for that consistent partial result, which
 * can be resumed. Stateless; each call runs one loop on the calling thread.
 */
public final class CellLoop {

    /** Runs one cell and appends its rows to the results; an {@link InterruptedException} abandons it. */
    @FunctionalInterface
    public interface CellRun {
        void run(Cell cell) throws IOException, InterruptedException;
    }

    /** Runs one cell, every repetition, and returns its rows; an {@link InterruptedException} abandons it. */
    @FunctionalInterface
    public interface CellRows {
        List<ResultRow> run(Cell cell) throws IOException, InterruptedException;
    }

    /**
     * How a loop ended.
     *
     * @param ran      cells run by this call
     * @param complete whether every cell is finished (none was interrupted)
     */
    public record Outcome(int ran, boolean complete) {
    }

    private CellLoop() {
    }

    /**
     * The run-folder steps every experiment kind shares: the descriptor copied in and the cells already in
     * {@code results.csv} skipped ({@link RunFolders#begin}: a resumed run), the manifest started, every other cell run
     * by {@link #run} and its rows appended to {@code results.csv} with {@code columns} once it returns. The result holds
     * every row of the file and the descriptor's notes. Blocks until the loop ends.
     */
    public static RunResult inFolder(Descriptor d, RunOptions options, Path directory, List<Cell> cells, Manifest manifest,
                                     List<String> columns, Consumer<String> say, CellRows rows) throws IOException {
        Path csv = directory.resolve("results.csv");
        Set<String> finished = RunFolders.begin(directory, d);
        int resumed = (int) cells.stream().filter(c -> finished.contains(c.id())).count();
        manifest.start(finished, options.resume() != null);
        Outcome outcome = run(cells, finished, manifest, directory, say, cell -> ResultsCsv.append(csv, columns, rows.run(cell)));
        return new RunResult(directory, outcome.complete() ? "complete" : "partial", cells.size(), outcome.ran(), resumed,
                ResultsCsv.read(csv), d.notes());
    }

    /**
     * Runs every cell of {@code cells} not in {@code finished} (which it updates), telling {@code say} about an
     * interruption; removes the run folder's empty {@code stores} and {@code targets} folders at the end.
     */
    public static Outcome run(List<Cell> cells, Set<String> finished, Manifest manifest, Path directory,
                              Consumer<String> say, CellRun cellRun) throws IOException {
        Thread runner = Thread.currentThread();
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            if (done.getCount() > 0) {
                say.accept("interrupted: finishing with a partial result in " + directory);
                runner.interrupt();
                try {
                    done.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "edgelab-experiment-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int ran = 0;
        boolean interrupted = false;
        boolean complete = false;
        try {
            for (Cell cell : cells) {
                if (finished.contains(cell.id())) {
                    continue;
                }
                if (Thread.currentThread().isInterrupted()) {
                    interrupted = true;
                    break;
                }
                try {
                    cellRun.run(cell);
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
                finished.add(cell.id());
                manifest.cellDone(cell.id());
                ran++;
            }
        } finally {
            complete = !interrupted && cells.stream().allMatch(c -> finished.contains(c.id()));
            manifest.finish(complete ? "complete" : "partial");
            RunFolders.deleteIfEmpty(directory.resolve("stores"));
            RunFolders.deleteIfEmpty(directory.resolve("targets"));
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running and waits for us
            }
            if (interrupted) {
                Thread.interrupted();
            }
        }
        return new Outcome(ran, complete);
    }
}
