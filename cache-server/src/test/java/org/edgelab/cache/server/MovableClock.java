package org.edgelab.cache.server;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The system clock plus an offset that a test moves forward, so that an origin and a cache sharing it see objects
 * age without the test sleeping. Thread-safe.
 */
final class MovableClock implements InstantSource {

    private final AtomicLong offsetMillis = new AtomicLong();

    /** Moves this clock {@code by} forward. */
    void advance(Duration by) {
        offsetMillis.addAndGet(by.toMillis());
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public long millis() {
        return System.currentTimeMillis() + offsetMillis.get();
    }
}
