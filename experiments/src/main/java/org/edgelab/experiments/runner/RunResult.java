package org.edgelab.experiments.runner;

import java.nio.file.Path;
import java.util.List;

/**
 * What a run left behind. Immutable and thread-safe.
 *
 * @param directory    the run folder (manifest.json, descriptor.yaml, results.csv, hlog/)
 * @param status       {@code complete} or {@code partial}
 * @param cellsTotal   cells in the matrix
 * @param cellsRun     cells run by this invocation
 * @param cellsResumed cells skipped because an earlier invocation finished them
 * @param rows         every row of results.csv (earlier and new)
 * @param notes        remarks (skipped builds, how figures were obtained)
 */
public record RunResult(Path directory, String status, int cellsTotal, int cellsRun, int cellsResumed,
                        List<ResultRow> rows, List<String> notes) {
    public RunResult {
        rows = List.copyOf(rows);
        notes = List.copyOf(notes);
    }

    /** This result with {@code more} after its notes. */
    public RunResult withNotes(List<String> more) {
        List<String> all = new java.util.ArrayList<>(notes);
        all.addAll(more);
        return new RunResult(directory, status, cellsTotal, cellsRun, cellsResumed, rows, all);
    }

    /** Whether every cell has its rows. */
    public boolean complete() {
        return "complete".equals(status);
    }
}
