package org.edgelab.storage.eviction;

/**
 * First in, first out: evicts the key inserted longest ago; reads do not matter. Inserting a
 * tracked key again (a new version) moves it to the back. Not thread-safe (see {@link EvictionPolicy}).
 */
public final class FifoPolicy<K> extends QueuePolicy<K> {

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

    @Override
    public void onAccess(K key) {
        // FIFO ignores reads
    }
}
