package org.edgelab.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.edgelab.units.ByteSize;
import org.edgelab.units.SignificantFigures;

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
    private static final Map<String, String> REPORT_OF = Map.of("video-streams", "onefs-streams",
            "booster-http-fetch", "booster-http", "booster-http-reduced", "booster-http");

    /** How a measured figure is brought to the published system's scale. */
    private enum Scaling {
        /** Compared as measured (latencies, ratios, watts). */
        NONE,
        /**
         * Throughput-bound (the link or the client limited the published figure, not the CPU): per Gbps of link when the
         * run had an emulated link, otherwise per core.
         */
        THROUGHPUT_BOUND,
        /** Streams through a link: per Gbps of link and per stream bitrate (the streams' share of the link). */
        STREAMS
    }

    /** How a published metric is matched with a summary column (times {@code factor} for the published unit) and scaled. */
    private record Mapping(String measuredColumn, double factor, Scaling scaling, String why) {
    }

    private static final Map<String, Mapping> MAPPINGS = Map.ofEntries(
            Map.entry("ttlb_avg", new Mapping("ttlb_mean_ms", 1, Scaling.NONE, "none: per-request latency (merged-histogram mean)")),
            Map.entry("ttlb_max", new Mapping("ttlb_max_ms", 1e-3, Scaling.NONE, "none: per-request latency (merged-histogram maximum, ms / 1000)")),
            Map.entry("throughput_avg", new Mapping("throughput_gbps", 1, Scaling.THROUGHPUT_BOUND, "")),
            Map.entry("goodput_avg", new Mapping("goodput_gbps", 1, Scaling.THROUGHPUT_BOUND, "")),
            Map.entry("success_rate", new Mapping("success_rate", 100, Scaling.NONE, "none: share of requests (1 - errors / requests, as percent)")),
            Map.entry("system_power", new Mapping("power_w", 1, Scaling.NONE, "none: whole-machine watts")),
            Map.entry("requests_per_s_per_watt", new Mapping("req_per_s_per_watt", 1, Scaling.NONE, "none: already per watt")),
            Map.entry("streams_sustained", new Mapping("streams_sustained", 1, Scaling.STREAMS, "")),
            Map.entry("node_egress", new Mapping("stream_egress_gbps", 1 / 8.0, Scaling.THROUGHPUT_BOUND, "")),
            Map.entry("frame_prefetch_latency_healthy", new Mapping("frame_latency_p99_ms_worst", 1, Scaling.NONE,
                    "none: per-frame latency (measured: the worst repetition's p99)")),
            Map.entry("complete_ahead_of_play_healthy", new Mapping("min_lookahead_frames", 1, Scaling.NONE,
                    "none: frames buffered ahead of play (measured: the smallest look-ahead seen)")));

    private static final Pattern LINK_GBPS = Pattern.compile("(?i)^(\\d+(?:\\.\\d+)?)\\s*(?:GbE|Gbit)");
    private static final Pattern STREAM_RATE = Pattern.compile("(?i)^(\\d+(?:\\.\\d+)?)\\s*MB/s");

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

    /** The report an experiment reproduces ({@code video-streams} reproduces {@code onefs-streams}, the booster-http variants booster-http; others share the name). */
    public static String reportOf(String experiment) {
        return REPORT_OF.getOrDefault(experiment, experiment);
    }

    /** The published figures of the report {@code experiment} reproduces. */
    public Table forExperiment(String experiment) {
        return figures.where(figures.stringColumn("report").isEqualTo(reportOf(experiment)));
    }

    /**
     * Puts each published figure of {@code experiment}'s report beside the measured figure from {@code results},
     * summarised by server, engine and object size where those columns exist. Measured rows are matched to the figure
     * where the results allow: at the published object size (bytes; "small" and "large" are the smallest and largest
     * measured sizes; any other text, such as "any", matches every size), at the published concurrency when the
     * results measured it, and on the published link's speed when the results measured it.
     *
     * <p>Scaling, stated in the {@code scaling} column of every row: latencies, shares and watts are compared as
     * measured. Throughput-bound figures (throughput, goodput, node egress: the link or the client limited the
     * published figure, not the CPU) are scaled per Gbps of link, measured x (published link Gbit/s / measured link
     * Gbit/s), when the run had an emulated link ({@code link_bps} > 0); otherwise per core, measured x (published
     * cores / {@code measuredCores}). Streams sustained are scaled per Gbps and per stream bitrate: measured x (measured
     * stream bitrate / published stream bitrate) x (published link / measured link), the streams the published link
     * would carry at the measured share of the link.
     *
     * <p>Columns: report, system, metric, object_size, published, unit, measured_group, measured (in the published
     * unit), scaling, measured_scaled, scaled_over_published, note, source. A figure with no measured counterpart keeps
     * one row with measured left missing and the reason in {@code scaling}.
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
        Map<String, Table> summaries = new HashMap<>();
        Table out = Table.create("published and measured: " + experiment);
        out.addColumns(StringColumn.create("report"), StringColumn.create("system"), StringColumn.create("metric"),
                StringColumn.create("object_size"), DoubleColumn.create("published"), StringColumn.create("unit"),
                StringColumn.create("measured_group"), DoubleColumn.create("measured"), StringColumn.create("scaling"),
                DoubleColumn.create("measured_scaled"), DoubleColumn.create("scaled_over_published"),
                StringColumn.create("note"), StringColumn.create("source"));
        for (Row figure : forExperiment(experiment)) {
            Mapping mapping = MAPPINGS.get(figure.getString("metric"));
            if (mapping == null) {
                start(out, figure).setString("scaling", "no measured counterpart in results.csv");
                continue;
            }
            List<String> conditions = new ArrayList<>();
            Table rows = matching(mine, figure, conditions);
            Table summary = rows.isEmpty() ? null : summaries.computeIfAbsent(String.join(";", conditions),
                    key -> Summary.by(rows, groupBy.toArray(String[]::new)));
            List<Integer> matches = summary == null || !summary.containsColumn(mapping.measuredColumn())
                    ? List.of() : matchingRows(summary, figure.getString("object_size"));
            if (matches.isEmpty()) {
                start(out, figure).setString("scaling", "no measured result at object size " + figure.getString("object_size")
                        + (conditions.isEmpty() ? "" : " with " + String.join(", ", conditions)));
                continue;
            }
            OptionalDouble measuredLink = linkGbps(rows);
            for (int index : matches) {
                Row row = start(out, figure);
                List<String> group = new ArrayList<>(group(summary, groupBy, index));
                group.addAll(conditions);
                row.setString("measured_group", String.join(", ", group));
                DoubleColumn measuredColumn = summary.doubleColumn(mapping.measuredColumn());
                if (measuredColumn.isMissing(index)) {
                    row.setString("scaling", "measured value missing (" + mapping.measuredColumn() + ")");
                    continue;
                }
                double measured = measuredColumn.getDouble(index) * mapping.factor();
                row.setDouble("measured", measured);
                Scaled scaled = switch (mapping.scaling()) {
                    case NONE -> new Scaled(measured, mapping.why() + powerSource(summary, mapping, index));
                    case THROUGHPUT_BOUND -> throughputBound(measured, figure, measuredLink, measuredCores);
                    case STREAMS -> streams(measured, figure, measuredLink, summary, index);
                };
                row.setString("scaling", scaled.rule());
                if (!Double.isNaN(scaled.value())) {
                    row.setDouble("measured_scaled", scaled.value());
                    row.setDouble("scaled_over_published", scaled.value() / figure.getDouble("value"));
                }
            }
        }
        return out;
    }

    /** A scaled figure (NaN when it cannot be scaled) and the rule used, or why none could be. */
    private record Scaled(double value, String rule) {
    }

    private static Scaled throughputBound(double measured, Row figure, OptionalDouble measuredLink, OptionalInt measuredCores) {
        OptionalDouble publishedLink = publishedLinkGbps(figure);
        if (measuredLink.isPresent() && publishedLink.isPresent()) {
            return new Scaled(measured * publishedLink.getAsDouble() / measuredLink.getAsDouble(), String.format(Locale.ROOT,
                    "per Gbps (throughput-bound): measured x (%s Gbit/s published link / %s Gbit/s measured link)",
                    number(publishedLink.getAsDouble()), number(measuredLink.getAsDouble())));
        }
        String noLink = measuredLink.isEmpty() ? "not per Gbps: the run had no link cap" : "not per Gbps: published link unknown";
        boolean known = measuredCores.isPresent() && !figure.isMissing("published_cores");
        if (!known) {
            return new Scaled(Double.NaN, "per core: not possible, cores unknown (measured "
                    + (measuredCores.isPresent() ? measuredCores.getAsInt() : "?") + "); " + noLink);
        }
        double cores = figure.getDouble("published_cores");
        return new Scaled(measured * cores / measuredCores.getAsInt(), String.format(Locale.ROOT,
                "per core: measured x (%.0f published cores / %d measured cores); %s", cores, measuredCores.getAsInt(), noLink));
    }

    private static Scaled streams(double measured, Row figure, OptionalDouble measuredLink, Table summary, int index) {
        OptionalDouble publishedLink = publishedLinkGbps(figure);
        Matcher rate = STREAM_RATE.matcher(figure.getString("object_size"));
        double measuredMbps = summary.containsColumn("stream_bitrate_mbps") && !summary.doubleColumn("stream_bitrate_mbps").isMissing(index)
                ? summary.doubleColumn("stream_bitrate_mbps").getDouble(index) : Double.NaN;
        if (measuredLink.isEmpty() || publishedLink.isEmpty()) {
            return new Scaled(Double.NaN, "per Gbps: not possible, " + (measuredLink.isEmpty()
                    ? "the run had no link cap (link_bps 0 or absent)" : "published link unknown"));
        }
        if (!rate.find() || Double.isNaN(measuredMbps)) {
            return new Scaled(Double.NaN, "per Gbps: not possible, stream bitrate unknown (published or measured)");
        }
        double publishedMbps = Double.parseDouble(rate.group(1)) * 8;
        double scaled = measured * (measuredMbps / publishedMbps) * (publishedLink.getAsDouble() / measuredLink.getAsDouble());
        return new Scaled(scaled, String.format(Locale.ROOT,
                "per Gbps and stream bitrate: measured x (%s Mbit/s measured stream / %s Mbit/s published stream)"
                        + " x (%s Gbit/s published link / %s Gbit/s measured link)",
                number(measuredMbps), number(publishedMbps),
                number(publishedLink.getAsDouble()), number(measuredLink.getAsDouble())));
    }

    private static String powerSource(Table summary, Mapping mapping, int index) {
        boolean power = mapping.measuredColumn().equals("power_w") || mapping.measuredColumn().contains("watt");
        return power ? "; measured power is " + summary.stringColumn("power_source").get(index) : "";
    }

    /**
     * The rows at the figure's concurrency and link when the results measured them (each condition applied is added
     * to {@code conditions}); all rows otherwise.
     */
    private static Table matching(Table rows, Row figure, List<String> conditions) {
        Table matched = rows;
        String concurrency = figure.getString("concurrency");
        if (concurrency.matches("\\d+") && matched.containsColumn("connections")
                && matched.stringColumn("connections").asSet().contains(concurrency)) {
            matched = matched.where(matched.stringColumn("connections").isEqualTo(concurrency));
            conditions.add("connections=" + concurrency);
        }
        OptionalDouble link = publishedLinkGbps(figure);
        if (link.isPresent() && matched.containsColumn("link_bps")) {
            String bps = String.valueOf(Math.round(link.getAsDouble() * 1e9));
            if (matched.stringColumn("link_bps").asSet().contains(bps)) {
                matched = matched.where(matched.stringColumn("link_bps").isEqualTo(bps));
                conditions.add("link_bps=" + bps);
            }
        }
        return matched;
    }

    /** The one emulated link speed of {@code rows} in Gbit/s; empty when there is none (0: no cap) or several. */
    private static OptionalDouble linkGbps(Table rows) {
        if (!rows.containsColumn("link_bps")) {
            return OptionalDouble.empty();
        }
        Set<String> speeds = rows.stringColumn("link_bps").removeMissing().asSet();
        if (speeds.size() != 1) {
            return OptionalDouble.empty();
        }
        try {
            double bps = Double.parseDouble(speeds.iterator().next());
            return bps > 0 ? OptionalDouble.of(bps / 1e9) : OptionalDouble.empty();
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }

    /** The published link's speed in Gbit/s ("200GbE", "10Gbit+40ms"), empty when the figure names none. */
    private static OptionalDouble publishedLinkGbps(Row figure) {
        String link = figure.isMissing("link") ? "" : figure.getString("link");
        Matcher matcher = LINK_GBPS.matcher(link.trim());
        return matcher.find() ? OptionalDouble.of(Double.parseDouble(matcher.group(1))) : OptionalDouble.empty();
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

    private static List<String> group(Table summary, List<String> groupBy, int index) {
        List<String> parts = new ArrayList<>();
        for (String dimension : groupBy) {
            parts.add(dimension + "=" + summary.stringColumn(dimension).get(index));
        }
        return parts;
    }

    /**
     * Summary rows at the published size: exact bytes, "small"/"large" as the smallest/largest measured size; every
     * row when the published size is not a size ("any", a stream rate) or the results have no object sizes.
     */
    private static List<Integer> matchingRows(Table summary, String publishedSize) {
        List<Integer> rows = new ArrayList<>();
        boolean relative = publishedSize.equals("small") || publishedSize.equals("large");
        if (!relative && parse(publishedSize).isEmpty()) {
            for (int i = 0; i < summary.rowCount(); i++) {
                rows.add(i);
            }
            return rows;
        }
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

    /** A number in plain notation without trailing zeros (2, 0.5, 5.6). */
    private static String number(double value) {
        return SignificantFigures.format(value, 6);
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
