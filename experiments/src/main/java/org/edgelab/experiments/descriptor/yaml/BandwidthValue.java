package org.edgelab.experiments.descriptor.yaml;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import org.edgelab.units.DataRate;

/**
 * A link bandwidth as written in a descriptor ({@code 1Gbit/s}, {@code 1gbit}, {@code 100MB/s}), parsed by
 * {@link DataRate} like every rate flag and field. Immutable and thread-safe.
 *
 * @param text          the text as written
 * @param bitsPerSecond the bandwidth in bits per second
 */
public record BandwidthValue(String text, long bitsPerSecond) {

    /** Binds a YAML scalar (text or number); a list or mapping fails saying a single value is expected. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static BandwidthValue fromYaml(JsonNode node) {
        if (!node.isValueNode() || node.isNull()) {
            throw new IllegalArgumentException("expected a single value such as 1gbit, got a " + node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
        }
        return parse(node.asText());
    }

    /** Parses {@code text}; anything but a rate with a unit (or 0) fails, naming the accepted forms. */
    public static BandwidthValue parse(String text) {
        return new BandwidthValue(text.trim(), DataRate.parse(text).bitsPerSecond());
    }

    /** Returns the text as written. */
    @JsonValue
    @Override
    public String text() {
        return text;
    }
}
