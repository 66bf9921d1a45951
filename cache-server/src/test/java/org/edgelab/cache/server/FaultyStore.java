package org.edgelab.cache.server;

import java.io.IOException;
import java.nio.ByteBuffer;
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

/**
 * A store in front of another that declares every call blocking (so the server makes them all on
 * its executor) and fails the calls it is told to with an IOException, the way a failing disk does.
 * The switches are volatile fields; thread-safe as its delegate is.
 */
final class FaultyStore implements ObjectStore {

    private final ObjectStore delegate;
    volatile boolean failLookup;
    volatile boolean failBegin;
    /** Writes fail once an object has this many bytes (-1: never). */
    volatile long failWriteAt = -1;
    /** When set, the injected write failure waits for it to open first (so a test can gather followers). */
    volatile java.util.concurrent.CountDownLatch writeFailureGate;
    volatile boolean failCommit;
    /**
     * When set, a commit takes {@code commitEdgeMillis} before and again after its delegate's commit,
     * and a follow of a write with bytes in it (not the initiator's, made before the first byte)
     * waits for the delegate's commit before it is made (so it fails as "already committed" while
     * the fill has not heard its commit return yet).
     */
    volatile long commitEdgeMillis;
    /**
     * Followers of a write report it aborted once they read up to this offset (-1: never), while
     * the write goes on and commits: the way an engine that loses track of a healthy write fails.
     */
    volatile long followerAbortsAt = -1;
    /** When set, followers of a write count their closes in {@link #followersClosed}. */
    volatile boolean countFollowerCloses;
    final java.util.concurrent.atomic.AtomicInteger followersClosed = new java.util.concurrent.atomic.AtomicInteger();

    FaultyStore(ObjectStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public String engineName() {
        return "faulty-" + delegate.engineName();
    }

    @Override
    public Set<StoreCall> blockingCalls() {
        return StoreCall.all();
    }

    @Override
    public Optional<StoredObject> lookup(CacheKey key) throws IOException {
        if (failLookup) {
            throw new IOException("injected lookup failure");
        }
        return delegate.lookup(key);
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        if (failBegin) {
            throw new IOException("injected begin failure");
        }
        ObjectWriter w = delegate.begin(key, metadata);
        java.util.concurrent.CountDownLatch delegateCommitted = new java.util.concurrent.CountDownLatch(1);
        return new ObjectWriter() {
            @Override
            public CacheKey key() {
                return w.key();
            }

            @Override
            public void write(ByteBuffer chunk) throws IOException {
                long at = failWriteAt;
                if (at >= 0 && w.written() + chunk.remaining() > at) {
                    awaitGate();
                    w.abort();
                    throw new IOException("injected write failure at " + w.written());
                }
                w.write(chunk);
            }

            @Override
            public long written() {
                return w.written();
            }

            @Override
            public StoredObject follow() {
                if (commitEdgeMillis > 0 && w.written() > 0) {
                    try {
                        delegateCommitted.await(10, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                StoredObject f = w.follow();
                long abortAt = followerAbortsAt;
                if (abortAt < 0 && !countFollowerCloses) {
                    return f;
                }
                return new WatchedFollower(f, abortAt < 0 ? Long.MAX_VALUE : abortAt, followersClosed);
            }

            @Override
            public void commit(ObjectMetadata finalMetadata) throws IOException {
                if (failCommit) {
                    w.abort();
                    throw new IOException("injected commit failure");
                }
                long edge = commitEdgeMillis;
                sleep(edge);
                w.commit(finalMetadata);
                delegateCommitted.countDown();
                sleep(edge);
            }

            @Override
            public void commit() throws IOException {
                commit(metadata.withLength(w.written()));
            }

            @Override
            public void abort() {
                w.abort();
            }

            @Override
            public void close() {
                w.close();
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

    /** A follower that counts its close and whose reads end at {@code abortAt} with "aborted" (MAX_VALUE: never). */
    private record WatchedFollower(StoredObject delegate, long abortAt,
                                   java.util.concurrent.atomic.AtomicInteger closes) implements StoredObject {
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
            return Math.min(abortAt, delegate.availableLength());
        }

        @Override
        public boolean isComplete() {
            return abortAt == Long.MAX_VALUE && delegate.isComplete();
        }

        @Override
        public java.util.concurrent.CompletableFuture<Long> awaitLength(long minLength) {
            if (minLength > abortAt) {
                return java.util.concurrent.CompletableFuture.failedFuture(
                        new org.edgelab.storage.api.WriteAbortedException(delegate.key()));
            }
            return delegate.awaitLength(minLength).thenApply(n -> Math.min(n, abortAt));
        }

        @Override
        public int read(long position, ByteBuffer dst) throws IOException {
            if (position >= abortAt) {
                throw new org.edgelab.storage.api.WriteAbortedException(delegate.key());
            }
            ByteBuffer limited = dst.slice(dst.position(), (int) Math.min(dst.remaining(), abortAt - position));
            int n = delegate.read(position, limited);
            if (n > 0) {
                dst.position(dst.position() + n);
            }
            return n;
        }

        @Override
        public void close() {
            delegate.close();
            closes.incrementAndGet();
        }
    }

    private void awaitGate() throws IOException {
        java.util.concurrent.CountDownLatch gate = writeFailureGate;
        try {
            if (gate != null && !gate.await(30, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IOException("the write failure's gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted at the write failure's gate", e);
        }
    }

    private static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
