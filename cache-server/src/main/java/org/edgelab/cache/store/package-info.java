/**
 * Storage calls off the event loops: a bounded I/O executor per store ({@link
 * org.edgelab.cache.store.StoreExecutor}, like nginx's {@code thread_pool} or Traffic Server's AIO
 * threads) and the store as the event loops see it ({@link org.edgelab.cache.store.LoopStore}):
 * a call the engine declares blocking runs on the executor and continues on the caller's loop,
 * every other call runs inline.
 */
package org.edgelab.cache.store;
