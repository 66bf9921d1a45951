package org.edgelab.cache.store;

import io.netty.util.concurrent.EventExecutor;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoredObject;

/**
 * A store as the event loops use it: each call the engine declares blocking
 * ({@link ObjectStore#blockingCalls()}) runs on one of the store's two {@link StoreExecutor}s, the
 * read lane or the write lane as {@link StoreLane#of(StoreCall)} says, and its outcome comes back on
 * the caller's event loop; every other call runs inline and its outcome is handed over at once, on
 * the calling thread (so the memory engine costs no thread hop). The lanes have their own threads
 * and their own lines, so writes stuck in slow I/O never hold a thread a lookup or a read needs.
 * Thread-safe.
 */
public final class LoopStore {

    private static final System.Logger LOG = System.getLogger(LoopStore.class.getName());

    private final ObjectStore store;
    private final Set<StoreCall> blocking;
    private final StoreExecutor reads;
    private final StoreExecutor writes;

    /**
     * Wraps {@code store}, running its blocking calls of the {@link StoreLane#READ read lane} on
     * {@code reads} and those of the {@link StoreLane#WRITE write lane} on {@code writes}, which must
     * be two executors (one shared would let writers hold every thread again).
     */
    public LoopStore(ObjectStore store, StoreExecutor reads, StoreExecutor writes) {
        this.store = Objects.requireNonNull(store, "store");
        this.reads = Objects.requireNonNull(reads, "reads");
        this.writes = Objects.requireNonNull(writes, "writes");
        if (reads == writes) {
            throw new IllegalArgumentException("the read and write lanes need an executor each");
        }
        this.blocking = Set.copyOf(store.blockingCalls());
    }

    /** Returns the store itself, for calls that never block and for the admin side. */
    public ObjectStore store() {
        return store;
    }

    /** Returns the executor of {@code lane}. */
    public StoreExecutor executor(StoreLane lane) {
        return lane == StoreLane.READ ? reads : writes;
    }

    /** Returns whether {@code call} may block in this engine (so it must not run on an event loop). */
    public boolean blocks(StoreCall call) {
        return blocking.contains(call);
    }

    /**
     * Makes a store call: inline when {@code call} never blocks in this engine ({@code then} runs
     * before this returns), else on the executor of its lane and then {@code then} on {@code loop}. A result
     * that arrives after {@code loop} has shut down is released if it is a stored object or an
     * {@link AutoCloseable}, so shutting down leaks nothing.
     */
    public <T> void call(StoreCall call, EventExecutor loop, Callable<T> body, BiConsumer<? super T, Throwable> then) {
        run(blocks(call), StoreLane.of(call), loop, body, then);
    }

    /**
     * Like {@link #call(StoreCall, EventExecutor, Callable, BiConsumer)} for a body that makes two kinds of
     * call: off the loop if either may block, on the write lane if either is a write ({@link StoreLane#of(StoreCall, StoreCall)}).
     */
    public <T> void call(StoreCall call, StoreCall alsoCall, EventExecutor loop, Callable<T> body,
                         BiConsumer<? super T, Throwable> then) {
        run(blocks(call) || blocks(alsoCall), StoreLane.of(call, alsoCall), loop, body, then);
    }

    private <T> void run(boolean blocks, StoreLane lane, EventExecutor loop, Callable<T> body,
                         BiConsumer<? super T, Throwable> then) {
        if (!blocks) {
            T result;
            try {
                result = body.call();
            } catch (Exception e) {
                then.accept(null, e);
                return;
            }
            then.accept(result, null);
            return;
        }
        try {
            executor(lane).execute(() -> {
                T result = null;
                Throwable failure = null;
                try {
                    result = body.call();
                } catch (Exception | Error e) {
                    failure = e;
                }
                handOver(loop, result, failure, then);
            });
        } catch (RejectedExecutionException closed) {
            then.accept(null, closed);
        }
    }

    private static <T> void handOver(EventExecutor loop, T result, Throwable failure,
                                     BiConsumer<? super T, Throwable> then) {
        try {
            loop.execute(() -> then.accept(result, failure));
        } catch (RejectedExecutionException loopGone) {
            discard(result);
        }
    }

    /**
     * Closes a stored object where closing may block: inline when the engine's release never blocks, else along the
     * read lane's next call ({@link StoreExecutor#executeAlong}), so that under load a release wakes no thread.
     */
    public void release(StoredObject object) {
        if (object == null) {
            return;
        }
        if (!blocks(StoreCall.RELEASE)) {
            object.close();
            return;
        }
        executor(StoreLane.of(StoreCall.RELEASE)).executeAlong(object::close);
    }

    private static void discard(Object result) {
        if (result instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.log(System.Logger.Level.DEBUG, "closing a result nobody waits for failed: {0}", e.toString());
            }
        }
    }
}
