package org.edgelab.analysis;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.table.TableSlice;

/**
 * Ratios of a metric between two values of one dimension (for example engine raw-log against lmdb), matched on the
 * other dimensions, with the spread over repetitions.
 *
 * <p>Columns: the matched dimensions; {@code <metric>_<a>} and {@code <metric>_<b>} (medians over repetitions);
 * {@code ratio} = median a / median b; {@code ratio_min} = min a / max b and {@code ratio_max} = max a / min b (the
 * extremes of any repetition of a against any repetition of b); {@code repetitions_a}, {@code repetitions_b}.
 * Groups where either side has no value are left out.
 *
 * <p>Thread-safety: stateless.
 */
public final class Ratios {
    private Ratios() {
    }

    /**
     * Compares {@code metric} between {@code dimension}={@code a} and {@code dimension}={@code b}, matched on every
     * other dimension that has a value common to both sides (a column such as a server name that always differs
     * with {@code dimension} is not matched on).
     */
    public static Table between(Table results, String dimension, String a, String b, String metric) {
        Table sideA = side(results, dimension, a);
        Table sideB = side(results, dimension, b);
        List<String> matchOn = new ArrayList<>();
        for (String other : ResultColumns.dimensions(results)) {
            if (!other.equals(dimension)) {
                Set<String> common = new HashSet<>(sideA.stringColumn(other).asSet());
                common.retainAll(sideB.stringColumn(other).asSet());
                if (!common.isEmpty()) {
                    matchOn.add(other);
                }
            }
        }
        return between(results, dimension, a, b, metric, matchOn.toArray(String[]::new));
    }

    /** Compares {@code metric} between {@code dimension}={@code a} and {@code dimension}={@code b}, matched on {@code matchOn}. */
    public static Table between(Table results, String dimension, String a, String b, String metric, String... matchOn) {
        if (!results.containsColumn(metric) || !(results.column(metric) instanceof DoubleColumn)) {
            throw new IllegalArgumentException("'" + metric + "' is not a numeric column of the results; numeric columns are "
                    + ResultColumns.NUMERIC);
        }
        Table sideA = side(results, dimension, a);
        Table sideB = side(results, dimension, b);
        Table out = Table.create(metric + " " + a + " / " + b);
        for (String column : matchOn) {
            out.addColumns(StringColumn.create(column));
        }
        out.addColumns(DoubleColumn.create(metric + "_" + a), DoubleColumn.create(metric + "_" + b),
                DoubleColumn.create("ratio"), DoubleColumn.create("ratio_min"), DoubleColumn.create("ratio_max"),
                IntColumn.create("repetitions_a"), IntColumn.create("repetitions_b"));
        List<Table> groups = new ArrayList<>();
        if (matchOn.length == 0) {
            groups.add(sideA);
        } else {
            for (TableSlice slice : sideA.splitOn(matchOn)) {
                groups.add(slice.asTable());
            }
        }
        for (Table groupA : groups) {
            Table groupB = sideB;
            for (String column : matchOn) {
                groupB = groupB.where(groupB.stringColumn(column).isEqualTo(groupA.stringColumn(column).get(0)));
            }
            DoubleColumn valuesA = groupA.doubleColumn(metric).removeMissing();
            DoubleColumn valuesB = groupB.doubleColumn(metric).removeMissing();
            if (valuesA.isEmpty() || valuesB.isEmpty()) {
                continue;
            }
            Row row = out.appendRow();
            for (String column : matchOn) {
                row.setString(column, groupA.stringColumn(column).get(0));
            }
            row.setDouble(metric + "_" + a, valuesA.median());
            row.setDouble(metric + "_" + b, valuesB.median());
            row.setDouble("ratio", valuesA.median() / valuesB.median());
            row.setDouble("ratio_min", valuesA.min() / valuesB.max());
            row.setDouble("ratio_max", valuesA.max() / valuesB.min());
            row.setInt("repetitions_a", valuesA.size());
            row.setInt("repetitions_b", valuesB.size());
        }
        return out;
    }

    private static Table side(Table results, String dimension, String value) {
        if (!results.containsColumn(dimension) || !(results.column(dimension) instanceof StringColumn column)) {
            throw new IllegalArgumentException("cannot compare on '" + dimension + "': not a dimension; dimensions are "
                    + ResultColumns.dimensions(results));
        }
        Table side = results.where(column.isEqualTo(value));
        if (side.isEmpty()) {
            throw new IllegalArgumentException("no results with " + dimension + "=" + value + "; values are " + column.unique().asList());
        }
        return side;
    }
}
