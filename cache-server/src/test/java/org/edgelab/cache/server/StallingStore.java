package org.edgelab.cache.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
 * its lanes) and, once {@link #stallWrites} is called, holds every {@link ObjectWriter#write} until
 * {@link #resumeWrites}: a device that throttles buffered writes. Counts the stored objects and
 * writers it hands out that are still open, and signals each commit. Thread-safe.
 */
final class StallingStore implements ObjectStore {

    private final ObjectStore delegate;
    private volatile CountDownLatch gate;
    private volatile CountDownLatch held;
    private final AtomicInteger heldNow = new AtomicInteger();
    private final AtomicInteger openObjects = new AtomicInteger();
    private final AtomicInteger openWriters = new AtomicInteger();
    private final Semaphore commits = new Semaphore(0);

    StallingStore(ObjectStore delegate) {
        this.delegate = delegate;
    }

    /** From now on every write waits for {@link #resumeWrites}; {@link #awaitHeld} waits for {@code writes} of them. */
    void stallWrites(int writes) {
        held = new CountDownLatch(writes);
        gate = new CountDownLatch(1);
    }

    /** Waits until the number of writes given to {@link #stallWrites} are held at once or have been; false on timeout. */
    boolean awaitHeld(long timeout, TimeUnit unit) throws InterruptedException {
        return held.await(timeout, unit);
    }

    /** Returns the writes waiting for {@link #resumeWrites} now. */
    int heldNow() {
        return heldNow.get();
    }

    /** Lets every held write, and every later one, go on. */
    void resumeWrites() {
        CountDownLatch g = gate;
        gate = null;
        if (g != null) {
            g.countDown();
        }
    }

    /** Waits for {@code n} more commits to have returned; false on timeout. */
    boolean awaitCommits(int n, long timeout, TimeUnit unit) throws InterruptedException {
        return commits.tryAcquire(n, timeout, unit);
    }

    /** Returns the stored objects (lookups' and followers') handed out and not closed yet. */
    int openObjects() {
        return openObjects.get();
    }

    /** Returns the writers begun and neither committed, aborted nor closed yet. */
    int openWriters() {
        return openWriters.get();
    }

    @Override
    public String engineName() {
        return "stalling-" + delegate.engineName();
    }

    @Override
    public Set<StoreCall> blockingCalls() {
        return StoreCall.all();
    }

    @Override
    public Optional<StoredObject> lookup(CacheKey key) throws IOException {
        return delegate.lookup(key).map(this::counted);
    }

    private StoredObject counted(StoredObject o) {
        openObjects.incrementAndGet();
        return new Counted(o, new AtomicBoolean(), openObjects);
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        ObjectWriter w = delegate.begin(key, metadata);
        openWriters.incrementAndGet();
        AtomicBoolean ended = new AtomicBoolean();
        Runnable end = () -> {
            if (ended.compareAndSet(false, true)) {
                openWriters.decrementAndGet();
            }
        };
        return new ObjectWriter() {
            @Override
            public CacheKey key() {
                return w.key();
            }

            @Override
            public void write(ByteBuffer chunk) throws IOException {
                CountDownLatch g = gate;
                if (g != null) {
                    heldNow.incrementAndGet();
                    held.countDown();
                    try {
                        if (!g.await(60, TimeUnit.SECONDS)) {
                            throw new IOException("the stalled write was never resumed");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted while stalled", e);
                    } finally {
                        heldNow.decrementAndGet();
                    }
                }
                w.write(chunk);
            }

            @Override
            public long written() {
                return w.written();
            }

            @Override
            public StoredObject follow() {
                return counted(w.follow());
            }

            @Override
            public void commit(ObjectMetadata finalMetadata) throws IOException {
                w.commit(finalMetadata);
                end.run();
                commits.release();
            }

            @Override
            public void commit() throws IOException {
                w.commit();
                end.run();
                commits.release();
            }

            @Override
            public void abort() {
                w.abort();
                end.run();
            }

            @Override
            public void close() {
                w.close();
                end.run();
            }
        };
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

    /** A stored object that counts itself out of {@code open} on its first close. */
    private record Counted(StoredObject delegate, AtomicBoolean closed, AtomicInteger open) implements StoredObject {
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
            if (closed.compareAndSet(false, true)) {
                open.decrementAndGet();
            }
            delegate.close();
        }
    }
}
