package org.edgelab.cache.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;

/**
 * A {@link ForwardingStore} that fails the calls it is told to with an IOException, the way a
 * failing disk does, and can slow commits and cut or watch followers. The switches are volatile
 * fields; thread-safe as its delegate is.
 */
final class FaultyStore extends ForwardingStore {

    volatile boolean failLookup;
    volatile boolean failBegin;
    /** Writes fail once an object has this many bytes (-1: never). */
    volatile long failWriteAt = -1;
    /** When set, the injected write failure waits for it to open first (so a test can gather followers). */
    volatile CountDownLatch writeFailureGate;
    volatile boolean failCommit;
    /** When set, each object's first write waits for it to open first (so that the fill's later pieces queue up). */
    volatile CountDownLatch firstWriteGate;
    /** Writes made to writers, counted (each {@code write} call of a fill, however the server batches them). */
    final AtomicInteger writes = new AtomicInteger();
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
    final AtomicInteger followersClosed = new AtomicInteger();

    FaultyStore(ObjectStore delegate) {
        super("faulty", delegate);
    }

    @Override
    public Optional<StoredObject> lookup(CacheKey key) throws IOException {
        if (failLookup) {
            throw new IOException("injected lookup failure");
        }
        return super.lookup(key);
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        if (failBegin) {
            throw new IOException("injected begin failure");
        }
        CountDownLatch delegateCommitted = new CountDownLatch(1);
        return new ForwardingWriter(super.begin(key, metadata)) {
            @Override
            public void write(ByteBuffer chunk) throws IOException {
                writes.incrementAndGet();
                if (written() == 0) {
                    await(firstWriteGate, "the first write's gate");
                }
                long at = failWriteAt;
                if (at >= 0 && written() + chunk.remaining() > at) {
                    awaitGate();
                    abort();
                    throw new IOException("injected write failure at " + written());
                }
                super.write(chunk);
            }

            @Override
            public StoredObject follow() {
                if (commitEdgeMillis > 0 && written() > 0) {
                    try {
                        delegateCommitted.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                StoredObject f = super.follow();
                long abortAt = followerAbortsAt;
                if (abortAt < 0 && !countFollowerCloses) {
                    return f;
                }
                return new WatchedFollower(f, abortAt < 0 ? Long.MAX_VALUE : abortAt);
            }

            @Override
            public void commit(ObjectMetadata finalMetadata) throws IOException {
                if (failCommit) {
                    abort();
                    throw new IOException("injected commit failure");
                }
                long edge = commitEdgeMillis;
                sleep(edge);
                super.commit(finalMetadata);
                delegateCommitted.countDown();
                sleep(edge);
            }

            @Override
            public void commit() throws IOException {
                commit(metadata.withLength(written()));
            }
        };
    }

    /**
     * A follower that counts its close in {@link #followersClosed} and whose reads end at
     * {@code abortAt} with "aborted" (MAX_VALUE: never); it lends no views or file slices, so every
     * read meets the cut. Thread-safe as the follower it wraps.
     */
    private final class WatchedFollower extends ForwardingObject {

        private final long abortAt;

        WatchedFollower(StoredObject follower, long abortAt) {
            super(follower);
            this.abortAt = abortAt;
        }

        @Override
        public long availableLength() {
            return Math.min(abortAt, super.availableLength());
        }

        @Override
        public boolean isComplete() {
            return abortAt == Long.MAX_VALUE && super.isComplete();
        }

        @Override
        public CompletableFuture<Long> awaitLength(long minLength) {
            if (minLength > abortAt) {
                return CompletableFuture.failedFuture(new WriteAbortedException(key()));
            }
            return super.awaitLength(minLength).thenApply(n -> Math.min(n, abortAt));
        }

        @Override
        public int read(long position, ByteBuffer dst) throws IOException {
            if (position >= abortAt) {
                throw new WriteAbortedException(key());
            }
            ByteBuffer limited = dst.slice(dst.position(), (int) Math.min(dst.remaining(), abortAt - position));
            int n = super.read(position, limited);
            if (n > 0) {
                dst.position(dst.position() + n);
            }
            return n;
        }

        @Override
        public Optional<ByteBuffer> view(long position, int maxLength) {
            return Optional.empty();
        }

        @Override
        public Optional<FileSlice> fileSlice(long position, long maxLength) {
            return Optional.empty();
        }

        @Override
        public void close() {
            super.close();
            followersClosed.incrementAndGet();
        }
    }

    private void awaitGate() throws IOException {
        await(writeFailureGate, "the write failure's gate");
    }

    private static void await(CountDownLatch gate, String what) throws IOException {
        try {
            if (gate != null && !gate.await(30, TimeUnit.SECONDS)) {
                throw new IOException(what + " never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted at " + what, e);
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
