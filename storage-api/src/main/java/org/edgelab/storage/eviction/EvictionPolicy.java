package org.edgelab.storage.eviction;

/**
 * Decides which object an engine evicts next. The engine reports what it stores, reads and
 * removes; {@link #evict()} names the next victim and forgets it.
 *
 * <p>Not thread-safe: an engine calls a policy under its own lock.
 *
 * @param <K> the engine's key type (a cache key, a segment id, an index slot)
 */
public interface EvictionPolicy<K> {

    /** Records that {@code key} was stored with {@code sizeBytes}; a key already tracked is updated. */
    void onInsert(K key, long sizeBytes);

    /** Records a read of {@code key}; unknown keys are ignored. */
    void onAccess(K key);

    /** Forgets {@code key} (removed by the engine, not chosen by {@link #evict()}); unknown keys are ignored. */
    void onRemove(K key);

    /** Chooses the next victim, forgets it and returns it, or returns null when nothing is tracked. */
    K evict();

    /** Returns the number of keys tracked. */
    int size();
}
