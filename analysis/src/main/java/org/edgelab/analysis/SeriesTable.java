package org.edgelab.analysis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;

/**
 * The per-second time series of run folders ({@code series.csv}, written by the runner beside {@code results.csv}): a
 * row per report interval of a measured phase (cell, repetition, phase, {@code second} since the phase's start and the
 * interval's requests, hits, misses, errors, bytes) and a row per event ({@code event}: kill, listening, first-hit, with
 * its second and no counters). The shared shape is cell, second, requests, hits, errors, bytes: {@code disk-failure}
 * runs written before 2026-12-02 have that from the server's counters, with their events on the interval rows, and no
 * {@code interval_s} (1 s) or {@code misses} (requests less hits); later ones are in the full shape. Read into one Tablesaw table with {@code hit_ratio} (hits / (hits + misses))
 * and {@code req_per_s} (requests / interval length) added, and {@link ResultColumns#SOURCE_DIR}.
 *
 * <p>Thread-safety: stateless.
 */
public final class SeriesTable {
    /** The file's name in a run folder. */
    public static final String FILE = "series.csv";
    /** The columns a series file must have. */
    public static final List<String> REQUIRED = List.of("cell", "second", "requests", "hits", "errors", "bytes");
    private static final List<String> NUMBERS = List.of("second", "interval_s", "requests", "hits", "misses", "errors",
            "errors_connect", "bytes");

    private SeriesTable() {
    }

    /**
     * The series of every run folder {@code results} came from ({@link ResultColumns#SOURCE_DIR}) that has one; empty
     * when none has.
     *
     * @throws ResultFormatException when a series file lacks a column or does not parse
     */
    public static Optional<Table> of(Table results) {
        Table all = null;
        for (String dir : new LinkedHashSet<>(results.stringColumn(ResultColumns.SOURCE_DIR).asList())) {
            Path file = Path.of(dir).resolve(FILE);
            if (Files.isRegularFile(file)) {
                Table one = read(file);
                all = all == null ? one : all.append(one);
            }
        }
        return Optional.ofNullable(all);
    }

    /** Reads one {@code series.csv}, adding {@code hit_ratio}, {@code req_per_s} and the folder it is in. */
    public static Table read(Path file) {
        Table t;
        try {
            t = Table.read().usingOptions(CsvReadOptions.builder(file.toFile())
                    .columnTypes(name -> NUMBERS.contains(name) ? ColumnType.DOUBLE : ColumnType.STRING)
                    .missingValueIndicator("").tableName(file.toString()));
        } catch (RuntimeException e) {
            throw new ResultFormatException(file + " is not a readable time series: " + e.getMessage(), e);
        }
        for (String column : REQUIRED) {
            if (!t.containsColumn(column)) {
                throw new ResultFormatException(file + " has no column '" + column + "'; its columns are " + t.columnNames());
            }
        }
        if (!t.containsColumn("errors_connect")) {
            t.addColumns(DoubleColumn.create("errors_connect", t.rowCount()));
        }
        for (String[] text : new String[][] {{"repetition", "1"}, {"phase", "measured"}, {"event", null}}) {
            if (!t.containsColumn(text[0])) {
                StringColumn c = StringColumn.create(text[0], t.rowCount());
                if (text[1] != null) {
                    c.setMissingTo(text[1]);
                }
                t.addColumns(c);
            }
        }
        if (!t.containsColumn("interval_s")) {
            DoubleColumn one = DoubleColumn.create("interval_s", t.rowCount());
            one.setMissingTo(1.0);
            t.addColumns(one);
        }
        if (!t.containsColumn("misses")) {
            t.addColumns(t.doubleColumn("requests").subtract(t.doubleColumn("hits")).setName("misses"));
        }
        DoubleColumn hits = t.doubleColumn("hits");
        DoubleColumn answered = hits.add(t.doubleColumn("misses"));
        DoubleColumn ratio = hits.divide(answered).setName("hit_ratio");
        for (int i = 0; i < ratio.size(); i++) {
            if (!ratio.isMissing(i) && !Double.isFinite(ratio.getDouble(i))) {
                ratio.setMissing(i); // an interval without an answer has no hit ratio
            }
        }
        DoubleColumn rate = t.doubleColumn("requests").divide(t.doubleColumn("interval_s")).setName("req_per_s");
        StringColumn source = StringColumn.create(ResultColumns.SOURCE_DIR, t.rowCount());
        source.setMissingTo(file.toAbsolutePath().getParent().toString());
        t.addColumns(ratio, rate, source);
        return t.setName("series");
    }

    /** The rows of {@code series} that are events ({@code event} not empty). */
    public static Table events(Table series) {
        return series.where(series.stringColumn("event").isNotMissing());
    }

    /** The rows of {@code series} that are intervals (they have counts; an interval may also carry an event). */
    public static Table intervals(Table series) {
        return series.where(series.doubleColumn("requests").isNotMissing());
    }

    /** The distinct values of a text column, in order of first appearance. */
    static List<String> distinct(Table t, String column) {
        return new ArrayList<>(new LinkedHashSet<>(t.stringColumn(column).asList()));
    }
}
