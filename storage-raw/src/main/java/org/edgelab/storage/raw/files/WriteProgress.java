package org.edgelab.storage.raw.files;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.WriteAbortedException;

/**
 * How far an in-progress write has got, published by the writer and followed by readers. The
 * length is published only after the bytes are in the file, so followers never see torn data.
 * Thread-safe: one writer thread updates, any thread reads and waits.
 */
final class WriteProgress {

    private record Waiter(long minLength, CompletableFuture<Long> future) {
    }

    private final CacheKey key;
    private volatile long written;
    private volatile boolean committed;
    private volatile boolean aborted;
    private final List<Waiter> waiters = new ArrayList<>();

    WriteProgress(CacheKey key) {
        this.key = key;
    }

    long written() {
        return written;
    }

    boolean isCommitted() {
        return committed;
    }

    boolean isAborted() {
        return aborted;
    }

    void advance(long newLength) {
        written = newLength;
        complete(false);
    }

    void commit() {
        committed = true;
        complete(false);
    }

    void abort() {
        aborted = true;
        complete(true);
    }

    CompletableFuture<Long> await(long minLength) {
        CompletableFuture<Long> f = new CompletableFuture<>();
        synchronized (this) {
            if (!settle(minLength, f)) {
                waiters.add(new Waiter(minLength, f));
            }
        }
        return f;
    }

    private void complete(boolean abort) {
        List<Runnable> done = new ArrayList<>();
        synchronized (this) {
            for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
                Waiter w = it.next();
                if (abort || written >= w.minLength || committed) {
                    it.remove();
                    done.add(() -> settle(w.minLength, w.future));
                }
            }
        }
        done.forEach(Runnable::run);
    }

    private boolean settle(long minLength, CompletableFuture<Long> f) {
        if (aborted) {
            f.completeExceptionally(new WriteAbortedException(key));
            return true;
        }
        long w = written;
        if (w >= minLength || committed) {
            f.complete(w);
            return true;
        }
        return false;
    }
}
