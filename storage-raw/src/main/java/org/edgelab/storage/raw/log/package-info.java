/**
 * The {@code raw-log} engine: objects appended into large preallocated segment files on one or
 * more disks, found through a compact in-memory hash index, evicted a whole segment at a time
 * (FIFO, optionally re-appending hot objects), persisted through an index checkpoint plus a scan
 * of the log written after it. Modelled on Varnish MSE, Traffic Server's cache and CacheLib's
 * BlockCache. {@link org.edgelab.storage.raw.log.RawLogEngine} is the entry point.
 */
package org.edgelab.storage.raw.log;
