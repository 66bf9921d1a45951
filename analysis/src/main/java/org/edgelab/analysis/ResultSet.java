package org.edgelab.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;

/**
 * Loads the {@code results.csv} of one or many run folders into one tidy Tablesaw table: measurement columns
 * ({@link ResultColumns#NUMERIC}) as doubles, every other column as text, plus {@link ResultColumns#SOURCE_DIR}.
 *
 * <p>Thread-safety: stateless.
 */
public final class ResultSet {
    /** The name of the tidy table a run folder holds. */
    public static final String RESULTS_FILE = "results.csv";

    private ResultSet() {
    }

    /**
     * Reads every {@code results.csv} in {@code dirs}: each may be a run folder, or a folder above run folders
     * (e.g. {@code results/} or {@code results/<experiment>/}), searched up to three levels down.
     *
     * @throws ResultFormatException when a folder holds no results.csv, or a file lacks a column it needs (see {@link #read})
     */
    public static Table load(Path... dirs) {
        List<Path> files = new ArrayList<>();
        for (Path dir : dirs) {
            files.addAll(resultFiles(dir));
        }
        Table all = null;
        for (Path file : files) {
            Table one = read(file);
            all = all == null ? one : append(all, one, file);
        }
        if (all == null) {
            throw new ResultFormatException("no result folders given");
        }
        return all.setName("results");
    }

    /**
     * Reads one {@code results.csv}; rows get the file's folder in {@link ResultColumns#SOURCE_DIR}. The file needs
     * every {@link ResultColumns#REQUIRED} column, and every {@link ResultColumns#STREAM_COLUMNS} column when it has
     * one of them (a video-streams run), every {@link ResultColumns#REQUEST_COLUMNS} column otherwise; the measurement
     * columns it lacks are added as missing.
     */
    public static Table read(Path resultsCsv) {
        Table table;
        try {
            table = Table.read().usingOptions(CsvReadOptions.builder(resultsCsv.toFile())
                    .columnTypes(name -> ResultColumns.isNumeric(name) ? ColumnType.DOUBLE : ColumnType.STRING)
                    .missingValueIndicator("")
                    .tableName(resultsCsv.toString()));
        } catch (RuntimeException e) {
            throw new ResultFormatException(resultsCsv + " is not a readable results table: " + e.getMessage(), e);
        }
        requireAll(table, resultsCsv, ResultColumns.REQUIRED, "needed by the analysis");
        if (ResultColumns.STREAM_COLUMNS.stream().anyMatch(table::containsColumn)) {
            requireAll(table, resultsCsv, ResultColumns.STREAM_COLUMNS, "a video-streams column");
        } else {
            requireAll(table, resultsCsv, ResultColumns.REQUEST_COLUMNS, "a load-generator column");
        }
        for (String numeric : ResultColumns.NUMERIC) {
            if (!table.containsColumn(numeric)) {
                table.addColumns(DoubleColumn.create(numeric, table.rowCount()));
            }
        }
        for (String text : ResultColumns.OPTIONAL_TEXT) {
            if (!table.containsColumn(text)) {
                table.addColumns(StringColumn.create(text, table.rowCount()));
            }
        }
        String dir = resultsCsv.toAbsolutePath().getParent().toString();
        StringColumn source = StringColumn.create(ResultColumns.SOURCE_DIR, table.rowCount());
        source.setMissingTo(dir);
        table.addColumns(source);
        return table;
    }

    private static void requireAll(Table table, Path file, List<String> columns, String why) {
        for (String column : columns) {
            if (!table.containsColumn(column)) {
                throw new ResultFormatException(file + " has no column '" + column + "' (" + why + "); its columns are "
                        + table.columnNames());
            }
        }
    }

    private static Table append(Table all, Table one, Path file) {
        for (String name : one.columnNames()) {
            if (!all.containsColumn(name)) {
                all.addColumns(StringColumn.create(name, all.rowCount()));
            }
        }
        for (String name : all.columnNames()) {
            if (!one.containsColumn(name)) {
                one.addColumns(StringColumn.create(name, one.rowCount()));
            }
        }
        return all.append(one.selectColumns(all.columnNames().toArray(String[]::new)));
    }

    private static List<Path> resultFiles(Path dir) {
        if (Files.isRegularFile(dir) && dir.getFileName().toString().equals(RESULTS_FILE)) {
            return List.of(dir);
        }
        if (!Files.isDirectory(dir)) {
            throw new ResultFormatException(dir + " is not a result folder (it does not exist or is not a directory)");
        }
        try (Stream<Path> walk = Files.walk(dir, 3)) {
            List<Path> found = walk.filter(p -> p.getFileName().toString().equals(RESULTS_FILE))
                    .filter(Files::isRegularFile).sorted().toList();
            if (found.isEmpty()) {
                throw new ResultFormatException(dir + " holds no " + RESULTS_FILE + " (looked three levels down)");
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }
}
