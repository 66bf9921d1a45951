package org.edgelab.cache.fetch;

import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.edgelab.cache.http.VaryKeys;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StoredObject;

/**
 * The one way a request finds its variant, used by client lookups and by fills: under the primary
 * key either the response itself or a variant marker naming the Vary fields, whose values in the
 * request select the variant's key ({@link VariantMarkers}). Stateless and thread-safe.
 */
public final class VariantLookup {

    private VariantLookup() {
    }

    /**
     * What a lookup found: the key the request's response is (or would be) stored under, and the
     * object stored there, or null. {@code key} is empty when the request's variant key would be
     * too long to store (then the request cannot be served from the store, nor shared).
     */
    public record Found(Optional<CacheKey> key, StoredObject object) {
    }

    /** Returns the key a response varying on {@code varyFields} is stored under for a request with {@code requestHeaders}. */
    public static Optional<CacheKey> keyFor(CacheKey primary, List<String> varyFields, HttpHeaders requestHeaders) {
        if (varyFields.isEmpty()) {
            return Optional.of(primary);
        }
        return VariantMarkers.variantKey(primary, VaryKeys.secondaryKey(varyFields, requestHeaders));
    }

    /**
     * Looks the request up under {@code primary}, following a variant marker to the request's
     * variant. The caller owns the object found. May block as {@link ObjectStore#lookup} does (two
     * lookups when there is a marker): call it where {@code LOOKUP} may block.
     */
    public static Found lookup(ObjectStore store, CacheKey primary, HttpHeaders requestHeaders) throws IOException {
        StoredObject found = store.lookup(primary).orElse(null);
        if (found == null || !VariantMarkers.isMarker(found.metadata())) {
            return new Found(Optional.of(primary), found);
        }
        List<String> fields = VaryKeys.varyFields(found.metadata()).orElse(List.of());
        found.close();
        Optional<CacheKey> variant = keyFor(primary, fields, requestHeaders);
        if (variant.isEmpty()) {
            return new Found(variant, null);
        }
        return new Found(variant, store.lookup(variant.get()).orElse(null));
    }
}
