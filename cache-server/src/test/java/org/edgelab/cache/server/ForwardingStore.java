package org.edgelab.cache.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoreUsage;
import org.edgelab.storage.api.StoredObject;

/**
 * A store in front of another that declares every call blocking (so the server makes them all on
 * its store threads) and passes every call on to it: the base of the test doubles that add
 * behaviour, which override only the calls they change (and wrap writers and stored objects in
 * {@link ForwardingWriter} and {@link ForwardingObject} to do the same). Thread-safe as its delegate is.
 */
abstract class ForwardingStore implements ObjectStore {

    private final String name;
    private final ObjectStore delegate;

    /** A store named {@code name-<delegate's engine name>} in front of {@code delegate}. */
    ForwardingStore(String name, ObjectStore delegate) {
        this.name = name;
        this.delegate = delegate;
    }

    @Override
    public String engineName() {
        return name + "-" + delegate.engineName();
    }

    @Override
    public Set<StoreCall> blockingCalls() {
        return StoreCall.all();
    }

    @Override
    public Optional<StoredObject> lookup(CacheKey key) throws IOException {
        return delegate.lookup(key);
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        return delegate.begin(key, metadata);
    }

    @Override
    public boolean remove(CacheKey key) throws IOException {
        return delegate.remove(key);
    }

    @Override
    public boolean updateMetadata(CacheKey key, ObjectMetadata metadata) throws IOException {
        return delegate.updateMetadata(key, metadata);
    }

    @Override
    public StoreUsage usage() {
        return delegate.usage();
    }

    @Override
    public StoreStats stats() {
        return delegate.stats();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }

    /** A writer that passes every call on to another; thread-safe as that one is. */
    static class ForwardingWriter implements ObjectWriter {

        private final ObjectWriter delegate;

        ForwardingWriter(ObjectWriter delegate) {
            this.delegate = delegate;
        }

        @Override
        public CacheKey key() {
            return delegate.key();
        }

        @Override
        public void write(ByteBuffer chunk) throws IOException {
            delegate.write(chunk);
        }

        @Override
        public long written() {
            return delegate.written();
        }

        @Override
        public StoredObject follow() {
            return delegate.follow();
        }

        @Override
        public void commit(ObjectMetadata finalMetadata) throws IOException {
            delegate.commit(finalMetadata);
        }

        @Override
        public void commit() throws IOException {
            delegate.commit();
        }

        @Override
        public void abort() {
            delegate.abort();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    /** A stored object that passes every call on to another, views and file slices too; thread-safe as that one is. */
    static class ForwardingObject implements StoredObject {

        private final StoredObject delegate;

        ForwardingObject(StoredObject delegate) {
            this.delegate = delegate;
        }

        @Override
        public CacheKey key() {
            return delegate.key();
        }

        @Override
        public ObjectMetadata metadata() {
            return delegate.metadata();
        }

        @Override
        public long availableLength() {
            return delegate.availableLength();
        }

        @Override
        public boolean isComplete() {
            return delegate.isComplete();
        }

        @Override
        public CompletableFuture<Long> awaitLength(long minLength) {
            return delegate.awaitLength(minLength);
        }

        @Override
        public int read(long position, ByteBuffer dst) throws IOException {
            return delegate.read(position, dst);
        }

        @Override
        public Optional<ByteBuffer> view(long position, int maxLength) {
            return delegate.view(position, maxLength);
        }

        @Override
        public Optional<FileSlice> fileSlice(long position, long maxLength) {
            return delegate.fileSlice(position, maxLength);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
