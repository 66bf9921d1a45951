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

    /**
     * The number in {@code column}, failing with the column's name when it is absent, empty or not a number: for a
     * figure that must have been measured ({@link #number} reads such a column as NaN, which compares above every
     * number, so a check such as {@code > 0} on it would pass).
     */
    public double measured(String column) {
        double v = number(column);
        if (Double.isNaN(v)) {
            throw new IllegalStateException("column " + column + " holds no number: '" + get(column) + "'");
        }
        return v;
    }

    /** Every value by column. */
    public Map<String, String> values() {
        return values;
    }
}
