package org.edgelab.loadgen.client;

import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.workload.RequestSlot;

/**
 * Chooses the requests of {@link DrivenConnection}s (e.g. a playback stream choosing frames) and hears how
 * each ended. Called only on the connections' event loop.
 */
public interface FetchDriver {
    /** Fills {@code slot} with the next request and returns its token (>= 0), or -1 when there is nothing to fetch now. */
    long nextFetch(RequestSlot slot);

    /** Request {@code token} ended: {@code error} null when it was good; times are System.nanoTime values. */
    void fetched(long token, ErrorClass error, long sentNanos, long endNanos, long bodyBytes);
}
