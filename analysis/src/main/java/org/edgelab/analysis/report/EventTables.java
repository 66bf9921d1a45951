package org.edgelab.analysis.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.table.TableSlice;

/**
 * The summary tables of the event experiment kinds, a row per server build and object size with medians over
 * repetitions: {@code restart} (hit ratio before the kill, outage, time to first hit, recovery time and how many
 * repetitions recovered, errors in the gap, the share of the set refetched) and {@code churn} (the fresh and the churned
 * store's req/s and TTFB p99 with their ratios, write amplification in each phase, lmdb's free pages in its file).
 *
 * <p>Thread-safety: stateless.
 */
public final class EventTables {

    /** The restart table's figures (medians over repetitions), by results column. */
    static final List<String> RESTART = List.of("hit_ratio_before", "outage_s", "time_to_first_hit_s", "recovery_s",
            "hit_ratio_first_s", "gap_errors", "refetched_share");

    private EventTables() {
    }

    /** The restart summary of {@code results} (one experiment's), empty when it has no restart rows. */
    public static Table restart(Table results) {
        Table out = Table.create("restart");
        if (!results.containsColumn("recovery_s") || !results.containsColumn("recovered")) {
            return out;
        }
        out.addColumns(StringColumn.create("server"), StringColumn.create("object_size_bytes"), IntColumn.create("repetitions"),
                IntColumn.create("recovered"));
        RESTART.forEach(c -> out.addColumns(DoubleColumn.create(c)));
        out.addColumns(StringColumn.create("note"));
        for (TableSlice slice : results.splitOn("server", "object_size_bytes")) {
            Table g = slice.asTable();
            var row = out.appendRow();
            row.setString("server", g.stringColumn("server").get(0));
            row.setString("object_size_bytes", g.stringColumn("object_size_bytes").get(0));
            row.setInt("repetitions", g.rowCount());
            row.setInt("recovered", g.stringColumn("recovered").isEqualTo("true").size());
            for (String c : RESTART) {
                row.setDouble(c, median(g.doubleColumn(c)));
            }
            row.setString("note", g.containsColumn("note") ? g.stringColumn("note").removeMissing().unique().asList().stream()
                    .filter(s -> !s.isBlank()).findFirst().orElse("") : "");
        }
        return out;
    }

    /** The churn summary of {@code results} (one experiment's), empty when it has no churn rows. */
    public static Table churn(Table results) {
        Table out = Table.create("churn");
        if (!results.containsColumn("phase") || !results.containsColumn("req_per_s_vs_fresh")) {
            return out;
        }
        Map<String, String[]> figures = new LinkedHashMap<>();
        figures.put("req_per_s_fresh", new String[] {"fresh", "req_per_s"});
        figures.put("req_per_s_churned", new String[] {"churned", "req_per_s"});
        figures.put("req_per_s_vs_fresh", new String[] {"churned", "req_per_s_vs_fresh"});
        figures.put("ttfb_p99_ms_fresh", new String[] {"fresh", "ttfb_p99_ms"});
        figures.put("ttfb_p99_ms_churned", new String[] {"churned", "ttfb_p99_ms"});
        figures.put("ttfb_p99_vs_fresh", new String[] {"churned", "ttfb_p99_vs_fresh"});
        figures.put("write_amplification_fresh", new String[] {"fresh", "write_amplification"});
        figures.put("write_amplification_churn", new String[] {"churn", "write_amplification"});
        figures.put("write_amplification_churned", new String[] {"churned", "write_amplification"});
        figures.put("store_file_free_share_churned", new String[] {"churned", "store_file_free_share"});
        out.addColumns(StringColumn.create("server"), StringColumn.create("object_size_bytes"), IntColumn.create("repetitions"));
        figures.keySet().forEach(c -> out.addColumns(DoubleColumn.create(c)));
        for (TableSlice slice : results.splitOn("server", "object_size_bytes")) {
            Table g = slice.asTable();
            var row = out.appendRow();
            row.setString("server", g.stringColumn("server").get(0));
            row.setString("object_size_bytes", g.stringColumn("object_size_bytes").get(0));
            row.setInt("repetitions", g.stringColumn("phase").isEqualTo("churned").size());
            figures.forEach((name, from) -> {
                Table phase = g.where(g.stringColumn("phase").isEqualTo(from[0]));
                row.setDouble(name, g.containsColumn(from[1]) ? median(phase.doubleColumn(from[1])) : Double.NaN);
            });
        }
        return out;
    }

    /** Both tables of {@code results} that have rows, titled. */
    static List<Map.Entry<String, Table>> of(Table results) {
        List<Map.Entry<String, Table>> out = new ArrayList<>();
        Table restart = restart(results);
        if (!restart.isEmpty()) {
            out.add(Map.entry("Restart: medians over repetitions (recovery_s from the restart, 1 s resolution;"
                    + " refetched_share of the warmed set)", restart));
        }
        Table churn = churn(results);
        if (!churn.isEmpty()) {
            out.add(Map.entry("Churn: the fresh and the churned store, medians over repetitions (_vs_fresh: churned / fresh)", churn));
        }
        return out;
    }

    private static double median(DoubleColumn c) {
        DoubleColumn present = c.removeMissing();
        return present.isEmpty() ? Double.NaN : present.median();
    }
}
