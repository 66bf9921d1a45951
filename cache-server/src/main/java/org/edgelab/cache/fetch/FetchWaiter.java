package org.edgelab.cache.fetch;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import org.edgelab.cache.origin.OriginExchange;
import org.edgelab.cache.origin.OriginResponseListener;
import java.util.concurrent.CompletionStage;
import org.edgelab.storage.api.StoredObject;

/**
 * A client request waiting on a {@link Fetch}. Callbacks arrive on the fetch's origin event loop
 * (except {@link #passThrough}, only ever given to the initiator, whose loop that is): an
 * implementation hands the work to its own loop. Exactly one callback is made per waiter.
 */
public interface FetchWaiter {

    /** How a waiter relates to the fetch: it started it, or it joined one in flight. */
    enum Role {
        /** Started the origin request. */
        INITIATOR,
        /** Joined another client's fetch: no origin request of its own. */
        COALESCED
    }

    /** The request headers, to check that a Vary response selects this waiter's variant. */
    HttpHeaders requestHeaders();

    /**
     * The response is being stored: serve it by following the in-progress write. Owns
     * {@code follower} and {@code tail} (close both when done). {@code settled} completes when the
     * fill is over (committed, or aborted): a response from a follower ends only then, so the
     * client's next request finds the object stored. Should the store write fail, the follower's
     * reads past the bytes written end with {@link org.edgelab.storage.api.WriteAbortedException}
     * and {@code tail} carries the rest of the body from the origin.
     */
    void stored(StoredObject follower, Role role, CompletionStage<Void> settled, FillTail tail);

    /** The response was stored before this waiter could follow its write: serve it from the store. */
    void storedAlready(Role role);

    /** The origin confirmed the stale object (304) and its headers were refreshed: serve it from the store. */
    void revalidated(Role role);

    /** The origin failed but the stale object may be served (stale-if-error): serve it from the store. */
    void staleOnError(Role role);

    /** The origin failed with nothing to serve: answer 502 or 504. */
    void failed(int status, String reason);

    /** The response cannot be shared (not storable, other variant, store refused): fetch on your own. */
    void retryAlone();

    /**
     * The response is not being stored: forward it directly. Returns the listener that receives the
     * rest of the exchange (body and end, or failure), which accepts calls from the origin loop.
     * Only the initiator is called when the response may not be shared; every waiter is called
     * ({@code shared} true, on the origin loop) when it is shareable but the store refused it.
     */
    OriginResponseListener passThrough(HttpResponse response, OriginExchange exchange, boolean shared);
}
