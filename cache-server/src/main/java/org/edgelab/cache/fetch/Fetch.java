package org.edgelab.cache.fetch;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoredObject;

/**
 * One origin request that fills (or revalidates) one cache entry, shared by every client that
 * asks for the entry while it is in flight. Before the response headers arrive, clients queue as
 * waiters; once a storable response is being written, each waiter and each later joiner follows
 * the in-progress write at its own pace ({@link ObjectWriter#follow()}). The body is committed only
 * when it is complete and matches its Content-Length; any failure aborts the write, which ends the
 * followers' reads with an error so that no client sees a truncated body as complete.
 *
 * <p>Thread-safety: origin callbacks run on the origin connection's event loop; {@link #join} may be
 * called from any loop; shared state is guarded by this object's monitor, and waiter callbacks are
 * made outside it.
 */
public final class Fetch implements OriginResponseListener {

    private static final System.Logger LOG = System.getLogger(Fetch.class.getName());

    private enum State { AWAITING_HEADERS, STORING, DONE }

    private final FetchRegistry registry;
    private final CacheKey registryKey;
    private final CacheKey primaryKey;
    private final HttpRequest initiatorRequest;
    private final ObjectMetadata stale;
    private final CacheKey staleKey;
    private final List<FetchWaiter> waiters = new ArrayList<>(4);
    private final long requestTimeMillis = System.currentTimeMillis();
    private final long startNanos = System.nanoTime();
    private final EventLoop originLoop;

    private State state = State.AWAITING_HEADERS;
    private ObjectWriter writer;
    private ObjectMetadata metadata;
    private long expectedLength = -1;
    private List<String> varyFields = List.of();
    private OriginResponseListener passThrough;
    private boolean sharedBody;
    private OriginExchange exchange;

    Fetch(FetchRegistry registry, CacheKey registryKey, CacheKey primaryKey, HttpRequest initiatorRequest,
          ObjectMetadata stale, CacheKey staleKey, FetchWaiter initiator, EventLoop originLoop) {
        this.originLoop = originLoop;
        this.registry = registry;
        this.registryKey = registryKey;
        this.primaryKey = primaryKey;
        this.initiatorRequest = initiatorRequest;
        this.stale = stale;
        this.staleKey = staleKey;
        this.waiters.add(initiator);
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
        StoredObject follower;
        synchronized (this) {
            switch (state) {
                case AWAITING_HEADERS -> {
                    waiters.add(waiter);
                    return true;
                }
                case STORING -> {
                    if (!sameVariant(waiter)) {
                        return false;
                    }
                    follower = writer.follow();
                }
                default -> {
                    return false;
                }
            }
        }
        waiter.stored(follower, FetchWaiter.Role.COALESCED);
        return true;
    }

    private boolean sameVariant(FetchWaiter w) {
        return sameVariant(varyFields, w);
    }

    private boolean sameVariant(List<String> fields, FetchWaiter w) {
        if (fields.isEmpty()) {
            return true;
        }
        HttpHeaders mine = initiatorRequest.headers();
        return VaryKeys.secondaryKey(fields, mine).equals(VaryKeys.secondaryKey(fields, w.requestHeaders()));
    }

