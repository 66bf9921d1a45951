package org.edgelab.storage.eviction;

import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * A single queue of keys evicted from its head; what differs between FIFO and LRU is only
 * whether a read moves a key to the tail ({@link #onAccess}). Not thread-safe (see {@link EvictionPolicy}).
 */
abstract class QueuePolicy<K> implements EvictionPolicy<K> {

    /** Keys from the next victim (head) to the most recently queued (tail). */
    final LinkedHashMap<K, Boolean> order = new LinkedHashMap<>();

    /** Moves {@code key} to the tail if it is tracked. */
    final void moveToTail(K key) {
        if (order.remove(key) != null) {
            order.put(key, Boolean.TRUE);
        }
    }

    @Override
    public final void onInsert(K key, long sizeBytes) {
        order.remove(key);
        order.put(key, Boolean.TRUE);
    }

    @Override
    public final void onRemove(K key) {
        order.remove(key);
    }

    @Override
    public final K evict() {
        Iterator<K> it = order.keySet().iterator();
        if (!it.hasNext()) {
            return null;
        }
        K victim = it.next();
        it.remove();
        return victim;
    }

    @Override
    public final int size() {
        return order.size();
    }
}
