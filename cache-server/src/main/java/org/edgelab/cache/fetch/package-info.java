/**
 * Cache fills in flight: one origin request per cache key shared by every client that asks
 * meanwhile, storing the response while each client follows the write at its own pace, and the
 * Vary layout (variant markers and variant keys).
 */
package org.edgelab.cache.fetch;
