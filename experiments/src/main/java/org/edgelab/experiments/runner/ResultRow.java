package org.edgelab.experiments.runner;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of {@code results.csv}: the figures of one cell and repetition, by column name (see
 * {@link ResultsCsv#COLUMNS}), as the text written to the file. Immutable and thread-safe.
 */
public final class ResultRow {
    private final Map<String, String> values;

    /** Wraps {@code values}; columns missing from it are written empty. */
    public ResultRow(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** The text of {@code column}, empty when absent. */
    public String get(String column) {
        return values.getOrDefault(column, "");
    }

    /** The number in {@code column}, NaN when absent or not a number. */
    public double number(String column) {
        try {
            return Double.parseDouble(get(column));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** Every value by column. */
    public Map<String, String> values() {
        return values;
    }
}
