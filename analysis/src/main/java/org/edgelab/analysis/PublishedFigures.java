package org.edgelab.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.edgelab.units.ByteSize;

import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;

/**
 * The published figures of the three reports the project reproduces (the project's own copy, each row naming its
 * source), and their comparison with measured results, stating the scaling used.
 *
 * <p>Thread-safety: immutable after {@link #load()}; the returned tables are fresh copies.
 */
public final class PublishedFigures {
    /** Classpath resource holding the figures. */
    public static final String RESOURCE = "/reference-figures.csv";
    /** Report each experiment reproduces, where the names differ. */
    private static final Map<String, String> REPORT_OF = Map.of("video-streams", "onefs-streams");

    /** How a published metric is matched with a summary column and scaled. */
    private record Mapping(String measuredColumn, boolean perCore, String why) {
    }

    private static final Map<String, Mapping> MAPPINGS = Map.of(
            "ttlb_avg", new Mapping("ttlb_mean_ms", false, "none: per-request latency (merged-histogram mean)"),
            "throughput_avg", new Mapping("throughput_gbps", true, ""),
            "goodput_avg", new Mapping("goodput_gbps", true, ""),
            "system_power", new Mapping("power_w", false, "none: whole-machine watts"),
            "requests_per_s_per_watt", new Mapping("req_per_s_per_watt", false, "none: already per watt"));

    private final Table figures;

    private PublishedFigures(Table figures) {
        this.figures = figures;
    }

