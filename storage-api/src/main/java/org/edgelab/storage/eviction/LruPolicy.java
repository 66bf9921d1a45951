package org.edgelab.storage.eviction;

/**
 * Least recently used: evicts the key whose last insert or access is oldest.
 * Not thread-safe (see {@link EvictionPolicy}).
 */
public final class LruPolicy<K> extends QueuePolicy<K> {

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

    @Override
    public void onAccess(K key) {
        moveToTail(key);
    }
}
