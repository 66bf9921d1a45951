package org.edgelab.cache.server;

import io.netty.channel.EventLoop;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.cache.fetch.FetchRegistry;
import org.edgelab.cache.origin.OriginClient;
import org.edgelab.cache.store.LoopStore;

/**
 * What every connection of one server shares: settings, the store (as the loops use it), origin
 * client, fetches, counters, and one {@link WriteScheduler} per event loop. Thread-safe.
 */
final class ServerContext {

    private final CacheServerConfig config;
    private final LoopStore store;
    private final OriginClient origin;
    private final FetchRegistry fetches;
    private final CacheStats stats;
    private final Map<EventLoop, WriteScheduler> schedulers = new ConcurrentHashMap<>();

    ServerContext(CacheServerConfig config, LoopStore store, OriginClient origin, FetchRegistry fetches,
                  CacheStats stats) {
        this.config = config;
        this.store = store;
        this.origin = origin;
        this.fetches = fetches;
        this.stats = stats;
    }

    CacheServerConfig config() {
        return config;
    }

    LoopStore store() {
        return store;
    }

    OriginClient origin() {
        return origin;
    }

    FetchRegistry fetches() {
        return fetches;
    }

    CacheStats stats() {
        return stats;
    }

    /** Returns the body write scheduler of {@code loop} (created on first use). */
    WriteScheduler scheduler(EventLoop loop) {
        return schedulers.computeIfAbsent(loop, WriteScheduler::new);
    }

    /** Returns the schedulers made so far (for figures). */
    Iterable<WriteScheduler> schedulers() {
        return schedulers.values();
    }
}
