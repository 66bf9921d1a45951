package org.edgelab.experiments.descriptor.yaml;

/**
 * A descriptor is invalid: the message names the file, the line and column (when known), the field
 * (dotted path such as {@code servers[1].engine}) and what is wrong. Immutable.
 */
public final class DescriptorException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final int column;
    private final String field;

    /** Creates the error; {@code line} and {@code column} are 1-based, 0 when unknown; {@code field} may be empty. */
    public DescriptorException(String file, int line, int column, String field, String problem) {
        super(format(file, line, column, field, problem));
        this.file = file;
        this.line = line;
        this.column = column;
        this.field = field == null ? "" : field;
    }

    private static String format(String file, int line, int column, String field, String problem) {
        StringBuilder b = new StringBuilder(file);
        if (line > 0) {
            b.append(':').append(line);
            if (column > 0) {
                b.append(':').append(column);
            }
        }
        b.append(": ");
        if (field != null && !field.isEmpty()) {
            b.append(field).append(": ");
        }
        return b.append(problem).toString();
    }

    /** The file (or {@code classpath:...} resource) the error is in. */
    public String file() {
        return file;
    }

    /** The 1-based line, 0 when unknown. */
    public int line() {
        return line;
    }

    /** The 1-based column, 0 when unknown. */
    public int column() {
        return column;
    }

    /** The field as a dotted path ({@code load.workload.object_sizes[2]}), empty for the whole file. */
    public String field() {
        return field;
    }
}
