package org.edgelab.experiments.plugin;

import java.util.Objects;

/**
 * One setting a plugin (workload, power model, experiment kind) accepts: its name as written in a
 * descriptor, its default ({@code null} when required or when absence means something) and one line
 * saying what it does. Immutable and thread-safe.
 *
 * @param name         snake_case name in the descriptor
 * @param defaultValue the default as text, or null
 * @param description  one line for listings and error messages
 */
public record Setting(String name, String defaultValue, String description) {
    public Setting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
    }
}
