package org.edgelab.storage.eviction;

import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * First in, first out: evicts the key inserted longest ago; reads do not matter. Inserting a
 * tracked key again (a new version) moves it to the back. Not thread-safe (see {@link EvictionPolicy}).
 */
public final class FifoPolicy<K> implements EvictionPolicy<K> {

    /** The plugin that creates {@link FifoPolicy} under the name {@code fifo}. */
    public static final class Factory implements EvictionPolicyFactory {
        @Override
        public String name() {
            return "fifo";
        }

        @Override
        public String description() {
            return "first in, first out; reads do not matter";
        }

        @Override
        public <K> EvictionPolicy<K> create(long capacityBytes) {
            return new FifoPolicy<>();
        }
    }

    private final LinkedHashMap<K, Boolean> order = new LinkedHashMap<>();

    @Override
    public void onInsert(K key, long sizeBytes) {
        order.remove(key);
        order.put(key, Boolean.TRUE);
    }

    @Override
    public void onAccess(K key) {
        // FIFO ignores reads
    }

    @Override
    public void onRemove(K key) {
        order.remove(key);
    }

    @Override
    public K evict() {
        Iterator<K> it = order.keySet().iterator();
        if (!it.hasNext()) {
            return null;
        }
        K victim = it.next();
        it.remove();
        return victim;
    }

    @Override
    public int size() {
        return order.size();
    }
}
