/**
 * Storage calls off the event loops: two bounded I/O executors per store ({@link
 * org.edgelab.cache.store.StoreExecutor}, like nginx's {@code thread_pool} or Traffic Server's AIO
 * threads), one per {@link org.edgelab.cache.store.StoreLane} (reads, writes), and the store as the
 * event loops see it ({@link org.edgelab.cache.store.LoopStore}): a call the engine declares
 * blocking runs on its lane's executor and continues on the caller's loop, every other call runs
 * inline.
 */
package org.edgelab.cache.store;
