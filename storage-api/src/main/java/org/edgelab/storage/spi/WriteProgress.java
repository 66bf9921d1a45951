package org.edgelab.storage.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;

/**
 * How far one write has got, shared by its writer and the readers that follow it: how many bytes
 * are readable and whether the write is going on, committed or aborted. The writer publishes a
 * length only once every byte below it can be read in full, so a follower never sees torn data,
 * and a length once published stays readable (also after an abort, while the follower is open).
 * Implements {@link StoredObject#awaitLength}'s promise for every engine.
 *
 * <p>Thread-safe and non-blocking: any thread may publish, read and wait. Publishing costs two
 * volatile accesses while nobody waits; waiters are completed on the publishing thread, outside
 * every lock, so their callbacks may call back into the engine.
 */
public final class WriteProgress {

    /** Where a write stands. */
    public enum State {
        /** Bytes may still be published. */
        WRITING,
        /** The object is complete: its readable length is final. */
        COMMITTED,
        /** The write ended without a commit: what was published stays readable, nothing more comes. */
        ABORTED
    }

    private static final VarHandle READABLE;

    static {
        try {
            READABLE = MethodHandles.lookup().findVarHandle(WriteProgress.class, "readable", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private record Waiter(long minLength, CompletableFuture<Long> future) {
    }

    private final CacheKey key;
    @SuppressWarnings("unused") // accessed through READABLE
    private volatile long readable;
    private volatile State state;
    /** Guarded by this object's monitor. */
    private final List<Waiter> waiters = new ArrayList<>(0);
    /** Set under the monitor when a waiter is added; lets {@link #advance} skip the monitor when nobody waits. */
    private volatile boolean hasWaiters;

    private WriteProgress(CacheKey key, long readable, State state) {
        this.key = Objects.requireNonNull(key, "key");
        this.readable = readable;
        this.state = state;
    }

    /** Returns the progress of a write that has just begun: nothing readable yet. */
    public static WriteProgress writing(CacheKey key) {
        return new WriteProgress(key, 0, State.WRITING);
    }

    /** Returns the progress of an object committed at {@code length} bytes (for readers of committed objects). */
    public static WriteProgress committed(CacheKey key, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, got " + length);
        }
        return new WriteProgress(key, length, State.COMMITTED);
    }

    /** Returns the key being written. */
    public CacheKey key() {
        return key;
    }

    /** Returns how many bytes are readable: the final length once committed. */
    public long readable() {
        return (long) READABLE.getVolatile(this);
    }

    /** Returns where the write stands. */
    public State state() {
        return state;
    }

    /** Returns whether the object is committed (its readable length is final). */
    public boolean isCommitted() {
        return state == State.COMMITTED;
    }

    /** Returns whether the write was aborted. */
    public boolean isAborted() {
        return state == State.ABORTED;
    }

    /**
     * Publishes that the first {@code length} bytes are readable and wakes the readers waiting for
     * them. Lengths only grow: a smaller one is ignored, and so is any length after the write ended.
     */
    public void advance(long length) {
        if (state != State.WRITING) {
            return;
        }
        long current;
        do {
            current = (long) READABLE.getVolatile(this);
            if (length <= current) {
                return;
            }
        } while (!READABLE.compareAndSet(this, current, length));
        if (hasWaiters) {
            settle();
        }
    }

    /**
     * Records that the object is complete at {@code length} bytes (at least what was published)
     * and wakes every waiter with the final length.
     *
     * @throws IllegalStateException if the write was already committed or aborted
     */
    public void commit(long length) {
        synchronized (this) {
            requireWriting();
            if (length < readable()) {
                throw new IllegalArgumentException("'" + key + "' cannot commit at " + length + " bytes: "
                        + readable() + " were published");
            }
            READABLE.setVolatile(this, length);
            state = State.COMMITTED;
        }
        settle();
    }

    /**
     * Records that the write ended without a commit: the bytes published stay readable, waits for
     * more fail with {@link WriteAbortedException}. Returns false (and does nothing) if the write
     * had already ended.
     */
    public boolean abort() {
        synchronized (this) {
            if (state != State.WRITING) {
                return false;
            }
            state = State.ABORTED;
        }
        settle();
        return true;
    }

    /**
     * Completes with the readable length once at least {@code minLength} bytes are readable or the
     * object is committed, whichever comes first; completes exceptionally with
     * {@link WriteAbortedException} if the write is aborted before {@code minLength} bytes were
     * published. Completes at once when the condition already holds.
     */
    public CompletableFuture<Long> await(long minLength) {
        State s = state;
        long r = readable();
        if (r >= minLength || s == State.COMMITTED) {
            return CompletableFuture.completedFuture(r);
        }
        if (s == State.ABORTED) {
            return CompletableFuture.failedFuture(new WriteAbortedException(key));
        }
        CompletableFuture<Long> f = new CompletableFuture<>();
        synchronized (this) {
            waiters.add(new Waiter(minLength, f));
            hasWaiters = true;
        }
        settle(); // the length or state may have moved between the check and the add
        return f;
    }

    /** Completes the waiters that the current length or state satisfies, outside the monitor. */
    private void settle() {
        List<Waiter> ready = null;
        State s;
        long r;
        synchronized (this) {
            if (waiters.isEmpty()) {
                return;
            }
            s = state;
            r = readable();
            for (var it = waiters.iterator(); it.hasNext(); ) {
                Waiter w = it.next();
                if (s != State.WRITING || r >= w.minLength) {
                    if (ready == null) {
                        ready = new ArrayList<>();
                    }
                    ready.add(w);
                    it.remove();
                }
            }
            hasWaiters = !waiters.isEmpty();
        }
        if (ready == null) {
            return;
        }
        for (Waiter w : ready) {
            if (s == State.ABORTED && r < w.minLength) {
                w.future.completeExceptionally(new WriteAbortedException(key));
            } else {
                w.future.complete(r);
            }
        }
    }

    private void requireWriting() {
        if (state != State.WRITING) {
            throw new IllegalStateException("the write of '" + key + "' was already "
                    + (state == State.COMMITTED ? "committed" : "aborted"));
        }
    }

    @Override
    public String toString() {
        return "WriteProgress[" + key + ", " + readable() + " bytes, " + state + "]";
    }
}
