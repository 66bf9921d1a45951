package org.edgelab.storage.raw.log;

import java.util.List;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;

/** A committed object as its commit record describes it: key, metadata and the extents of its body. Immutable. */
record CommitRecord(CacheKey key, ObjectMetadata metadata, long bodyLength, List<Extent> extents) {

    CommitRecord {
        extents = List.copyOf(extents);
    }

    /** Returns the oldest segment generation holding a byte of the body, or {@code fallback} if empty. */
    long lowestGeneration(long fallback) {
        long low = fallback;
        for (Extent e : extents) {
            low = Math.min(low, e.generation());
        }
        return low;
    }
}
