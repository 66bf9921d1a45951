package org.edgelab.storage.api;

import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind {@link StoreStats}, shared by engines so that every engine counts the
 * same events the same way. Thread-safe (striped adders).
 */
public final class StoreCounters {
    public final LongAdder lookups = new LongAdder();
    public final LongAdder lookupHits = new LongAdder();
    public final LongAdder writesBegun = new LongAdder();
    public final LongAdder writesCommitted = new LongAdder();
    public final LongAdder writesAborted = new LongAdder();
    public final LongAdder bytesWritten = new LongAdder();
    public final LongAdder bytesRead = new LongAdder();
    public final LongAdder evictions = new LongAdder();
    public final LongAdder evictedBytes = new LongAdder();
    public final LongAdder removals = new LongAdder();
    public final LongAdder corruptObjectsDropped = new LongAdder();

    /** Returns a snapshot with the given engine-specific extras. */
    public StoreStats snapshot(Map<String, Object> extra) {
        return new StoreStats(lookups.sum(), lookupHits.sum(), writesBegun.sum(), writesCommitted.sum(),
                writesAborted.sum(), bytesWritten.sum(), bytesRead.sum(), evictions.sum(), evictedBytes.sum(),
                removals.sum(), corruptObjectsDropped.sum(), extra);
    }
}
