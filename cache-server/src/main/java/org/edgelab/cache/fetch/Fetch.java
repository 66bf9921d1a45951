package org.edgelab.cache.fetch;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.edgelab.cache.admin.PhaseTimes;
import org.edgelab.cache.http.CacheControl;
import org.edgelab.cache.http.Freshness;
import org.edgelab.cache.http.HopByHop;
import org.edgelab.cache.http.Storability;
import org.edgelab.cache.http.StoredConditionals;
import org.edgelab.cache.http.VaryKeys;
import org.edgelab.cache.origin.OriginException;
import org.edgelab.cache.origin.OriginExchange;
import org.edgelab.cache.origin.OriginResponseListener;
import org.edgelab.cache.store.LoopStore;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoredObject;

/**
 * One origin request that fills (or revalidates) one cache entry, shared by every client that
 * asks for the entry while it is in flight. Before the response headers arrive, clients queue as
 * waiters; once a storable response is being written, each waiter and each later joiner follows
 * the in-progress write at its own pace ({@link ObjectWriter#follow()}). The body is committed only
 * when it is complete and matches its Content-Length; any failure aborts the write, which ends the
 * followers' reads with an error so that no client sees a truncated body as complete. When the
 * store refuses or fails the write mid-object (or its commit), the fill becomes a pass-through for
 * its followers instead: each has read, or can still read, every byte written before the failure,
 * and gets the rest from the origin through its {@link FillTail}, so every response ends whole.
 *
 * <p>Store calls are made in order, one at a time ({@link Lane}): on the executor of the call's
 * {@link org.edgelab.cache.store.StoreLane} (writes on the write lane, follows on the read lane)
 * when the engine declares them blocking, continuing on the origin loop, where the next is started
 * (so the order holds across the two lanes). While the write of the object is
 * opening, or more than {@link #WRITE_AHEAD} bytes wait to be written, the origin is not read.
 *
 * <p>Thread-safety: origin callbacks and store continuations run on the origin connection's event
 * loop; {@link #join} may be called from any loop; shared state is guarded by this object's
 * monitor, and waiter callbacks are made outside it.
 */
public final class Fetch implements OriginResponseListener {

    private static final System.Logger LOG = System.getLogger(Fetch.class.getName());

    /**
     * Body bytes received from the origin and not yet written to the store beyond which the origin
     * is no longer read: four 256 KiB pieces, so an executor that falls behind holds at most this
     * much per fill in memory.
     */
    static final long WRITE_AHEAD = 1L << 20;

    /**
     * Bytes a follower's {@link FillTail} may hold beyond which the origin is not read, once the
     * store write failed: the slowest follower sets the pace (the tails share the origin's buffers).
     */
    static final long TAIL_LIMIT = 1L << 20;

    private enum State { AWAITING_HEADERS, OPENING, STORING, DONE }

    private final FetchRegistry registry;
    private final LoopStore store;
    private final CacheKey registryKey;
    private final CacheKey primaryKey;
    private final HttpRequest initiatorRequest;
    private final ObjectMetadata stale;
    private final CacheKey staleKey;
    private final List<FetchWaiter> waiters = new ArrayList<>(4);
    private final long requestTimeMillis;
    private final long startNanos = System.nanoTime();
    private final EventLoop originLoop;
    private final Lane lane = new Lane();
    /** Completes when this fill is over, stored or not (see {@link FetchWaiter#stored}). */
    private final java.util.concurrent.CompletableFuture<Void> settled = new java.util.concurrent.CompletableFuture<>();
    private volatile boolean committed;

