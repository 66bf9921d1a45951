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
 * ({@link ObjectStore#blockingCalls()}) runs on the store's {@link StoreExecutor} and its outcome
 * comes back on the caller's event loop; every other call runs inline and its outcome is handed
 * over at once, on the calling thread (so the memory engine costs no thread hop). Thread-safe.
 */
public final class LoopStore {

    private static final System.Logger LOG = System.getLogger(LoopStore.class.getName());

    private final ObjectStore store;
    private final Set<StoreCall> blocking;
    private final StoreExecutor executor;

    /** Wraps {@code store}, running its blocking calls on {@code executor}. */
    public LoopStore(ObjectStore store, StoreExecutor executor) {
        this.store = Objects.requireNonNull(store, "store");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.blocking = Set.copyOf(store.blockingCalls());
    }

    /** Returns the store itself, for calls that never block and for the admin side. */
    public ObjectStore store() {
        return store;
    }

    /** Returns the executor of this store's blocking calls. */
    public StoreExecutor executor() {
        return executor;
    }

    /** Returns whether {@code call} may block in this engine (so it must not run on an event loop). */
    public boolean blocks(StoreCall call) {
        return blocking.contains(call);
    }

    /**
     * Makes a store call: inline when {@code call} never blocks in this engine ({@code then} runs
     * before this returns), else on the executor and then {@code then} on {@code loop}. A result
     * that arrives after {@code loop} has shut down is released if it is a stored object or an
     * {@link AutoCloseable}, so shutting down leaks nothing.
     */
    public <T> void call(StoreCall call, EventExecutor loop, Callable<T> body, BiConsumer<? super T, Throwable> then) {
        run(blocks(call), loop, body, then);
    }

    /** Like {@link #call(StoreCall, EventExecutor, Callable, BiConsumer)} for a body that makes two kinds of call. */
    public <T> void call(StoreCall call, StoreCall alsoCall, EventExecutor loop, Callable<T> body,
                         BiConsumer<? super T, Throwable> then) {
        run(blocks(call) || blocks(alsoCall), loop, body, then);
    }

    private <T> void run(boolean blocks, EventExecutor loop, Callable<T> body, BiConsumer<? super T, Throwable> then) {
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
            executor.execute(() -> {
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
     * Runs {@code body} (a release, a removal) where {@code call} may block, with nothing to wait
     * for. Bounded all the same: the executor runs calls in order, so a connection's next call waits
     * behind its detached one.
     */
    public void detached(StoreCall call, Runnable body) {
        if (!blocks(call)) {
            body.run();
            return;
        }
        try {
            executor.execute(body);
        } catch (RejectedExecutionException closed) {
            body.run(); // the server is stopping: no loop is left to keep free
        }
    }

    /** Closes a stored object where closing may block. */
    public void release(StoredObject object) {
        if (object != null) {
            detached(StoreCall.RELEASE, object::close);
        }
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
