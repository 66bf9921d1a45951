package org.edgelab.experiments.descriptor.yaml;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import org.edgelab.loadgen.LinkEmulation;

/**
 * A link bandwidth as written in a descriptor ({@code 1gbit}, {@code 200gbit}, {@code 100mbit}), parsed
 * like the load generator's {@code --link} flag. Immutable and thread-safe.
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

    /** Parses {@code text}; anything but a number with an optional kbit/mbit/gbit unit fails. */
    public static BandwidthValue parse(String text) {
        long bits = LinkEmulation.parseBitsPerSecond(text);
        if (bits < 0) {
            throw new IllegalArgumentException("'" + text + "': a bandwidth must be >= 0");
        }
        return new BandwidthValue(text.trim(), bits);
    }

    /** Returns the text as written. */
    @JsonValue
    @Override
    public String text() {
        return text;
    }
}