    private State state = State.AWAITING_HEADERS;
    private ObjectWriter writer;
    private ObjectMetadata metadata;
    private long expectedLength = -1;
    private List<String> varyFields = List.of();
    private OriginResponseListener passThrough;
    private boolean sharedBody;
    private OriginExchange exchange;
    /** Body pieces that arrived while the write was opening (origin loop only). */
    private final ArrayDeque<HttpContent> early = new ArrayDeque<>();
    private boolean originPaused;
    /** One per follower handed the write (guarded by this). */
    private final List<FillTail> tails = new ArrayList<>(4);
    /** The store write failed and the body goes on to the followers' tails (set on the origin loop). */
    private volatile boolean tailMode;
    /** Body bytes the store took without error (origin loop). */
    private long writtenOk;
    /** The offset of the next byte pushed to the tails (origin loop). */
    private long tailOffset;
    /** The origin's last body piece arrived (origin loop). */
    private boolean bodyEnded;
    /** Why the origin failed while the write was opening, or null (origin loop). */
    private OriginException failedWhileOpening;

    Fetch(FetchRegistry registry, CacheKey registryKey, CacheKey primaryKey, HttpRequest initiatorRequest,
          ObjectMetadata stale, CacheKey staleKey, FetchWaiter initiator, EventLoop originLoop) {
        this.originLoop = originLoop;
        this.registry = registry;
        this.store = registry.store();
        this.requestTimeMillis = registry.clock().millis();
        this.registryKey = registryKey;
        this.primaryKey = primaryKey;
        this.initiatorRequest = initiatorRequest;
        this.stale = stale;
        this.staleKey = staleKey;
        this.waiters.add(initiator);
    }

    /** Returns the primary key of the request that started this fetch. */
    CacheKey primaryKey() {
        return primaryKey;
    }

    /** Returns the key this fetch is registered under (null when it is not shared). */
    CacheKey registryKey() {
        return registryKey;
    }

    /**
     * Adds a client to this fetch; returns false when it cannot share it (the fetch is over, or the
     * response being stored is another variant), and the caller must go its own way.
     */
    boolean join(FetchWaiter waiter) {
        ObjectWriter w;
        FillTail tail;
        synchronized (this) {
            switch (state) {
                case AWAITING_HEADERS, OPENING -> {
                    waiters.add(waiter);
                    return true;
                }
                case STORING -> {
                    if (!sameVariant(varyFields, waiter)) {
                        return false;
                    }
                    w = writer;
                    tail = newTail();
                }
                default -> {
                    return false;
                }
            }
        }
        follow(w, waiter, FetchWaiter.Role.COALESCED, tail);
        return true;
    }

    /** True once this fill is over (stored, aborted, or not stored); it may not have been forgotten yet. */
    synchronized boolean isOver() {
        return state == State.DONE;
    }

    /** Registers a tail for a follower about to be handed the write; call holding this object's monitor. */
    private FillTail newTail() {
        FillTail t = new FillTail(this);
        tails.add(t);
        return t;
    }

    /** Opens a follower for {@code waiter} (where following may block) and hands it over with its tail. */
    private void follow(ObjectWriter w, FetchWaiter waiter, FetchWaiter.Role role, FillTail tail) {
        store.call(StoreCall.FOLLOW, originLoop, w::follow, (follower, err) -> {
            if (err == null) {
                waiter.stored(follower, role, settled, tail);
                return;
            }
            tail.close();
            // The follow may have come after the engine committed but before the commit's callback ran
            // here: wait for the calls submitted so far (the commit among them), then decide.
            lane.afterAll(() -> {
                if (committed) {
                    waiter.storedAlready(role); // the follow came after the commit: the object is there
                } else {
                    LOG.log(System.Logger.Level.DEBUG, "cannot follow the write of {0}: {1}", w.key(), err.toString());
                    waiter.retryAlone();
                }
            });
        });
    }

    private boolean sameVariant(List<String> fields, FetchWaiter w) {
        if (fields.isEmpty()) {
            return true;
        }
        return VariantLookup.keyFor(primaryKey, fields, initiatorRequest.headers())
                .equals(VariantLookup.keyFor(primaryKey, fields, w.requestHeaders()));
    }

