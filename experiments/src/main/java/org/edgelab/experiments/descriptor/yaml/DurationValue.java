package org.edgelab.experiments.descriptor.yaml;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.edgelab.units.Durations;

/**
 * A duration as written in a descriptor ({@code 10s}, {@code 500ms}), parsed with {@link Durations}.
 * Immutable and thread-safe.
 *
 * @param text     the text as written
 * @param duration the parsed duration
 */
public record DurationValue(String text, Duration duration) {

    /** Binds a YAML scalar (text or number); a list or mapping fails saying a single value is expected. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static DurationValue fromYaml(JsonNode node) {
        if (!node.isValueNode() || node.isNull()) {
            throw new IllegalArgumentException("expected a single value such as 10s, got a " + node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
        }
        return parse(node.asText());
    }

    /** Parses {@code text}; a bare number or bad unit fails with {@link Durations}' message. */
    public static DurationValue parse(String text) {
        return new DurationValue(text.trim(), Durations.parse(text));
    }

    /** Returns the text as written. */
    @JsonValue
    @Override
    public String text() {
        return text;
    }
}
