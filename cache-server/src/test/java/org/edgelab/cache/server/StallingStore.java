package org.edgelab.cache.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoredObject;

/**
 * A {@link ForwardingStore} that, once {@link #stallWrites} is called, holds every
 * {@link ObjectWriter#write} until {@link #resumeWrites}: a device that throttles buffered writes.
 * Counts the stored objects and writers it hands out that are still open, and signals each commit.
 * Thread-safe.
 */
final class StallingStore extends ForwardingStore {

    private volatile CountDownLatch gate;
    private volatile CountDownLatch held;
    private final AtomicInteger heldNow = new AtomicInteger();
    private final AtomicInteger openObjects = new AtomicInteger();
    private final AtomicInteger openWriters = new AtomicInteger();
    private final Semaphore commits = new Semaphore(0);

    StallingStore(ObjectStore delegate) {
        super("stalling", delegate);
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
    public Optional<StoredObject> lookup(CacheKey key) throws IOException {
        return super.lookup(key).map(Counted::new);
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        ObjectWriter w = super.begin(key, metadata);
        openWriters.incrementAndGet();
        AtomicBoolean ended = new AtomicBoolean();
        Runnable end = () -> {
            if (ended.compareAndSet(false, true)) {
                openWriters.decrementAndGet();
            }
        };
        return new ForwardingWriter(w) {
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
                super.write(chunk);
            }

            @Override
            public StoredObject follow() {
                return new Counted(super.follow());
            }

            @Override
            public void commit(ObjectMetadata finalMetadata) throws IOException {
                super.commit(finalMetadata);
                end.run();
                commits.release();
            }

            @Override
            public void commit() throws IOException {
                super.commit();
                end.run();
                commits.release();
            }

            @Override
            public void abort() {
                super.abort();
                end.run();
            }

            @Override
            public void close() {
                super.close();
                end.run();
            }
        };
    }

    /** A stored object counted in {@link #openObjects()} from its opening to its first close; thread-safe as the one it wraps. */
    private final class Counted extends ForwardingObject {

        private final AtomicBoolean closed = new AtomicBoolean();

        Counted(StoredObject o) {
            super(o);
            openObjects.incrementAndGet();
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                openObjects.decrementAndGet();
            }
            super.close();
        }
    }
}
