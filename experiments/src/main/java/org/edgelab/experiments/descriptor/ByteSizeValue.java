package org.edgelab.experiments.descriptor;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import org.edgelab.units.ByteSize;

/**
 * A byte quantity as written in a descriptor ({@code 100KB}, {@code 1MiB}), parsed with {@link ByteSize}.
 * Immutable and thread-safe.
 *
 * @param text  the text as written
 * @param bytes the number of bytes
 */
public record ByteSizeValue(String text, long bytes) {

    /** Binds a YAML scalar (text or number); a list or mapping fails saying a single value is expected. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static ByteSizeValue fromYaml(JsonNode node) {
        if (!node.isValueNode() || node.isNull()) {
            throw new IllegalArgumentException("expected a single value such as 100KB, got a " + node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
        }
        return parse(node.asText());
    }

    /** Parses {@code text}; a bad unit fails with {@link ByteSize}'s message listing the accepted forms. */
    public static ByteSizeValue parse(String text) {
        return new ByteSizeValue(text.trim(), ByteSize.parse(text));
    }

    /** Returns the text as written. */
    @JsonValue
    @Override
    public String text() {
        return text;
    }
}
