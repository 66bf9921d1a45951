package org.edgelab.cache.fetch;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;

/**
 * The rest of a fill's body for one of its followers, should the store write fail: once the write
 * is refused or fails mid-object ({@link org.edgelab.storage.api.StorageFullException}, a failing
 * disk, a failed commit), the follower can still read every byte written before the failure from
 * the store, and this tail carries the origin's bytes from {@link #start()} on, so the follower's
 * response ends whole and byte-exact instead of being cut. Until then it is idle and holds nothing.
 *
 * <p>The fetch pushes pieces on its origin loop; the follower polls them on its own loop. Each tail
 * holds at most about {@link Fetch#TAIL_LIMIT} bytes (the pieces share the origin's buffers with
 * the other followers' tails): past that the origin is not read until this follower catches up, so
 * the slowest follower sets the pace. The follower must {@link #close} it when its response is
 * over, whatever happened. Thread-safe: state is guarded by this object's monitor; the listener
 * runs outside it.
 */
public final class FillTail implements BodyTail {

    private final Fetch fetch;
    private final ArrayDeque<ByteBuf> pieces = new ArrayDeque<>();
    private long queuedBytes;
    private long start = -1;
    private long end = -1;
    private Throwable failure;
    /** The fill ended before this tail was activated (see {@link #fillOver}). */
    private boolean overWhileIdle;
    private boolean closed;
    private long version;
    private Runnable listener;

    FillTail(Fetch fetch) {
        this.fetch = fetch;
    }

    // ---- the fetch's side (origin loop)

    /** The write failed after {@code offset} bytes: pieces from that offset follow. */
    void activate(long offset) {
        notifyAfter(() -> {
            start = offset;
            return true;
        });
    }

    /** Adds the next piece (owned); released at once when the follower is gone. */
    void push(ByteBuf piece) {
        boolean kept = notifyAfter(() -> {
            if (closed) {
                return false;
            }
            pieces.addLast(piece);
            queuedBytes += piece.readableBytes();
            return true;
        });
        if (!kept) {
            piece.release();
        }
    }

    /** The origin's body ended at {@code offset}. */
    void end(long offset) {
        notifyAfter(() -> {
            end = offset;
            return true;
        });
    }

    /** The rest of the body cannot come: the origin failed, or the fill ended without a tail to give. */
    void fail(Throwable cause) {
        notifyAfter(() -> {
            if (failure == null && end < 0) {
                failure = cause;
            }
            return true;
        });
    }

    /**
     * The fill is over: a tail not activated by now never will be, and fails (the safety net for a
     * follower whose store reads end early). The failure is made only if the follower asks for it:
     * nearly every follower of a stored fill reads to the end and never does.
     */
    void fillOver() {
        notifyAfter(() -> {
            if (start < 0 && failure == null) {
                overWhileIdle = true;
            }
            return true;
        });
    }

    /** Bytes waiting for the follower; 0 once it is closed. */
    synchronized long queuedBytes() {
        return closed ? 0 : queuedBytes;
    }

    synchronized boolean isClosed() {
        return closed;
    }

    private boolean notifyAfter(java.util.function.BooleanSupplier change) {
        Runnable l;
        boolean result;
        synchronized (this) {
            result = change.getAsBoolean();
            if (result) {
                version++;
            }
            l = listener;
            listener = null;
        }
        if (l != null) {
            l.run();
        }
        return result;
    }

    // ---- the follower's side (its own loop)

    /** Whether the write failed and this tail carries the rest of the body. */
    @Override
    public synchronized boolean isActive() {
        return start >= 0;
    }

    /** The body offset of the first piece, or -1 while the tail is idle. */
    @Override
    public synchronized long start() {
        return start;
    }

    /** The body offset where the origin's body ended, or -1 while it goes on. */
    @Override
    public synchronized long end() {
        return end;
    }

    /** Why the rest of the body cannot come, or null. */
    @Override
    public synchronized Throwable failure() {
        if (failure == null && overWhileIdle) {
            failure = new java.io.IOException(fetch.idleTailReason());
        }
        return failure;
    }

    /** Takes the next piece (the caller owns it), or null when none is waiting. */
    @Override
    public ByteBuf poll() {
        ByteBuf p;
        synchronized (this) {
            p = pieces.pollFirst();
            if (p == null) {
                return null;
            }
            queuedBytes -= p.readableBytes();
        }
        fetch.tailFlowChanged();
        return p;
    }

    /** A number that changes with every change of the tail's state, for {@link #whenChangedSince}. */
    @Override
    public synchronized long version() {
        return version;
    }

    /**
     * Runs {@code r} once the tail has changed since {@link #version} returned {@code seen}
     * (activation, a piece, the end, a failure): at once if it already has, else on the thread
     * that changes it. One listener at a time.
     */
    @Override
    public void whenChangedSince(long seen, Runnable r) {
        boolean now;
        synchronized (this) {
            now = closed || version != seen;
            if (!now) {
                listener = r;
            }
        }
        if (now) {
            r.run();
        }
    }

    /** The follower is done with the fill (its response ended or was abandoned): releases what waits. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            listener = null;
            ByteBuf p;
            while ((p = pieces.pollFirst()) != null) {
                p.release();
            }
            queuedBytes = 0;
        }
        fetch.tailFlowChanged();
    }
}
