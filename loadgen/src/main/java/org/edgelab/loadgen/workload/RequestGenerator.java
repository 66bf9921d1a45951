package org.edgelab.loadgen.workload;

/** Fills in request number {@code ticket}; one per connection, confined to its event loop (not thread-safe). */
public interface RequestGenerator {
    /** Writes request {@code ticket} (0, 1, 2, ... across the whole run) into {@code slot}. */
    void next(long ticket, RequestSlot slot);
}
