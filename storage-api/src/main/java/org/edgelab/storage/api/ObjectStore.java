package org.edgelab.storage.api;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;

/**
 * A storage engine instance: a bounded store of immutable objects addressed by {@link CacheKey}.
 *
 * <p>Contract, checked for every engine by the contract suite shipped in this module's test-jar:
 * <ul>
 *   <li>An object is written in chunks through an {@link ObjectWriter} and becomes visible to
 *       {@link #lookup} only when the writer commits; an aborted or abandoned write leaves nothing.
 *       A commit replaces any earlier object under the same key.</li>
 *   <li>A committed object reads back byte-exact at any offset and length until it is removed
 *       or evicted. Readers hold a {@link StoredObject}; an engine never recycles the bytes of
 *       an object while a reader has it open, even after removal or eviction.</li>
 *   <li>{@link #usage()} never reports more bytes used than the capacity: a write that cannot
 *       make room fails with {@link StorageFullException} and leaves the store as it was.</li>
 *   <li>Readers of an object still being written ({@link ObjectWriter#follow()}) see bytes as
 *       they are written and never see torn data; after an abort they still read what was written.</li>
 *   <li>A write the store refuses or fails mid-object ({@link StorageFullException} when there is
 *       no room, including a full file system) is aborted and changes nothing else but what was
 *       evicted to make room: stored objects stay readable and a full file system does not take a
 *       disk out.</li>
 * </ul>
 * Implementations are thread-safe: any method may be called from any thread.
 *
 * <p>Blocking: each method says whether it may block on I/O or on another thread, in the terms of
 * {@link StoreCall}; an engine declares in {@link #blockingCalls()} which of the calls that may
 * block do so in it, and every call it does not declare returns without waiting (the contract
 * suite runs them on a thread where BlockHound fails any blocking call).
 */
public interface ObjectStore extends AutoCloseable {

    /** Returns the engine name this store was opened with, as found in {@link StorageEngines}. Never blocks. */
    String engineName();

    /**
     * Returns the calls of this store, of its writers and of its stored objects that may block on
     * I/O or on another thread; every other call returns without waiting. Constant for the store's
     * life. An engine that cannot say returns {@link StoreCall#all()}; the memory engine, none.
     * Never blocks.
     */
    Set<StoreCall> blockingCalls();

    /** Returns the committed object stored under the key, opened for reading, or empty. May block: {@link StoreCall#LOOKUP}. */
    Optional<StoredObject> lookup(CacheKey key) throws IOException;

    /**
     * Starts writing an object. The object is invisible until {@link ObjectWriter#commit()}.
     * {@code metadata.length()} may be {@link ObjectMetadata#UNKNOWN_LENGTH}; when known the
     * engine may reserve space up front and fail fast with {@link StorageFullException}.
     * May block: {@link StoreCall#BEGIN}.
     */
    ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException;

    /** Removes the object stored under the key; returns whether there was one. Open readers keep reading. May block: {@link StoreCall#REMOVE}. */
    boolean remove(CacheKey key) throws IOException;

    /**
     * Replaces the metadata of a committed object whose length stays the same (after a
     * revalidation); returns false when no object is stored under the key. May block:
     * {@link StoreCall#UPDATE_METADATA}.
     */
    boolean updateMetadata(CacheKey key, ObjectMetadata metadata) throws IOException;

    /** Returns capacity and current usage. May block: {@link StoreCall#USAGE}. */
    StoreUsage usage();

    /** Returns counters since the store was opened. May block: {@link StoreCall#USAGE}. */
    StoreStats stats();

    /** Flushes what must be flushed and releases every resource; later calls fail with IllegalStateException. May always block. */
    @Override
    void close() throws IOException;
}
