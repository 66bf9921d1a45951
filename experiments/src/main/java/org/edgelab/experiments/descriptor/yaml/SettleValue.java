package org.edgelab.experiments.descriptor.yaml;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code load.settle} as written: a duration ({@code 10s}), {@code auto} (until req/s is steady, with the default
 * bounds), or the steady-state settle with its bounds as a mapping ({@code {auto: true, min: 0s, max: 30s, tolerance: 5%,
 * windows: 3, jit: 50ms/s}}). Bound as text; {@link DescriptorLoader} checks the values, pointing at the line of each.
 * Immutable and thread-safe.
 *
 * @param text   the scalar as written, or null for a mapping
 * @param fields the mapping's fields as written, in order (empty for a scalar)
 */
public record SettleValue(String text, Map<String, String> fields) {

    /** The scalar that asks for a steady-state settle with the default bounds. */
    static final String AUTO = "auto";
    /** What a settle may be, for error messages. */
    static final String EXPECTED = "a duration such as 10s, auto (run until req/s is steady and a JVM's JIT is quiet), or"
            + " {auto: true, max: 30s, tolerance: 5%, windows: 3, jit: 50ms/s}";

    public SettleValue {
        fields = Map.copyOf(fields);
    }

    /** Binds a scalar or a mapping of scalars; anything else fails saying what a settle may be. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static SettleValue fromYaml(JsonNode node) {
        if (node.isValueNode() && !node.isNull()) {
            return new SettleValue(node.asText().trim(), Map.of());
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("expected " + EXPECTED + ", got " + (node.isArray() ? "a list"
                    : node.isNull() ? "nothing" : "a " + node.getNodeType().toString().toLowerCase(Locale.ROOT)));
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            JsonNode value = field.getValue();
            if (!value.isValueNode() || value.isNull()) {
                throw new IllegalArgumentException("settle's " + field.getKey() + " is a single value");
            }
            fields.put(field.getKey(), value.asText().trim());
        }
        return new SettleValue(null, fields);
    }

    /** Whether this is the mapping form. */
    boolean isMapping() {
        return text == null;
    }
}
