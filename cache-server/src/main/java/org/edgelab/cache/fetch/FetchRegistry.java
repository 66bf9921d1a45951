package org.edgelab.cache.fetch;

import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpRequest;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.cache.http.StoredConditionals;
import org.edgelab.cache.origin.OriginClient;
import org.edgelab.cache.origin.OriginRequests;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.cache.store.LoopStore;
import org.edgelab.cache.store.StoreExecutor;
import org.edgelab.cache.store.StoreLane;

/**
 * The fetches in flight, by cache key: the first client to miss (or to find a stale object) starts
 * one origin request, and clients asking for the same key meanwhile join it instead of sending
 * their own. Thread-safe (a concurrent map; a fetch guards its own state).
 */
public final class FetchRegistry {

    private static final int STRIPES = 1024;

    private final ConcurrentHashMap<CacheKey, Fetch> inFlight = new ConcurrentHashMap<>();
    private final AtomicLongArray finishedMarks = new AtomicLongArray(STRIPES);
    private final LoopStore store;
    private final OriginClient origin;
    private final CacheStats stats;
    /** The Host of fill requests; null: the client's. */
    private final String originAuthority;
    private final InstantSource clock;
    /** A stall of the write lane past which new fills are passed through, not stored; 0: never. */
    private final long writeShedAfterNanos;

    /**
     * Creates a registry that fills {@code store} from {@code origin}, with Host {@code originAuthority} (null: the
     * client's), taking request and response times from {@code clock}, and passing new fills through unstored while
     * the store's write lane has been stalled for {@code writeShedAfter} (zero: never).
     */
    public FetchRegistry(LoopStore store, OriginClient origin, CacheStats stats, String originAuthority,
                         InstantSource clock, Duration writeShedAfter) {
        this.store = store;
        this.origin = origin;
        this.stats = stats;
        this.originAuthority = originAuthority;
        this.clock = clock;
        this.writeShedAfterNanos = writeShedAfter.toNanos();
    }

    InstantSource clock() {
        return clock;
    }

    /**
     * True when a fill about to open a store write should pass through instead: shedding is on and the write lane has
     * been stalled at least the configured time ({@link StoreExecutor#stalledNanos}; an engine whose writes run on the
     * loops leaves the lane idle, never stalled).
     */
    boolean shedWrite() {
        return writeShedAfterNanos > 0 && store.executor(StoreLane.WRITE).stalledNanos() >= writeShedAfterNanos;
    }

    LoopStore store() {
        return store;
    }

    CacheStats stats() {
        return stats;
    }

    /** What {@link #joinOrStart} did. */
    public enum Joined {
        /** The waiter joined a fetch in flight. */
        JOINED,
        /** The waiter started a fetch. */
        STARTED,
        /** A fetch of the key finished after the caller's lookup began: look up again (it may be stored now). */
        LOOK_AGAIN
    }

    /**
     * Returns a mark to take before looking {@code primaryKey} up, for {@link #joinOrStart}: it
     * changes whenever a fetch under that primary key finishes (striped, so rarely for another key).
     */
    public long mark(CacheKey primaryKey) {
        return finishedMarks.get(stripe(primaryKey));
    }

    private static int stripe(CacheKey key) {
        return (key.hashCode() & 0x7fffffff) % STRIPES;
    }

    /**
     * Joins the fetch in flight for {@code key}, or starts one on {@code loop} (which must be the
     * caller's). {@code stale} is the metadata of the stale object stored under {@code key} to
     * revalidate, or null. {@code mark} is {@link #mark} as taken before the caller's lookup: when
     * no fetch is in flight but one finished since, the answer is {@link Joined#LOOK_AGAIN}, because
     * the lookup (made off the loop) may have missed an object committed meanwhile.
     */
    public Joined joinOrStart(EventLoop loop, CacheKey key, CacheKey primaryKey, HttpRequest request,
                              ObjectMetadata stale, FetchWaiter waiter, long mark) {
        for (int attempt = 0; attempt < 3; attempt++) {
            Fetch existing = inFlight.get(key);
            if (existing != null) {
                if (existing.join(waiter)) {
                    return Joined.JOINED;
                }
                inFlight.remove(key, existing);
                if (existing.isOver()) {
                    // Over but not yet forgotten: its mark may not have moved, and it may have just stored the object.
                    return Joined.LOOK_AGAIN;
                }
                continue;
            }
            if (mark(primaryKey) != mark) {
                return Joined.LOOK_AGAIN;
            }
            Fetch fresh = new Fetch(this, key, primaryKey, request, stale, key, waiter, loop);
            if (inFlight.putIfAbsent(key, fresh) == null) {
                send(loop, fresh, request, stale);
                return Joined.STARTED;
            }
        }
        startAlone(loop, primaryKey, request, stale, key, waiter);
        return Joined.STARTED;
    }

    /**
     * Starts a fetch that no other client can join (a request with Authorization, or one whose
     * variant differs from the fetch in flight); what it stores is still shared afterwards.
     */
    public void startAlone(EventLoop loop, CacheKey primaryKey, HttpRequest request, ObjectMetadata stale,
                           CacheKey staleKey, FetchWaiter waiter) {
        Fetch fetch = new Fetch(this, null, primaryKey, request, stale, staleKey, waiter, loop);
        send(loop, fetch, request, stale);
    }

    private void send(EventLoop loop, Fetch fetch, HttpRequest request, ObjectMetadata stale) {
        stats.originRequest();
        if (stale != null) {
            stats.revalidation();
        }
        origin.send(loop, OriginRequests.fill(request, originAuthority,
                stale == null ? null : StoredConditionals.revalidationHeaders(stale)), null, fetch);
    }

    /**
     * Forgets a fetch that is over (its object committed, aborted or not stored). The mark moves
     * first, so a caller that sees the fetch gone also sees the new mark.
     */
    void finished(Fetch fetch) {
        finishedMarks.incrementAndGet(stripe(fetch.primaryKey()));
        if (fetch.registryKey() != null) {
            inFlight.remove(fetch.registryKey(), fetch);
        }
    }

    /** Returns the number of fetches in flight (for tests and stats). */
    public int inFlight() {
        return inFlight.size();
    }
}
