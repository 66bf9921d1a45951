package org.edgelab.experiments.descriptor.yaml;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One entry of {@code load.client} as written: a client's name ({@code wrk}), or a mapping with its
 * {@code kind}, the {@code name} its rows carry and its {@code settings}
 * ({@code {kind: wrk2, name: wrk2-opt, settings: {binary: /opt/wrk2/wrk}}}). Immutable and thread-safe.
 *
 * @param kind     the load client plugin
 * @param name     the label in results, or null for the plugin's name
 * @param settings the plugin's settings (empty for none)
 */
public record ClientValue(String kind, String name, Map<String, String> settings) {

    public ClientValue {
        settings = Map.copyOf(settings);
    }

    /** Binds a scalar (the client's name) or a mapping of kind, name and settings; anything else fails saying what is expected. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static ClientValue fromYaml(JsonNode node) {
        if (node.isValueNode() && !node.isNull()) {
            return new ClientValue(node.asText().trim(), null, Map.of());
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("expected a load client's name such as wrk, or a mapping {kind: wrk2, name: ..., settings: {...}},"
                    + " got a " + node.getNodeType().toString().toLowerCase(Locale.ROOT));
        }
        String kind = null;
        String name = null;
        Map<String, String> settings = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            JsonNode value = field.getValue();
            switch (field.getKey()) {
                case "kind" -> kind = scalar("kind", value);
                case "name" -> name = scalar("name", value);
                case "settings" -> {
                    if (!value.isObject()) {
                        throw new IllegalArgumentException("a load client's settings are a mapping of names to values");
                    }
                    for (Map.Entry<String, JsonNode> setting : value.properties()) {
                        settings.put(setting.getKey(), scalar("settings." + setting.getKey(), setting.getValue()));
                    }
                }
                default -> throw new IllegalArgumentException("unknown field '" + field.getKey() + "' of a load client;"
                        + " known fields here: kind, name, settings");
            }
        }
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("a load client written as a mapping needs its kind (loadgen, wrk, wrk2, ...)");
        }
        return new ClientValue(kind, name, settings);
    }

    private static String scalar(String field, JsonNode value) {
        if (!value.isValueNode() || value.isNull()) {
            throw new IllegalArgumentException("a load client's " + field + " is a single value");
        }
        return value.asText().trim();
    }
}