    @Override
    public void onResponse(HttpResponse response, OriginExchange exchange) {
        this.exchange = exchange;
        registry.stats().phases().since(PhaseTimes.Phase.MISS_ORIGIN_HEADERS, startNanos);
        long responseTime = System.currentTimeMillis();
        int status = response.status().code();
        HttpHeaders headers = response.headers();
        if (stale != null && status == 304 && StoredConditionals.notModifiedMatches(stale, headers)) {
            refreshStale(headers, responseTime);
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
        Optional<CacheKey> storeKey = Optional.empty();
        List<String> vary = VaryKeys.varyFields(headers).orElse(List.of());
        if (decision.storable() && framed) {
            storeKey = vary.isEmpty() ? Optional.of(primaryKey)
                    : VariantMarkers.variantKey(primaryKey, VaryKeys.secondaryKey(vary, initiatorRequest.headers()));
        }
        if (storeKey.isPresent()) {
            List<HeaderField> stored = HopByHop.storedHeaders(headers);
            long length = HttpUtil.getContentLength(response, ObjectMetadata.UNKNOWN_LENGTH);
            long expiresAt = Freshness.expiresAtMillis(status, stored, requestTimeMillis, responseTime);
            ObjectMetadata meta = new ObjectMetadata(status, stored, length, requestTimeMillis, responseTime, expiresAt);
            try {
                if (!vary.isEmpty()) {
                    writeMarker(vary, responseTime);
                }
                ObjectWriter w = registry.store().begin(storeKey.get(), meta);
                startStoring(w, meta, length, vary);
                return;
            } catch (StorageFullException full) {
                registry.stats().storeRefusal();
                LOG.log(System.Logger.Level.DEBUG, "store refused {0}: {1}", storeKey.get(), full.getMessage());
            } catch (IOException | RuntimeException e) {
                registry.stats().storeRefusal();
                LOG.log(System.Logger.Level.WARNING, "cannot store " + storeKey.get(), e);
            }
            // Shareable but refused by the store: stream it to every client of the same variant.
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
            return;
        }
        // Not stored: the initiator gets the response directly, the others fetch on their own.
        List<WaiterRole> all = finishWithoutBody();
        FetchWaiter initiator = all.get(0).waiter;
        for (int i = 1; i < all.size(); i++) {
            all.get(i).waiter.retryAlone();
        }
        passThrough = initiator.passThrough(response, exchange, false);
    }

    private void writeMarker(List<String> vary, long now) throws IOException {
        try (ObjectWriter m = registry.store().begin(primaryKey, VariantMarkers.marker(vary, now))) {
            m.commit();
        }
    }

    private void startStoring(ObjectWriter w, ObjectMetadata meta, long length, List<String> vary) {
        List<WaiterRole> attached = new ArrayList<>();
        List<FetchWaiter> others = new ArrayList<>();
        synchronized (this) {
            writer = w;
            metadata = meta;
            expectedLength = length;
            varyFields = vary;
            state = State.STORING;
            for (int i = 0; i < waiters.size(); i++) {
                FetchWaiter fw = waiters.get(i);
                if (i == 0 || sameVariant(fw)) {
                    attached.add(new WaiterRole(fw, i == 0 ? FetchWaiter.Role.INITIATOR : FetchWaiter.Role.COALESCED,
                            w.follow()));
                } else {
                    others.add(fw);
                }
            }
            waiters.clear();
        }
        for (WaiterRole wr : attached) {
            wr.waiter.stored(wr.follower, wr.role);
        }
        others.forEach(FetchWaiter::retryAlone);
    }

    private void refreshStale(HttpHeaders notModified, long responseTime) {
        List<HeaderField> merged = StoredConditionals.mergeNotModified(stale.headers(), notModified);
        long expiresAt = Freshness.expiresAtMillis(stale.status(), merged, requestTimeMillis, responseTime);
        try {
            registry.store().updateMetadata(staleKey, stale.refreshed(merged, requestTimeMillis, responseTime, expiresAt));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot refresh the headers of " + staleKey, e);
        }
        for (WaiterRole wr : finishWithoutBody()) {
            wr.waiter.revalidated(wr.role);
        }
    }

    private boolean mayServeStale() {
        Freshness f = Freshness.of(stale, System.currentTimeMillis());
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
        ObjectWriter w;
        synchronized (this) {
            w = state == State.STORING ? writer : null;
        }
        if (w == null) {
            content.release();
            return;
        }
        try {
            ByteBuf buf = content.content();
            int n = buf.readableBytes();
            if (n > 0) {
                registry.stats().bytesFromOrigin(n);
                if (buf.nioBufferCount() == 1) {
                    w.write(buf.nioBuffer());
                } else {
                    for (ByteBuffer b : buf.nioBuffers()) {
                        w.write(b);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            content.release();
            if (e instanceof StorageFullException) {
                registry.stats().storeRefusal();
            }
            LOG.log(System.Logger.Level.DEBUG, "store write of {0} failed: {1}", w.key(), e.toString());
            abortStoring();
            exchange.abort();
            return;
        }
        content.release();
        if (last) {
            finishStoring();
        }
    }

    private void finishStoring() {
        ObjectWriter w;
        synchronized (this) {
            w = writer;
            state = State.DONE;
        }
        try {
            long written = w.written();
            if (expectedLength >= 0 && written != expectedLength) {
                LOG.log(System.Logger.Level.WARNING, "origin sent {0} bytes of {1} for {2}: not stored",
                        written, expectedLength, w.key());
                w.abort();
            } else {
                w.commit(metadata.withLength(written));
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "commit of " + w.key() + " failed", e);
            w.abort();
        } finally {
            registry.finished(this);
        }
    }

    private void abortStoring() {
        ObjectWriter w;
        synchronized (this) {
            w = writer;
            state = State.DONE;
        }
        w.abort();
        registry.finished(this);
    }

    @Override
    public void onFailure(OriginException cause, boolean headersReceived) {
        registry.stats().originError();
        if (passThrough != null) {
            passThrough.onFailure(cause, headersReceived);
            return;
        }
        State s;
        synchronized (this) {
            s = state;
        }
        if (s == State.STORING) {
            LOG.log(System.Logger.Level.DEBUG, "origin failed mid-body: {0}", cause.getMessage());
            abortStoring();
            return;
        }
        if (s == State.DONE) {
            return;
        }
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
                        i == 0 ? FetchWaiter.Role.INITIATOR : FetchWaiter.Role.COALESCED, null));
            }
            waiters.clear();
        }
        registry.finished(this);
        return out;
    }

    private record WaiterRole(FetchWaiter waiter, FetchWaiter.Role role, StoredObject follower) {
    }
}
