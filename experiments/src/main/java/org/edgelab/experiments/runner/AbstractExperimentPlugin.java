package org.edgelab.experiments.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.experiments.matrix.MatrixExpander;
import org.edgelab.plugin.Setting;

/**
 * What the experiment kinds that drive loadgen themselves ({@code restart}, {@code churn}, {@code disk-failure},
 * {@code video-streams}) share as plugins: a name, a description, settings and the kind's {@link KindRun} fixed at
 * construction, each run made in a run folder opened by {@link RunFolders#open}, the state and steps of such a run, and
 * the summaries' {@link #dash} ({@link KindChecks} holds the descriptor checks they make alike, {@link CellLoop#inFolder}
 * the run loop). Subclasses are final and stateless; thread-safe.
 */
public abstract class AbstractExperimentPlugin implements ExperimentPlugin {

    private final String name;
    private final String description;
    private final List<Setting> settings;
    private final KindRun.Factory runs;

    /** A kind named {@code name} whose every run is one {@code runs} makes (a run folder, then {@link KindRun#all()}). */
    protected AbstractExperimentPlugin(String name, String description, List<Setting> settings, KindRun.Factory runs) {
        this.name = name;
        this.description = description;
        this.settings = List.copyOf(settings);
        this.runs = runs;
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

    /** Runs the experiment in its run folder (new, or the one being resumed) and returns what the folder holds. */
    @Override
    public final RunResult run(Descriptor descriptor, RunOptions options) throws IOException {
        return runs.create(descriptor, options, RunFolders.open(descriptor, options)).all();
    }

    /** {@code s}, or {@code -} when null or empty (for the kinds' printed summaries). */
    protected static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }

    /**
     * One run of a kind, the state and steps every kind's run shares: its descriptor, options, folder and cells (the
     * descriptor's matrix), its manifest with the kind's {@link #methods()}, its progress lines and the cell loop
     * ({@link CellLoop#inFolder}). A kind's run extends it with its own settings and cell steps. Not thread-safe: confined
     * to the thread that runs it (and helpers a kind starts itself).
     */
    protected abstract static class KindRun {

        /** Makes a kind's run in the run folder {@code directory} (new, or the one being resumed); a kind's run constructor. */
        @FunctionalInterface
        public interface Factory {
            KindRun create(Descriptor d, RunOptions options, Path directory);
        }

        /** The rows of one repetition of one cell, its series phases added to {@code series}. */
        @FunctionalInterface
        protected interface Repetition {
            List<ResultRow> run(Cell cell, int repetition, SeriesCsv.Recorder series) throws IOException, InterruptedException;
        }

        protected final Descriptor d;
        protected final RunOptions options;
        protected final Path directory;
        protected final List<Cell> cells;
        private final PrintStream progress;
        private Manifest manifest;

        protected KindRun(Descriptor d, RunOptions options, Path directory) {
            this.d = d;
            this.options = options;
            this.directory = directory;
            this.cells = MatrixExpander.expand(d);
            this.progress = options.progress();
        }

        /** Runs the kind's cells ({@link #inFolder}) and returns what the run folder holds, with the kind's own notes. */
        protected abstract RunResult all() throws IOException;

        /** How each figure of the kind is obtained: the manifest's {@code methods}, asked once, as the cells start. */
        protected abstract Map<String, String> methods();

        /**
         * Starts the manifest ({@code manifest.json}, with {@link #methods()}) and runs every cell not finished yet with
         * {@code rows}, its rows appended to {@code results.csv} with {@code columns} ({@link CellLoop#inFolder}). Blocks
         * until the loop ends.
         */
        protected final RunResult inFolder(List<String> columns, CellLoop.CellRows rows) throws IOException {
            manifest = new Manifest(directory.resolve("manifest.json"), d, cells, methods());
            return CellLoop.inFolder(d, options, directory, cells, manifest, columns, this::say, rows);
        }

        /** The run's manifest, from {@link #inFolder} on (for a cell's details). */
        protected final Manifest manifest() {
            if (manifest == null) {
                throw new IllegalStateException("the manifest starts with inFolder");
            }
            return manifest;
        }

        /**
         * Runs every repetition of {@code cell} in turn and returns their rows; the series phases they record go to
         * {@code series.csv} once all are done.
         */
        protected final List<ResultRow> withSeries(Cell cell, Repetition repetition) throws IOException, InterruptedException {
            SeriesCsv.Recorder series = new SeriesCsv.Recorder(cell.id());
            List<ResultRow> rows = new ArrayList<>();
            for (int rep = 1; rep <= d.repetitions(); rep++) {
                rows.addAll(repetition.run(cell, rep, series));
            }
            series.write(directory);
            return rows;
        }

        /** Prints the descriptor's notes as {@code note:} lines. */
        protected final void sayNotes() {
            d.notes().forEach(n -> say("note: " + n));
        }

        /** Prints the line that starts repetition {@code rep} of {@code cell}: where it is in the run, then {@code what}. */
        protected final void sayRepetition(Cell cell, int rep, String what) {
            say(String.format(Locale.ROOT, "cell %d of %d, rep %d/%d, %s: %s", cell.index() + 1, cells.size(), rep,
                    d.repetitions(), cell.id(), what));
        }

        /** Prints {@code line} to the run's progress stream (none: nowhere) at once. */
        protected final void say(String line) {
            if (progress != null) {
                progress.println(line);
                progress.flush();
            }
        }
    }
}
