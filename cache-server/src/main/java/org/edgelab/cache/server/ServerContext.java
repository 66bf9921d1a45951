package org.edgelab.cache.server;

import org.edgelab.cache.admin.CacheStats;
import org.edgelab.cache.fetch.FetchRegistry;
import org.edgelab.cache.origin.OriginClient;
import org.edgelab.storage.api.ObjectStore;

/** What every connection of one server shares: settings, store, origin client, fetches, counters. Immutable; its parts are thread-safe. */
record ServerContext(CacheServerConfig config, ObjectStore store, OriginClient origin, FetchRegistry fetches,
                     CacheStats stats) {
}