    /** Loads the project's table of published figures from {@link #RESOURCE}. */
    public static PublishedFigures load() {
        try (InputStream in = PublishedFigures.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from the analysis jar");
            }
            Table table = Table.read().usingOptions(CsvReadOptions.builder(in)
                    .columnTypes(name -> name.equals("value") || name.equals("published_cores") ? ColumnType.DOUBLE : ColumnType.STRING)
                    .missingValueIndicator("")
                    .tableName("published figures"));
            return new PublishedFigures(table);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /** Every published figure: report, system, scenario, object_size, concurrency, link, metric, value, unit, note, published_cores, source. */
    public Table table() {
        return figures.copy();
    }

    /** The report an experiment reproduces ({@code video-streams} reproduces {@code onefs-streams}; others share the name). */
    public static String reportOf(String experiment) {
        return REPORT_OF.getOrDefault(experiment, experiment);
    }

    /** The published figures of the report {@code experiment} reproduces. */
    public Table forExperiment(String experiment) {
        return figures.where(figures.stringColumn("report").isEqualTo(reportOf(experiment)));
    }

    /**
     * Puts each published figure of {@code experiment}'s report beside the measured figure from {@code results}
     * (summarised by server, engine and object size where those columns exist; published sizes "small" and "large" are
     * the smallest and largest measured sizes). Throughput and goodput are scaled per core: measured x (published
     * cores / {@code measuredCores}); the {@code scaling} column states the rule of every row.
     *
     * <p>Columns: report, system, metric, object_size, published, unit, measured_group, measured, scaling,
     * measured_scaled, scaled_over_published, note, source. A figure with no measured counterpart keeps one row with
     * measured left missing.
     */
    public Table beside(Table results, String experiment, OptionalInt measuredCores) {
        Table mine = results.containsColumn("experiment")
                ? results.where(results.stringColumn("experiment").isEqualTo(experiment)) : results;
        List<String> groupBy = new ArrayList<>();
        for (String dimension : List.of("server", "engine", "object_size_bytes")) {
            if (mine.containsColumn(dimension)) {
                groupBy.add(dimension);
            }
        }
        Table summary = mine.isEmpty() ? null : Summary.by(mine, groupBy.toArray(String[]::new));
        Table out = Table.create("published and measured: " + experiment);
        out.addColumns(StringColumn.create("report"), StringColumn.create("system"), StringColumn.create("metric"),
                StringColumn.create("object_size"), DoubleColumn.create("published"), StringColumn.create("unit"),
                StringColumn.create("measured_group"), DoubleColumn.create("measured"), StringColumn.create("scaling"),
                DoubleColumn.create("measured_scaled"), DoubleColumn.create("scaled_over_published"),
                StringColumn.create("note"), StringColumn.create("source"));
        Table published = forExperiment(experiment);
        for (Row figure : published) {
            Mapping mapping = MAPPINGS.get(figure.getString("metric"));
            List<Integer> matches = mapping == null || summary == null ? List.of() : matchingRows(summary, figure.getString("object_size"));
            if (matches.isEmpty()) {
                Row row = start(out, figure);
                row.setString("scaling", mapping == null ? "no measured counterpart in results.csv"
                        : "no measured result at object size " + figure.getString("object_size"));
                continue;
            }
            for (int index : matches) {
                Row row = start(out, figure);
                row.setString("measured_group", group(summary, groupBy, index));
                DoubleColumn measuredColumn = summary.doubleColumn(mapping.measuredColumn());
                if (measuredColumn.isMissing(index)) {
                    row.setString("scaling", "measured value missing (" + mapping.measuredColumn() + ")");
                    continue;
                }
                double measured = measuredColumn.getDouble(index);
                row.setDouble("measured", measured);
                double scaled;
                if (mapping.perCore()) {
                    boolean known = measuredCores.isPresent() && !figure.isMissing("published_cores");
                    if (!known) {
                        row.setString("scaling", "per core: not possible, cores unknown (measured "
                                + (measuredCores.isPresent() ? measuredCores.getAsInt() : "?") + ")");
                        continue;
                    }
                    double cores = figure.getDouble("published_cores");
                    scaled = measured * cores / measuredCores.getAsInt();
                    row.setString("scaling", String.format(Locale.ROOT, "per core: measured x (%.0f published cores / %d measured cores)",
                            cores, measuredCores.getAsInt()));
                } else {
                    scaled = measured;
                    String source = mapping.measuredColumn().equals("power_w") || mapping.measuredColumn().contains("watt")
                            ? "; measured power is " + summary.stringColumn("power_source").get(index) : "";
                    row.setString("scaling", mapping.why() + source);
                }
                row.setDouble("measured_scaled", scaled);
                row.setDouble("scaled_over_published", scaled / figure.getDouble("value"));
            }
        }
        return out;
    }

    private static Row start(Table out, Row figure) {
        Row row = out.appendRow();
        row.setString("report", figure.getString("report"));
        row.setString("system", figure.getString("system"));
        row.setString("metric", figure.getString("metric"));
        row.setString("object_size", figure.getString("object_size"));
        row.setDouble("published", figure.getDouble("value"));
        row.setString("unit", figure.getString("unit"));
        row.setString("note", figure.getString("note"));
        row.setString("source", figure.getString("source"));
        return row;
    }

    private static String group(Table summary, List<String> groupBy, int index) {
        List<String> parts = new ArrayList<>();
        for (String dimension : groupBy) {
            parts.add(dimension + "=" + summary.stringColumn(dimension).get(index));
        }
        return String.join(", ", parts);
    }

    /** Summary rows at the published size: exact bytes, or "small"/"large" as the smallest/largest measured size. */
    private static List<Integer> matchingRows(Table summary, String publishedSize) {
        List<Integer> rows = new ArrayList<>();
        if (!summary.containsColumn("object_size_bytes")) {
            return rows;
        }
        StringColumn sizes = summary.stringColumn("object_size_bytes");
        OptionalLong wanted = switch (publishedSize) {
            case "small" -> sizes.asList().stream().mapToLong(PublishedFigures::bytes).filter(b -> b >= 0).min();
            case "large" -> sizes.asList().stream().mapToLong(PublishedFigures::bytes).filter(b -> b >= 0).max();
            default -> parse(publishedSize);
        };
        if (wanted.isEmpty()) {
            return rows;
        }
        for (int i = 0; i < sizes.size(); i++) {
            if (bytes(sizes.get(i)) == wanted.getAsLong()) {
                rows.add(i);
            }
        }
        return rows;
    }

    private static long bytes(String measured) {
        try {
            return Math.round(Double.parseDouble(measured));
        } catch (NumberFormatException | NullPointerException e) {
            return -1;
        }
    }

    private static OptionalLong parse(String publishedSize) {
        try {
            return OptionalLong.of(ByteSize.parse(publishedSize));
        } catch (IllegalArgumentException e) {
            return OptionalLong.empty();
        }
    }
}
