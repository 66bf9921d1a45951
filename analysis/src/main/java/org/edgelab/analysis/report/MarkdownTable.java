package org.edgelab.analysis.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import tech.tablesaw.api.NumericColumn;

/**
 * Renders a Tablesaw table as a GitHub-flavoured Markdown table (numbers right-aligned, missing values blank).
 *
 * <p>Thread-safety: stateless.
 */
public final class MarkdownTable {
    private MarkdownTable() {
    }

    /** The table as Markdown lines, ready for a README. */
    public static String render(Table table) {
        StringBuilder out = new StringBuilder();
        List<String> header = new ArrayList<>();
        List<String> rule = new ArrayList<>();
        for (Column<?> column : table.columns()) {
            header.add(escape(column.name()));
            rule.add(column instanceof NumericColumn ? "---:" : "---");
        }
        line(out, header);
        line(out, rule);
        for (int row = 0; row < table.rowCount(); row++) {
            List<String> cells = new ArrayList<>();
            for (Column<?> column : table.columns()) {
                cells.add(cell(column, row));
            }
            line(out, cells);
        }
        return out.toString();
    }

    /** One cell as text: blank when missing, numbers with about four significant digits. */
    static String cell(Column<?> column, int row) {
        if (column.isMissing(row)) {
            return "";
        }
        if (column instanceof NumericColumn<?> number) {
            return number(number.getDouble(row));
        }
        return escape(column.getString(row));
    }

    /** A number with about four significant digits, without exponent for everyday magnitudes. */
    static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e12) {
            return String.valueOf((long) value);
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 1000) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (magnitude >= 1) {
            return String.format(Locale.ROOT, "%.4g", value).replaceAll("\\.?0+$", "");
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }

    private static void line(StringBuilder out, List<String> cells) {
        out.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    private static String escape(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
