package org.edgelab.analysis.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.edgelab.analysis.ResultColumns;

import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * The server builds of one experiment's results and how the report names them: the build column ({@code server},
 * else {@code engine}), which builds are peers (a target that is not one of EdgeLab's own), the baseline the ratios are
 * taken against, and short labels that add to the build's name only the dimensions that split it further
 * ({@code raw-log-1g · 10 conn}), never one that follows the build (engine, target, link_bps).
 *
 * <p>Thread-safety: immutable after construction.
 */
public final class Builds {
    /** EdgeLab's own targets; a build on any other target ({@code varnish}, {@code nginx}, ...) is a peer. */
    public static final Set<String> OWN_TARGETS = Set.of("embedded", "process", "container", "external");
    /** Joins the parts of a label. */
    static final String SEPARATOR = " · ";

    private final String column;
    private final List<String> names;
    private final List<String> peers;
    private final List<String> extra;

    /**
     * The builds of {@code results} (one experiment), with the dimensions beside the build that split the rows further,
     * {@code excluded} (e.g. the x axis or the dimension a figure is drawn per) and the experiment left out.
     */
    public Builds(Table results, String... excluded) {
        this.column = results.containsColumn("server") ? "server" : results.containsColumn("engine") ? "engine" : null;
        this.names = column == null ? List.of() : List.copyOf(new java.util.LinkedHashSet<>(results.stringColumn(column).asList()));
        List<String> peerNames = new ArrayList<>();
        if (column != null && results.containsColumn("target")) {
            for (Row row : results) {
                String target = row.getString("target");
                String name = row.getString(column);
                if (!target.isBlank() && !OWN_TARGETS.contains(target) && !peerNames.contains(name)) {
                    peerNames.add(name);
                }
            }
        }
        this.peers = List.copyOf(peerNames);
        this.extra = column == null ? List.of() : splitting(results, column, List.of(excluded));
    }

    /** The build column's name, or empty when the results name no build. */
    public Optional<String> column() {
        return Optional.ofNullable(column);
    }

    /** The builds in order of first appearance. */
    public List<String> names() {
        return names;
    }

    /** The builds that run on a peer's target, in order of first appearance. */
    public List<String> peers() {
        return peers;
    }

    /** The dimensions besides the build that split the rows further, in file order. */
    public List<String> extra() {
        return extra;
    }

    /** The baseline: {@code wanted} when it is one of the builds, else the first peer, else the first build. */
    public String baseline(String wanted) {
        if (wanted != null && names.contains(wanted)) {
            return wanted;
        }
        return peers.isEmpty() ? names.isEmpty() ? "" : names.get(0) : peers.get(0);
    }

    /** The label of a row: its build, then each {@link #extra()} dimension's value in short ({@code 10 conn}). */
    public String label(Row row) {
        List<String> parts = new ArrayList<>();
        if (column != null) {
            parts.add(row.getString(column));
        }
        parts.addAll(extraParts(row));
        return String.join(SEPARATOR, parts);
    }

    /** The {@link #extra()} part of a row's label alone (empty when nothing splits the builds further). */
    public String extraLabel(Row row) {
        return String.join(SEPARATOR, extraParts(row));
    }

    private List<String> extraParts(Row row) {
        List<String> parts = new ArrayList<>();
        for (String dimension : extra) {
            parts.add(shortValue(dimension, row.getString(dimension)));
        }
        return parts;
    }

    /** A dimension's name as a column header shows it ({@code range_size_bytes} is {@code range}). */
    public static String shortName(String dimension) {
        return switch (dimension) {
            case "range_size_bytes" -> "range";
            case "object_size_bytes" -> "object size";
            case "link_latency_ms" -> "link latency";
            default -> dimension.replace('_', ' ');
        };
    }

    /** A dimension's value as the report shows it: sizes in human units, connections as {@code 10 conn}. */
    public static String shortValue(String dimension, String value) {
        return switch (dimension) {
            case "connections" -> value + " conn";
            case "object_size_bytes" -> HumanUnits.size(value);
            case "range_size_bytes" -> "0".equals(value.trim()) ? "whole" : HumanUnits.size(value) + " ranges";
            case "link_latency_ms" -> value + " ms";
            case "link", "target" -> value;
            default -> dimension + "=" + value;
        };
    }

    /**
     * The dimensions (other than {@code build}, the experiment and {@code excluded}) that split the rows further than
     * the ones already chosen, so a dimension that varies with the build or with another chosen one is not repeated.
     */
    private static List<String> splitting(Table results, String build, List<String> excluded) {
        List<String> chosen = new ArrayList<>(List.of(build));
        List<String> base = new ArrayList<>(excluded.stream().filter(results::containsColumn).toList());
        for (String dimension : ResultColumns.dimensions(results)) {
            if (chosen.contains(dimension) || excluded.contains(dimension) || dimension.equals("experiment")) {
                continue;
            }
            List<String> with = new ArrayList<>(chosen);
            with.addAll(base);
            int before = combinations(results, with);
            with.add(dimension);
            if (combinations(results, with) > before) {
                chosen.add(dimension);
            }
        }
        return List.copyOf(chosen.subList(1, chosen.size()));
    }

    private static int combinations(Table results, List<String> dimensions) {
        return results.selectColumns(dimensions.toArray(String[]::new)).dropDuplicateRows().rowCount();
    }
}
