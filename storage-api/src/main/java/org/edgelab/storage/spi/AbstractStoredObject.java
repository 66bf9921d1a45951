package org.edgelab.storage.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;

/**
 * The part of a {@link StoredObject} every engine shares: key, metadata and length from a
 * {@link WriteProgress}, the checks on every call (closed reference, negative position, end of a
 * complete object, a write aborted before the position) and an idempotent {@link #close()}. An
 * engine supplies only how to copy, lend or slice bytes that are known to be readable, and what
 * to release.
 *
 * <p>Thread-safe as far as this class goes; subclasses state their own guarantees. No method here
 * blocks; the engine hooks say whether they do.
 */
public abstract class AbstractStoredObject implements StoredObject {

    private final WriteProgress progress;
    private final ObjectMetadata metadata;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * A reference whose length and state come from {@code progress}: a committed progress for a
     * committed object, the writer's own for a follower.
     */
    protected AbstractStoredObject(WriteProgress progress, ObjectMetadata metadata) {
        this.progress = Objects.requireNonNull(progress, "progress");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public final CacheKey key() {
        return progress.key();
    }

    @Override
    public final ObjectMetadata metadata() {
        return metadata;
    }

    @Override
    public final long availableLength() {
        return progress.readable();
    }

    @Override
    public final boolean isComplete() {
        return progress.isCommitted();
    }

    @Override
    public final CompletableFuture<Long> awaitLength(long minLength) {
        requireOpen();
        return progress.await(minLength);
    }

    @Override
    public final int read(long position, ByteBuffer dst) throws IOException {
        requireOpen();
        if (position < 0) {
            throw new IllegalArgumentException("position must be >= 0, got " + position);
        }
        WriteProgress.State state = progress.state(); // before the length: a committed length is final
        long available = progress.readable();
        if (position >= available) {
            return switch (state) {
                case COMMITTED -> -1;
                case ABORTED -> throw new WriteAbortedException(key());
                case WRITING -> 0;
            };
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        int length = (int) Math.min(dst.remaining(), available - position);
        return readAvailable(position, dst, length);
    }

    @Override
    public final Optional<ByteBuffer> view(long position, int maxLength) {
        if (closed.get() || position < 0 || maxLength <= 0) {
            return Optional.empty();
        }
        long available = progress.readable();
        if (position >= available) {
            return Optional.empty();
        }
        return viewAvailable(position, (int) Math.min(maxLength, available - position));
    }

    @Override
    public final Optional<FileSlice> fileSlice(long position, long maxLength) {
        if (closed.get() || position < 0 || maxLength <= 0) {
            return Optional.empty();
        }
        long available = progress.readable();
        if (position >= available) {
            return Optional.empty();
        }
        return fileSliceAvailable(position, Math.min(maxLength, available - position));
    }

    @Override
    public final void close() {
        if (closed.compareAndSet(false, true)) {
            release();
        }
    }

    /**
     * Copies the {@code length} bytes at {@code position}, all of them published, into {@code dst}
     * at its position, advancing it; returns the bytes copied (normally {@code length}).
     *
     * @throws org.edgelab.storage.api.CorruptObjectException if the stored bytes fail verification
     */
    protected abstract int readAvailable(long position, ByteBuffer dst, int length) throws IOException;

    /**
     * Lends at most {@code length} published bytes at {@code position} (never empty when present)
     * as a read-only view of engine memory; empty by default, for engines that cannot lend memory.
     */
    protected Optional<ByteBuffer> viewAvailable(long position, int length) {
        return Optional.empty();
    }

    /**
     * Returns at most {@code length} published bytes at {@code position} as a slice of an open
     * file; empty by default, for engines that cannot offer one.
     */
    protected Optional<FileSlice> fileSliceAvailable(long position, long length) {
        return Optional.empty();
    }

    /** Releases what this reference holds (pins, descriptors); called once, by the first {@link #close()}. */
    protected abstract void release();

    /** Returns the progress this reference reads against. */
    protected final WriteProgress progress() {
        return progress;
    }

    /** Returns whether {@link #close()} was called. */
    protected final boolean isClosed() {
        return closed.get();
    }

    /** Fails with IllegalStateException once this reference is closed. */
    protected final void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the reference to '" + key() + "' is closed");
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + key() + ", " + availableLength() + " bytes"
                + (progress.isCommitted() ? "" : ", " + progress.state().name().toLowerCase(java.util.Locale.ROOT)) + "]";
    }
}
