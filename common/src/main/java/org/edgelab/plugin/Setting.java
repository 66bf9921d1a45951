package org.edgelab.plugin;

import java.util.Objects;

/**
 * One setting a plugin (storage engine, workload, power model, experiment kind, load client, ...) accepts:
 * its name as written on the command line or in a descriptor, its default ({@code null} when required or
 * when absence means something) and one line saying what it does, for listings and error messages.
 * Immutable and thread-safe.
 *
 * @param name         the name as written ({@code capacity}, {@code look_ahead_frames})
 * @param defaultValue the default as text, or null
 * @param description  one line for listings and error messages
 */
public record Setting(String name, String defaultValue, String description) {
    public Setting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
    }
}
