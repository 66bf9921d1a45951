package org.edgelab.experiments.target;

/** A server build that its target cannot run: names the build's field at fault. Immutable. */
public final class BuildValidationException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;

    /** {@code field} is the build's field at fault: {@code engine}, {@code settings} or {@code target_settings}. */
    public BuildValidationException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The build's field at fault. */
    public String field() {
        return field;
    }
}
