package org.edgelab.cache.server;

import java.util.Optional;
import java.util.Set;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoreUsage;
import org.edgelab.storage.api.StoredObject;

/** A store that only declares which calls block, for tests of code that reads {@link ArrayStoredObject}s. Immutable. */
final class DeclaredStore implements ObjectStore {

    private final Set<StoreCall> blocking;

    DeclaredStore(Set<StoreCall> blocking) {
        this.blocking = Set.copyOf(blocking);
    }

    @Override
    public String engineName() {
        return "declared";
    }

    @Override
    public Set<StoreCall> blockingCalls() {
        return blocking;
    }

    @Override
    public Optional<StoredObject> lookup(CacheKey key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean remove(CacheKey key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean updateMetadata(CacheKey key, ObjectMetadata metadata) {
        throw new UnsupportedOperationException();
    }

    @Override
    public StoreUsage usage() {
        throw new UnsupportedOperationException();
    }

    @Override
    public StoreStats stats() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
    }
}
