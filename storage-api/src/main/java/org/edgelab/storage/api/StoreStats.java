package org.edgelab.storage.api;

import java.util.Map;

/**
 * Counters of a store since it was opened. The named fields are kept by every engine;
 * {@code extra} holds engine-specific gauges and counters (disk states, index bytes per object,
 * journal size) with self-explanatory names. Immutable.
 */
public record StoreStats(
        long lookups,
        long lookupHits,
        long writesBegun,
        long writesCommitted,
        long writesAborted,
        long bytesWritten,
        long bytesRead,
        long evictions,
        long evictedBytes,
        long removals,
        long corruptObjectsDropped,
        Map<String, Object> extra) {

    public StoreStats {
        extra = Map.copyOf(extra);
    }
}
