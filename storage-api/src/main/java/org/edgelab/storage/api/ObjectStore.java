package org.edgelab.storage.api;

import java.io.IOException;
import java.util.Optional;

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
 */
public interface ObjectStore extends AutoCloseable {

    /** Returns the engine name this store was opened with, as found in {@link StorageEngines}. */
    String engineName();

    /** Returns the committed object stored under the key, opened for reading, or empty. */
    Optional<StoredObject> lookup(CacheKey key) throws IOException;

    /**
     * Starts writing an object. The object is invisible until {@link ObjectWriter#commit()}.
     * {@code metadata.length()} may be {@link ObjectMetadata#UNKNOWN_LENGTH}; when known the
     * engine may reserve space up front and fail fast with {@link StorageFullException}.
     */
    ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException;

    /** Removes the object stored under the key; returns whether there was one. Open readers keep reading. */
    boolean remove(CacheKey key) throws IOException;

    /**
     * Replaces the metadata of a committed object whose length stays the same (after a
     * revalidation); returns false when no object is stored under the key.
     */
    boolean updateMetadata(CacheKey key, ObjectMetadata metadata) throws IOException;

    /** Returns capacity and current usage. */
    StoreUsage usage();

    /** Returns counters since the store was opened. */
    StoreStats stats();

    /** Flushes what must be flushed and releases every resource; later calls fail with IllegalStateException. */
    @Override
    void close() throws IOException;
}
