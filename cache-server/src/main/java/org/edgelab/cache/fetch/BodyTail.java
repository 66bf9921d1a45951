package org.edgelab.cache.fetch;

import io.netty.buffer.ByteBuf;

/**
 * The rest of a response body from the origin, read in place of stored bytes that stopped coming: a follower's
 * {@link FillTail} when its fill's store write fails, the server's range request to the origin when a stored object's bytes cannot
 * be read mid-response. Idle until active; then pieces from {@link #start()} on, until {@link #end()} or a
 * {@link #failure()}. The reader polls on its channel's loop and must {@link #close} it when done. Implementations
 * say their thread-safety; no call blocks.
 */
public interface BodyTail {

    /** Whether the tail carries the rest of the body (its start is known). */
    boolean isActive();

    /** The body offset of the first piece, or -1 while the tail is idle. */
    long start();

    /** The body offset where the origin's bytes end, or -1 while they go on. */
    long end();

    /** Why the rest of the body cannot come, or null. */
    Throwable failure();

    /** Takes the next piece (the caller owns it), or null when none is waiting. */
    ByteBuf poll();

    /** A number that changes with every change of the tail's state, for {@link #whenChangedSince}. */
    long version();

    /**
     * Runs {@code r} once the tail has changed since {@link #version} returned {@code seen} (activation, a piece, the
     * end, a failure): at once if it already has, else when it changes. One listener at a time.
     */
    void whenChangedSince(long seen, Runnable r);

    /** The reader is done (its response ended or was abandoned): releases what waits. Idempotent. */
    void close();
}
