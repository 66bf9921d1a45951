package org.edgelab.storage.tier;

import java.util.concurrent.atomic.LongAdder;

/** The memory tier's own counters, shown in {@link org.edgelab.storage.api.StoreStats#extra()}. Thread-safe. */
final class TierCounters {
    final LongAdder memoryHits = new LongAdder();
    final LongAdder diskHits = new LongAdder();
    final LongAdder misses = new LongAdder();
    final LongAdder bypassedAbove = new LongAdder();
    final LongAdder bypassedSequential = new LongAdder();
    final LongAdder admissionsDeferred = new LongAdder();
    final LongAdder writesToMemory = new LongAdder();
    final LongAdder staleMemoryCopiesDropped = new LongAdder();
    final LongAdder promotions = new LongAdder();
    final LongAdder promotionsAborted = new LongAdder();
    final LongAdder promotionsDropped = new LongAdder();
    final LongAdder readAheadBytes = new LongAdder();
    final LongAdder readAheadServedBytes = new LongAdder();
}
