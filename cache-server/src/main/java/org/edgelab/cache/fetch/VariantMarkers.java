package org.edgelab.cache.fetch;

import java.util.List;
import java.util.Optional;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;

/**
 * How Vary variants are laid out in the store: under the primary key (host, path, query) a
 * body-less marker whose metadata lists the Vary fields; each variant under the primary key plus
 * the secondary key its request selects. Stateless and thread-safe.
 */
public final class VariantMarkers {

    /** The header a marker carries (besides Vary) so it can never be mistaken for a response. */
    public static final String MARKER_HEADER = "X-EdgeLab-Variant-Marker";

    private VariantMarkers() {
    }

    /** Returns the metadata of a marker for responses that vary on {@code varyFields}. */
    public static ObjectMetadata marker(List<String> varyFields, long nowMillis) {
        return new ObjectMetadata(200, List.of(new HeaderField(MARKER_HEADER, "1"),
                new HeaderField("Vary", String.join(", ", varyFields))), 0, nowMillis, nowMillis,
                ObjectMetadata.NEVER);
    }

    /** Returns whether stored metadata is a variant marker. */
    public static boolean isMarker(ObjectMetadata metadata) {
        return metadata.length() == 0 && metadata.header(MARKER_HEADER).isPresent();
    }

    /** Returns the key of a variant, or empty when it would exceed the key length limit. */
    public static Optional<CacheKey> variantKey(CacheKey primary, String secondaryKey) {
        String value = primary.value() + "\n#vary\n" + secondaryKey;
        try {
            return Optional.of(CacheKey.of(value));
        } catch (IllegalArgumentException tooLong) {
            return Optional.empty();
        }
    }
}