    @Override
    public void onResponse(HttpResponse response, OriginExchange exchange) {
        this.exchange = exchange;
        registry.stats().phases().since(PhaseTimes.Phase.MISS_ORIGIN_HEADERS, startNanos);
        long responseTime = registry.clock().millis();
        int status = response.status().code();
        HttpHeaders headers = response.headers();
        if (stale != null && status == 304) {
            if (StoredConditionals.notModifiedMatches(stale, headers)) {
                refreshStale(headers, responseTime);
            } else {
                // A 304 that does not validate the stored response (no validator where it has one, or
                // another one) must not freshen it (RFC 9111 §4.3.4), and answers a conditional request
                // the clients did not make: every waiter fetches the object unconditionally, on its own.
                LOG.log(System.Logger.Level.DEBUG, "304 for {0} does not validate the stored response", staleKey);
                for (WaiterRole wr : finishWithoutBody()) {
                    wr.waiter.retryAlone();
                }
            }
            return;
        }
        if (stale != null && status >= 500 && mayServeStale()) {
            exchange.abort();
            for (WaiterRole wr : finishWithoutBody()) {
                wr.waiter.staleOnError(wr.role);
            }
            return;
        }
        Storability.Decision decision = Storability.decide(HttpMethod.GET, initiatorRequest.headers(), status, headers);
        boolean framed = HttpUtil.isContentLengthSet(response) || HttpUtil.isTransferEncodingChunked(response);
        List<String> vary = VaryKeys.varyFields(headers).orElse(List.of());
        Optional<CacheKey> storeKey = decision.storable() && framed
                ? VariantLookup.keyFor(primaryKey, vary, initiatorRequest.headers()) : Optional.empty();
        if (storeKey.isEmpty()) {
            // Not stored: the initiator gets the response directly, the others fetch on their own.
            List<WaiterRole> all = finishWithoutBody();
            FetchWaiter initiator = all.get(0).waiter;
            for (int i = 1; i < all.size(); i++) {
                all.get(i).waiter.retryAlone();
            }
            passThrough = initiator.passThrough(response, exchange, false);
            return;
        }
        List<HeaderField> stored = HopByHop.storedHeaders(headers);
        long length = HttpUtil.getContentLength(response, ObjectMetadata.UNKNOWN_LENGTH);
        long expiresAt = Freshness.expiresAtMillis(status, stored, requestTimeMillis, responseTime);
        ObjectMetadata meta = new ObjectMetadata(status, stored, length, requestTimeMillis, responseTime, expiresAt);
        CacheKey key = storeKey.get();
        if (registry.shedWrite()) {
            // the store's device has stopped taking writes: serve this fill from the origin rather than wait for it
            registry.stats().storeWriteShed();
            LOG.log(System.Logger.Level.DEBUG, "write lane stalled: {0} passed through, not stored", key);
            passThroughToSameVariant(response, vary);
            return;
        }
        synchronized (this) {
            state = State.OPENING;
        }
        lane.submit(StoreCall.BEGIN, StoreCall.COMMIT, 0, () -> {
            if (!vary.isEmpty()) {
                writeMarker(vary, responseTime);
            }
            return store.store().begin(key, meta);
        }, (w, err) -> {
            if (err != null) {
                refused(key, err, response, vary);
            } else {
                startStoring(w, meta, length, vary);
            }
        });
        synchronized (this) {
            if (state == State.OPENING) {
                pauseOrigin(true); // the write opens on the executor: read no body meanwhile
            }
        }
    }

    private void writeMarker(List<String> vary, long now) throws IOException {
        try (ObjectWriter m = store.store().begin(primaryKey, VariantMarkers.marker(vary, now))) {
            m.commit();
        }
    }

    /** The store would not take the response: stream it to every client of the same variant. */
    private void refused(CacheKey key, Throwable err, HttpResponse response, List<String> vary) {
        registry.stats().storeRefusal();
        if (failedWhileOpening != null) {
            failWaiters(failedWhileOpening);
            return;
        }
        if (err instanceof StorageFullException) {
            LOG.log(System.Logger.Level.DEBUG, "store refused {0}: {1}", key, err.getMessage());
        } else {
            LOG.log(System.Logger.Level.WARNING, "cannot store " + key, err);
        }
        passThroughToSameVariant(response, vary);
    }

