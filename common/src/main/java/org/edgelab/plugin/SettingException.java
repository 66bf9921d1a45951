package org.edgelab.plugin;

/**
 * A plugin setting is missing, unknown or malformed; {@link #key()} names it, so that a descriptor's loader
 * can point at its file, line and column. An {@link IllegalArgumentException}: bad input. Immutable.
 */
public final class SettingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String key;

    /** Creates the error for setting {@code key} (empty for the block as a whole). */
    public SettingException(String key, String message) {
        super(message);
        this.key = key == null ? "" : key;
    }

    /** The setting's name as written in the descriptor, empty for the whole block. */
    public String key() {
        return key;
    }
}
