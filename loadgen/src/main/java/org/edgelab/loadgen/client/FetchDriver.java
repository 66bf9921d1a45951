package org.edgelab.loadgen.client;

import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.workload.RequestSlot;

/**
 * The role of an {@link HttpConnection}: chooses its requests one at a time (a load run's request numbers,
 * a playback stream's frames) and hears how each ended. The connection does the rest (connecting,
 * sending, parsing, checking, timing, counting).
 *
 * <p>Thread-safety: called only on the connection's event loop; implementations need no locks of their
 * own for state that only that loop touches.
 */
public interface FetchDriver {
    /** {@link #nextFetch} has nothing to send now: the connection idles until {@link HttpConnection#wake()}. */
    long WAIT = -1;
    /** {@link #nextFetch} will never have anything more: the connection closes and ends. */
    long DONE = -2;

    /**
     * Fills {@code slot} with the next request and returns its token (>= 0), or {@link #WAIT} or {@link #DONE}.
     * Never blocks.
     */
    long nextFetch(RequestSlot slot);

    /**
     * When the request last returned by {@link #nextFetch} is due, as a System.nanoTime value, or 0 to send
     * it at once. Latency counts from the due time (open loop), so a late send cannot hide a stall.
     */
    default long dueNanos() {
        return 0;
    }

    /** Request {@code token}, the one last returned by {@link #nextFetch}, is being written now (at or after its due time). */
    default void sending(long token) {
    }

    /**
     * Request {@code token} ended: {@code error} is null when its response was good; {@code sentNanos} and
     * {@code endNanos} are System.nanoTime values. Not called for a request in flight when the load stops.
     */
    default void fetched(long token, ErrorClass error, long sentNanos, long endNanos, long bodyBytes) {
    }

    /**
     * True once the load is stopping: a request cut off now is unfinished, not an error, and a connection
     * that fails or closes does not reconnect.
     */
    default boolean stopping() {
        return false;
    }

    /** The connection ended for good (after {@link #DONE}, a stop, or a failed connect while stopping). */
    default void connectionFinished() {
    }
}