    /**
     * Streams the response from the origin to the initiator and every waiter of the same variant, storing nothing;
     * the other waiters fetch on their own. Counts the pass-through.
     */
    private void passThroughToSameVariant(HttpResponse response, List<String> vary) {
        registry.stats().storePassThrough();
        List<WaiterRole> all = finishWithoutBody();
        List<FetchWaiter> same = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (i == 0 || sameVariant(vary, all.get(i).waiter)) {
                same.add(all.get(i).waiter);
            } else {
                all.get(i).waiter.retryAlone();
            }
        }
        SharedPassThrough shared = new SharedPassThrough(originLoop, exchange, same.size());
        shared.attach(same, response);
        passThrough = shared;
        sharedBody = true;
        HttpContent c;
        while ((c = early.pollFirst()) != null) {
            onContent(c, c instanceof io.netty.handler.codec.http.LastHttpContent);
        }
        pauseOrigin(false);
    }

    private void startStoring(ObjectWriter w, ObjectMetadata meta, long length, List<String> vary) {
        if (failedWhileOpening != null) {
            writer = w; // aborted by the call onFailure queued after this one
            failWaiters(failedWhileOpening);
            return;
        }
        List<WaiterRole> attached = new ArrayList<>();
        List<FillTail> attachedTails = new ArrayList<>();
        List<FetchWaiter> others = new ArrayList<>();
        synchronized (this) {
            writer = w;
            metadata = meta;
            expectedLength = length;
            varyFields = vary;
            state = State.STORING;
            for (int i = 0; i < waiters.size(); i++) {
                FetchWaiter fw = waiters.get(i);
                if (i == 0 || sameVariant(vary, fw)) {
                    attached.add(new WaiterRole(fw, i == 0 ? FetchWaiter.Role.INITIATOR : FetchWaiter.Role.COALESCED));
                    attachedTails.add(newTail());
                } else {
                    others.add(fw);
                }
            }
            waiters.clear();
        }
        // The waiters' followers open first, in the lane, so that no write can fail before they exist.
        lane.submit(StoreCall.FOLLOW, 0, () -> {
            List<StoredObject> followers = new ArrayList<>(attached.size());
            try {
                for (int i = 0; i < attached.size(); i++) {
                    followers.add(w.follow());
                }
            } catch (RuntimeException e) {
                followers.forEach(StoredObject::close);
                throw e;
            }
            return followers;
        }, (followers, err) -> {
            for (int i = 0; i < attached.size(); i++) {
                WaiterRole wr = attached.get(i);
                if (err == null) {
                    wr.waiter.stored(followers.get(i), wr.role, settled, attachedTails.get(i));
                } else {
                    attachedTails.get(i).close();
                    LOG.log(System.Logger.Level.DEBUG, "cannot follow the write of {0}: {1}", w.key(), err.toString());
                    wr.waiter.retryAlone();
                }
            }
        });
        others.forEach(FetchWaiter::retryAlone);
        HttpContent c;
        while ((c = early.pollFirst()) != null) {
            store(c, c instanceof io.netty.handler.codec.http.LastHttpContent);
        }
        if (state == State.STORING) {
            pauseOrigin(lane.queuedBytes > WRITE_AHEAD);
        }
    }

    private void refreshStale(HttpHeaders notModified, long responseTime) {
        List<HeaderField> merged = StoredConditionals.mergeNotModified(stale.headers(), notModified);
        Storability.Decision kept = Storability.decide(HttpMethod.GET, initiatorRequest.headers(), stale.status(),
                StoredConditionals.freshenedHeaders(merged, notModified));
        if (!kept.storable()) {
            // The 304 turns the stored response into one this cache does not keep (no-store, private, a
            // cookie): it is removed, and every waiter fetches the object unconditionally, on its own.
            lane.submit(StoreCall.REMOVE, 0, () -> store.store().remove(staleKey), (ok, err) -> {
                if (err != null) {
                    LOG.log(System.Logger.Level.WARNING, "cannot remove " + staleKey, err);
                }
                LOG.log(System.Logger.Level.DEBUG, "304 for {0} not kept: {1}", staleKey, kept.reason());
                for (WaiterRole wr : finishWithoutBody()) {
                    wr.waiter.retryAlone();
                }
            });
            return;
        }
        long expiresAt = Freshness.expiresAtMillis(stale.status(), merged, requestTimeMillis, responseTime);
        ObjectMetadata refreshed = stale.refreshed(merged, requestTimeMillis, responseTime, expiresAt);
        lane.submit(StoreCall.UPDATE_METADATA, 0, () -> store.store().updateMetadata(staleKey, refreshed), (ok, err) -> {
            if (err != null) {
                LOG.log(System.Logger.Level.WARNING, "cannot refresh the headers of " + staleKey, err);
            }
            for (WaiterRole wr : finishWithoutBody()) {
                wr.waiter.revalidated(wr.role);
            }
        });
    }

    private boolean mayServeStale() {
        Freshness f = Freshness.of(stale, registry.clock().millis());
        return f.mayServeStaleOnError(CacheControl.of(stale), CacheControl.of(initiatorRequest.headers()));
    }

    @Override
    public void onContent(HttpContent content, boolean last) {
        if (passThrough != null) {
            if (sharedBody) {
                registry.stats().bytesFromOrigin(content.content().readableBytes());
            }
            passThrough.onContent(content, last);
            return;
        }
        if (tailMode) {
            registry.stats().bytesFromOrigin(content.content().readableBytes());
            pushToTails(content);
            if (last) {
                bodyEnded = true;
                endTails();
            }
            applyTailFlow();
            return;
        }
        State s;
        synchronized (this) {
            s = state;
        }
        switch (s) {
            case OPENING -> early.addLast(content);
            case STORING -> store(content, last);
            default -> content.release();
        }
    }

    /** Queues one body piece for the store (and the commit after the last one). */
    private void store(HttpContent content, boolean last) {
        ByteBuf buf = content.content();
        int n = buf.readableBytes();
        if (n > 0) {
            registry.stats().bytesFromOrigin(n);
            ObjectWriter w = writer;
            // The piece stays the fill's until the store took it: should the write fail, it goes to the tails.
            lane.submit(StoreCall.WRITE, StoreCall.WRITE, n, () -> {
                if (buf.nioBufferCount() == 1) {
                    w.write(buf.nioBuffer());
                } else {
                    for (ByteBuffer b : buf.nioBuffers()) {
                        w.write(b);
                    }
                }
                return null;
            }, (ok, err) -> {
                if (err != null) {
                    storeFailed(err, content);
                } else {
                    writtenOk += n;
                    content.release();
                    pauseOrigin(lane.queuedBytes > WRITE_AHEAD);
                }
            }, content);
            pauseOrigin(lane.queuedBytes > WRITE_AHEAD);
        } else {
            content.release();
        }
        if (last) {
            bodyEnded = true;
            finishStoring();
        }
    }

    private void pauseOrigin(boolean pause) {
        if (pause != originPaused && exchange != null) {
            originPaused = pause;
            exchange.setReading(!pause);
        }
    }

    private void finishStoring() {
        ObjectWriter w = writer;
        ObjectMetadata meta = metadata;
        lane.submit(StoreCall.COMMIT, StoreCall.ABORT, 0, () -> {
            long written = w.written();
            if (expectedLength >= 0 && written != expectedLength) {
                LOG.log(System.Logger.Level.WARNING, "origin sent {0} bytes of {1} for {2}: not stored",
                        written, expectedLength, w.key());
                w.abort();
            } else {
                try {
                    w.commit(meta.withLength(written));
                } catch (IOException | RuntimeException e) {
                    w.abort();
                    throw e;
                }
            }
            return null;
        }, (ok, err) -> {
            if (err != null) {
                storeFailed(err, null); // every byte was written: the followers' tails just end
                return;
            }
            committed = expectedLength < 0 || w.written() == expectedLength;
            synchronized (this) {
                state = State.DONE;
            }
            finished();
        }, true);
    }

    /**
     * The store refused or failed a write (or the commit) mid-object: the write is aborted, and the
     * fill becomes a pass-through for its followers. Each follower can still read every byte the
     * store took; the pieces it did not take ({@code failedPiece}, then those queued) and the rest
     * of the origin's body go to every follower's {@link FillTail} from that offset. Counted; the
     * store's disks are the engine's business (a full file system does not take one out).
     */
    private void storeFailed(Throwable e, HttpContent failedPiece) {
        State s;
        List<FillTail> live;
        synchronized (this) {
            s = state;
            state = State.DONE;
            live = new ArrayList<>(tails);
        }
        List<HttpContent> unwritten = new ArrayList<>();
        if (failedPiece != null) {
            unwritten.add(failedPiece);
        }
        unwritten.addAll(lane.dropQueued());
        if (s != State.STORING) {
            unwritten.forEach(HttpContent::release);
            return;
        }
        if (e instanceof StorageFullException) {
            registry.stats().storeRefusal();
            LOG.log(System.Logger.Level.DEBUG, "store refused {0} after {1} bytes: {2}", writer.key(), writtenOk,
                    e.getMessage());
        } else {
            LOG.log(System.Logger.Level.WARNING, "store write of " + writer.key() + " failed after " + writtenOk
                    + " bytes; passing the rest through", e);
        }
        registry.stats().storePassThrough();
        tailOffset = writtenOk;
        tailMode = true;
        for (FillTail t : live) {
            t.activate(tailOffset);
        }
        for (HttpContent c : unwritten) {
            pushToTails(c);
        }
        if (bodyEnded) {
            endTails();
        }
        abortStoring();
        applyTailFlow();
    }

    /** Gives one body piece to every follower's tail (each a retained slice of the same buffer); releases it. */
    private void pushToTails(HttpContent content) {
        ByteBuf b = content.content();
        int n = b.readableBytes();
        if (n > 0) {
            for (FillTail t : tailsNow()) {
                t.push(b.retainedSlice());
            }
            tailOffset += n;
        }
        content.release();
    }

    private void endTails() {
        for (FillTail t : tailsNow()) {
            t.end(tailOffset);
        }
    }

    private synchronized List<FillTail> tailsNow() {
        return new ArrayList<>(tails);
    }

    /** A follower read or closed its tail: on the origin loop, read the origin again if every tail has room. */
    void tailFlowChanged() {
        if (!tailMode) {
            return;
        }
        try {
            originLoop.execute(this::applyTailFlow);
        } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
            // the server is closing: the origin connection goes with it
        }
    }

    /** Pauses the origin while a follower's tail is full; drops it once every follower is gone. Origin loop. */
    private void applyTailFlow() {
        if (!tailMode || bodyEnded || exchange == null) {
            return;
        }
        boolean anyLive = false;
        boolean anyFull = false;
        for (FillTail t : tailsNow()) {
            if (!t.isClosed()) {
                anyLive = true;
                anyFull |= t.queuedBytes() > TAIL_LIMIT;
            }
        }
        if (!anyLive) {
            bodyEnded = true; // nobody wants the rest
            exchange.abort();
            return;
        }
        pauseOrigin(anyFull);
    }

    private void abortStoring() {
        ObjectWriter w = writer;
        lane.dropQueued().forEach(HttpContent::release);
        lane.submit(StoreCall.ABORT, 0, () -> {
            w.abort();
            return null;
        }, (ok, err) -> finished());
    }

    @Override
    public void onFailure(OriginException cause, boolean headersReceived) {
        registry.stats().originError();
        if (passThrough != null) {
            passThrough.onFailure(cause, headersReceived);
            return;
        }
        if (tailMode) {
            for (FillTail t : tailsNow()) {
                t.fail(cause);
            }
            return;
        }
        State s;
        synchronized (this) {
            s = state;
        }
        if (s == State.OPENING) {
            // The write is being opened: once it is, it is aborted (a later store call sees DONE).
            HttpContent c;
            while ((c = early.pollFirst()) != null) {
                c.release();
            }
            synchronized (this) {
                state = State.DONE;
            }
            failedWhileOpening = cause; // the waiters hear of it once the write has opened (or was refused)
            lane.afterAll(() -> {
                if (writer != null) {
                    abortStoring();
                } else {
                    finished();
                }
            });
            return;
        }
        if (s == State.STORING) {
            LOG.log(System.Logger.Level.DEBUG, "origin failed mid-body: {0}", cause.getMessage());
            synchronized (this) {
                state = State.DONE;
            }
            for (FillTail t : tailsNow()) {
                t.fail(cause);
            }
            abortStoring();
            return;
        }
        if (s == State.DONE) {
            return;
        }
        failWaiters(cause);
    }

    /** The origin failed before any body was stored: serve the stale object where allowed, else 502 or 504. */
    private void failWaiters(OriginException cause) {
        boolean serveStale = stale != null && mayServeStale();
        int status = cause.kind() == OriginException.Kind.TIMEOUT ? 504 : 502;
        for (WaiterRole wr : finishWithoutBody()) {
            if (serveStale) {
                wr.waiter.staleOnError(wr.role);
            } else {
                wr.waiter.failed(status, cause.getMessage());
            }
        }
    }

    /** Ends the fetch before any body is stored; returns the waiters to notify, initiator first. */
    private List<WaiterRole> finishWithoutBody() {
        List<WaiterRole> out = new ArrayList<>();
        synchronized (this) {
            state = State.DONE;
            for (int i = 0; i < waiters.size(); i++) {
                out.add(new WaiterRole(waiters.get(i),
                        i == 0 ? FetchWaiter.Role.INITIATOR : FetchWaiter.Role.COALESCED));
            }
            waiters.clear();
        }
        finished();
        return out;
    }

    /**
     * The fill is over: forgotten by the registry, and the followers' responses may end. A tail
     * not handed over by now never will be, so every idle tail fails: no follower whose store
     * read ended early waits for one (a committed fill's followers read the store to the end and
     * never look at theirs).
     */
    private void finished() {
        registry.finished(this);
        for (FillTail t : tailsNow()) {
            t.fillOver();
        }
        settled.complete(null);
    }

    /** Why a tail that the fill never handed over cannot come (asked only by a follower that needs it). */
    String idleTailReason() {
        return "the fill of " + primaryKey
                + (committed ? " was stored, but a read of it ended early" : " ended without storing its object");
    }

    private record WaiterRole(FetchWaiter waiter, FetchWaiter.Role role) {
    }

    /**
     * This fill's store calls, made one at a time in the order they were submitted: each runs where
     * the engine allows ({@link LoopStore}) and continues on the origin loop, where the next one is
     * started. Confined to the origin loop.
     */
    private final class Lane {
        private final ArrayDeque<Op> ops = new ArrayDeque<>();
        private boolean running;
        long queuedBytes;

        /** {@code droppable}: a write or the commit, dropped when the write ends early; {@code piece}: a write's body piece. */
        private record Op(StoreCall call, StoreCall alsoCall, long bytes, Callable<Object> body,
                          BiConsumer<Object, Throwable> then, boolean droppable, HttpContent piece) {
        }

        <T> void submit(StoreCall call, long bytes, Callable<T> body, BiConsumer<? super T, Throwable> then) {
            add(call, call, bytes, body, then, false, null);
        }

        <T> void submit(StoreCall call, StoreCall alsoCall, long bytes, Callable<T> body,
                        BiConsumer<? super T, Throwable> then) {
            add(call, alsoCall, bytes, body, then, false, null);
        }

        /** Submits the write of {@code piece}, which stays the caller's (see {@link #dropQueued}). */
        <T> void submit(StoreCall call, StoreCall alsoCall, long bytes, Callable<T> body,
                        BiConsumer<? super T, Throwable> then, HttpContent piece) {
            add(call, alsoCall, bytes, body, then, true, piece);
        }

        /** Submits a call dropped with the writes when the write ends early ({@code droppable} true: the commit). */
        <T> void submit(StoreCall call, StoreCall alsoCall, long bytes, Callable<T> body,
                        BiConsumer<? super T, Throwable> then, boolean droppable) {
            add(call, alsoCall, bytes, body, then, droppable, null);
        }

        @SuppressWarnings("unchecked")
        private <T> void add(StoreCall call, StoreCall alsoCall, long bytes, Callable<T> body,
                             BiConsumer<? super T, Throwable> then, boolean droppable, HttpContent piece) {
            ops.addLast(new Op(call, alsoCall, bytes, (Callable<Object>) body,
                    (BiConsumer<Object, Throwable>) then, droppable, piece));
            queuedBytes += bytes;
            next();
        }

        /** Runs {@code r} on the origin loop once every call submitted so far has finished. */
        void afterAll(Runnable r) {
            submit(StoreCall.RELEASE, 0, () -> null, (ok, err) -> r.run());
        }

        /**
         * Drops the writes and the commit not started yet; returns the dropped writes' pieces in
         * order, which the caller now owns (to release, or to pass on).
         */
        List<HttpContent> dropQueued() {
            List<HttpContent> pieces = new ArrayList<>();
            ops.removeIf(op -> {
                if (!op.droppable) {
                    return false;
                }
                queuedBytes -= op.bytes;
                if (op.piece != null) {
                    pieces.add(op.piece);
                }
                return true;
            });
            return pieces;
        }

        private void next() {
            while (!running && !ops.isEmpty()) {
                Op op = ops.pollFirst();
                running = true;
                if (op.piece != null && !ops.isEmpty() && ops.peekFirst().piece != null) {
                    writeBatch(op);
                    continue;
                }
                store.call(op.call, op.alsoCall, originLoop, op.body, (result, err) -> {
                    queuedBytes -= op.bytes;
                    running = false;
                    op.then.accept(result, err);
                    next();
                });
            }
        }

        /**
         * Writes {@code first} and the body pieces queued right behind it (up to {@link #WRITE_AHEAD} bytes) in one
         * store call, in order: pieces arrive while a write runs, and one call for all of them is one hand-off to the
         * write lane and back instead of one per piece (each costs a thread wake-up and a context switch: a 10 MB
         * fill arrives in about 160 pieces of 64 KiB). Each piece's own continuation then runs as if it had been
         * written alone; should piece k fail, the pieces after it go back to the head of the queue unwritten (so
         * {@link #dropQueued} hands them over in order) before piece k's continuation sees the failure.
         */
        private void writeBatch(Op first) {
            List<Op> batch = new ArrayList<>();
            batch.add(first);
            long bytes = first.bytes;
            while (!ops.isEmpty() && ops.peekFirst().piece != null && bytes + ops.peekFirst().bytes <= WRITE_AHEAD) {
                Op op = ops.pollFirst();
                batch.add(op);
                bytes += op.bytes;
            }
            store.call(StoreCall.WRITE, originLoop, () -> {
                for (int i = 0; i < batch.size(); i++) {
                    try {
                        batch.get(i).body.call();
                    } catch (Exception e) {
                        return new BatchOutcome(i, e);
                    }
                }
                return new BatchOutcome(batch.size(), null);
            }, (outcome, err) -> {
                int written = outcome == null ? 0 : outcome.written();
                Throwable failure = outcome == null ? err : outcome.failure();
                for (int i = batch.size() - 1; i > written; i--) {
                    ops.addFirst(batch.get(i)); // not attempted: queued again, still counted in queuedBytes
                }
                // still running while the continuations run: one of them may read on from the origin and queue
                // more, which must not start before a failed piece's continuation has dropped what follows it
                for (int i = 0; i < Math.min(written + 1, batch.size()); i++) {
                    Op op = batch.get(i);
                    queuedBytes -= op.bytes;
                    op.then.accept(null, i < written ? null : failure);
                }
                running = false;
                next();
            });
        }
    }

    /** How far a batch of writes got: {@code written} pieces, then {@code failure} (null when all were written). */
    private record BatchOutcome(int written, Throwable failure) {
    }
}
