package org.edgelab.experiments.client;

import java.util.Map;
import java.util.Objects;

/**
 * One entry of a descriptor's {@code load.client}: which {@link LoadClient} plugin, the name its rows
 * carry (column {@code client}, and the cell id when the matrix crosses clients) and its settings.
 * Immutable and thread-safe.
 *
 * @param name     the label in results ({@code [A-Za-z0-9._-]}); the plugin's name unless given
 * @param kind     the {@link LoadClient} plugin name
 * @param settings the plugin's settings
 */
public record ClientChoice(String name, String kind, Map<String, String> settings) {

    /** EdgeLab's load generator with no settings, the default. */
    public static final ClientChoice LOADGEN = new ClientChoice(LoadClients.DEFAULT, LoadClients.DEFAULT, Map.of());

    public ClientChoice {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        settings = Map.copyOf(settings);
    }
}
