package org.edgelab.storage.eviction;

import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * Least recently used: evicts the key whose last insert or access is oldest.
 * Not thread-safe (see {@link EvictionPolicy}).
 */
public final class LruPolicy<K> implements EvictionPolicy<K> {

    /** The plugin that creates {@link LruPolicy} under the name {@code lru}. */
    public static final class Factory implements EvictionPolicyFactory {
        @Override
        public String name() {
            return "lru";
        }

        @Override
        public String description() {
            return "least recently used";
        }

        @Override
        public <K> EvictionPolicy<K> create(long capacityBytes) {
            return new LruPolicy<>();
        }
    }

    private final LinkedHashMap<K, Boolean> order = new LinkedHashMap<>(16, 0.75f, true);

    @Override
    public void onInsert(K key, long sizeBytes) {
        order.put(key, Boolean.TRUE);
    }

    @Override
    public void onAccess(K key) {
        order.get(key);
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
