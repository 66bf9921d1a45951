/**
 * The edge cache's HTTP side: {@link org.edgelab.cache.server.CacheServer} (bootstrap and
 * lifecycle), {@link org.edgelab.cache.server.CacheServerConfig}, the pipeline initializer, the
 * per-connection request handler (ordering, limits, timeouts) and the per-request exchange that
 * serves from the store, joins fetches or proxies, streaming bodies with backpressure.
 */
package org.edgelab.cache.server;
