package org.edgelab.cache.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.edgelab.cache.admin.CacheStats.Result;
import org.edgelab.cache.admin.PhaseTimes;
import org.edgelab.cache.fetch.FetchRegistry;
import org.edgelab.cache.fetch.FetchWaiter;
import org.edgelab.cache.fetch.FillTail;
import org.edgelab.cache.fetch.VariantLookup;
import org.edgelab.cache.http.CacheControl;
import org.edgelab.cache.http.Freshness;
import org.edgelab.cache.http.Storability;
import org.edgelab.cache.origin.OriginException;
import org.edgelab.cache.origin.OriginExchange;
import org.edgelab.cache.origin.OriginRequests;
import org.edgelab.cache.origin.OriginResponseListener;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoredObject;

/**
 * Answers one client request, as a sequence of steps held in one {@link Step} (like Varnish's
 * request state machine): {@code LOOKUP} (find the object or variant in the store, on the store's
 * read lane when lookups may block), {@code AWAIT_FILL} (wait for a shared
 * {@link org.edgelab.cache.fetch.Fetch}: a miss or a revalidation), {@code DELIVER} (answer from a
 * stored object: {@link Delivery}), {@code PASS} (forward an origin response unstored:
 * {@link PassThrough}; unsafe and other methods, non-storable responses) and {@code DONE}.
 * Invalidation after unsafe methods (any but GET, HEAD, OPTIONS and TRACE, also unknown ones: RFC
 * 9111 §4.4) happens on the way through {@code PASS}. Confined to the client channel's event loop:
 * fetch callbacks and store outcomes hop onto it.
 */
final class RequestExchange implements FetchWaiter {

    private static final System.Logger LOG = System.getLogger(RequestExchange.class.getName());
    /** Lookups before a request that keeps racing finishing fills fetches on its own. */
    private static final int MAX_LOOKUPS = 3;

    /** Where the exchange is. Moves forward only, except a revalidated or stale-served fill looking up again. */
    enum Step { NEW, LOOKUP, AWAIT_FILL, DELIVER, PASS, DONE }

    private final CacheRequestHandler conn;
    private final ServerContext sc;
    private final Channel channel;
    private final HttpRequest request;
    private final RequestTarget target;
    private final boolean head;
    private final boolean keepAlive;
    private final HttpResponseStatus rejectStatus;
    private final String rejectReason;
    private ByteBuf body;
    private CacheKey primaryKey;
    private Step step = Step.NEW;
    private Delivery delivery;
    private PassThrough pass;
    private long startNanos;
    private int lookups;
    /** Whether a stored object was already found unreadable before its head went out. */
    private boolean unreadableOnce;

    /** {@code request} has been rewritten to {@code target} ({@link RequestTarget#applyTo}). */
    RequestExchange(CacheRequestHandler conn, ServerContext sc, Channel channel, HttpRequest request,
                    RequestTarget target) {
        this(conn, sc, channel, request, target, null, null);
    }

    private RequestExchange(CacheRequestHandler conn, ServerContext sc, Channel channel, HttpRequest request,
                            RequestTarget target, HttpResponseStatus rejectStatus, String rejectReason) {
        this.conn = conn;
        this.sc = sc;
        this.channel = channel;
        this.request = request;
        this.target = target;
        this.head = HttpMethod.HEAD.equals(request.method());
        this.keepAlive = rejectStatus == null && HttpUtil.isKeepAlive(request);
        this.rejectStatus = rejectStatus;
        this.rejectReason = rejectReason;
    }

    /** Returns an exchange that answers a malformed request with an error and closes the connection. */
    static RequestExchange rejection(CacheRequestHandler conn, ServerContext sc, Channel channel, HttpRequest req,
                                     HttpResponseStatus status, String reason) {
        return new RequestExchange(conn, sc, channel, req, null, status, reason);
    }

    boolean isRejection() {
        return rejectStatus != null;
    }

    HttpRequest request() {
        return request;
    }

    ServerContext context() {
        return sc;
    }

    Channel channel() {
        return channel;
    }

    boolean isHead() {
        return head;
    }

    boolean keepAlive() {
        return keepAlive;
    }

    long startNanos() {
        return startNanos;
    }

    boolean isFinished() {
        return step == Step.DONE;
    }

    /** Returns the current step (for tests). */
    Step step() {
        return step;
    }

    /** Sets the collected request body (owned), for methods that have one. */
    void body(ByteBuf b) {
        this.body = b;
    }

    @Override
    public HttpHeaders requestHeaders() {
        return request.headers();
    }

    // ---- NEW: what kind of request is this?

    /** Starts answering; the response is written now or later, then the connection is told. */
    void start() {
        startNanos = System.nanoTime();
        sc.stats().request();
        if (rejectStatus != null) {
            sendError(rejectStatus, rejectReason, Result.PASS);
            return;
        }
        HttpMethod m = request.method();
        if (!HttpMethod.GET.equals(m) && !HttpMethod.HEAD.equals(m)) {
            pass();
            return;
        }
        Optional<CacheKey> key = CacheKeys.primary(target);
        if (key.isEmpty()) {
            pass();
            return;
        }
        primaryKey = key.get();
        CacheControl requestCc = CacheControl.of(request.headers());
        if (request.headers().contains(HttpHeaderNames.AUTHORIZATION) || requestCc.noStore()) {
            fillAlone(null, null);
            return;
        }
        lookup(requestCc);
    }

    // ---- LOOKUP

    /**
     * Looks the request up (following a variant marker) where lookups may block, then continues
     * here: a fresh object is delivered, a stale one revalidated, a missing one filled.
     */
    private void lookup(CacheControl requestCc) {
        step = Step.LOOKUP;
        lookups++;
        long mark = sc.fetches().mark(primaryKey);
        sc.store().call(StoreCall.LOOKUP, StoreCall.RELEASE, channel.eventLoop(),
                () -> VariantLookup.lookup(sc.store().store(), primaryKey, request.headers()),
                (found, err) -> {
                    if (step == Step.DONE) {
                        if (found != null) {
                            sc.store().release(found.object());
                        }
                        return;
                    }
                    if (err != null) {
                        LOG.log(System.Logger.Level.WARNING, "store lookup of " + primaryKey + " failed", err);
                        fillAlone(null, null);
                    } else {
                        looked(found, requestCc, mark);
                    }
                });
    }

    private void looked(VariantLookup.Found found, CacheControl requestCc, long mark) {
        if (found.key().isEmpty()) {
            fillAlone(null, null); // the variant's key would be too long: never stored, never shared
            return;
        }
        StoredObject obj = found.object();
        CacheKey key = found.key().get();
        if (obj != null) {
            Freshness freshness = Freshness.of(obj.metadata(), sc.config().clock().millis());
            if (freshness.satisfies(requestCc)) {
                deliver(obj, Result.HIT);
                return;
            }
            ObjectMetadata stale = obj.metadata();
            sc.store().release(obj);
            awaitFill(key, stale, requestCc, mark);
            return;
        }
        if (requestCc.onlyIfCached()) {
            sendError(HttpResponseStatus.GATEWAY_TIMEOUT, "only-if-cached and not in cache", Result.MISS);
            return;
        }
        awaitFill(key, null, requestCc, mark);
    }

    /** Looks up again after a fill that revalidated (or may serve stale): delivers what is stored, or fetches alone. */
    private void lookupAgain(Result result) {
        step = Step.LOOKUP;
        sc.store().call(StoreCall.LOOKUP, StoreCall.RELEASE, channel.eventLoop(),
                () -> VariantLookup.lookup(sc.store().store(), primaryKey, request.headers()),
                (found, err) -> {
                    StoredObject obj = found == null ? null : found.object();
                    if (step == Step.DONE) {
                        sc.store().release(obj);
                        return;
                    }
                    if (err != null) {
                        LOG.log(System.Logger.Level.WARNING, "store lookup of " + primaryKey + " failed", err);
                    }
                    if (obj != null) {
                        deliver(obj, result);
                    } else {
                        fillAlone(null, null);
                    }
                });
    }

    // ---- AWAIT_FILL

    /** Joins or starts the fill of {@code key}; looks up again when a fill of it finished during the lookup. */
    private void awaitFill(CacheKey key, ObjectMetadata stale, CacheControl requestCc, long mark) {
        step = Step.AWAIT_FILL;
        FetchRegistry.Joined joined = sc.fetches().joinOrStart(channel.eventLoop(), key, primaryKey, request, stale,
                this, mark);
        if (joined == FetchRegistry.Joined.LOOK_AGAIN) {
            if (lookups < MAX_LOOKUPS) {
                lookup(requestCc);
            } else {
                fillAlone(null, null);
            }
        }
    }

    private void fillAlone(ObjectMetadata stale, CacheKey staleKey) {
        step = Step.AWAIT_FILL;
        sc.fetches().startAlone(channel.eventLoop(), primaryKey, request, stale, staleKey, this);
    }

    @Override
    public void stored(StoredObject follower, Role role, java.util.concurrent.CompletionStage<Void> settled,
                       FillTail tail) {
        long handedOver = System.nanoTime();
        onLoop(() -> {
            if (role == Role.INITIATOR) {
                sc.stats().phases().since(PhaseTimes.Phase.MISS_HANDOFF, handedOver);
            }
            if (step != Step.AWAIT_FILL) {
                tail.close();
                sc.store().release(follower);
            } else {
                deliver(follower, role == Role.INITIATOR ? Result.MISS : Result.HIT_COALESCED, settled, tail);
            }
        });
    }

    @Override
    public void storedAlready(Role role) {
        onLoop(() -> {
            if (step == Step.AWAIT_FILL) {
                lookupAgain(role == Role.INITIATOR ? Result.MISS : Result.HIT_COALESCED);
            }
        });
    }

    @Override
    public void revalidated(Role role) {
        onLoop(() -> {
            if (step == Step.AWAIT_FILL) {
                lookupAgain(role == Role.INITIATOR ? Result.HIT_REVALIDATED : Result.HIT_COALESCED);
            }
        });
    }

    @Override
    public void staleOnError(Role role) {
        onLoop(() -> {
            if (step == Step.AWAIT_FILL) {
                lookupAgain(Result.HIT_STALE);
            }
        });
    }

    @Override
    public void failed(int status, String reason) {
        onLoop(() -> {
            if (step == Step.AWAIT_FILL) {
                sendError(HttpResponseStatus.valueOf(status), "origin failure: " + reason, Result.MISS);
            }
        });
    }

    @Override
    public void retryAlone() {
        onLoop(() -> {
            if (step == Step.AWAIT_FILL) {
                fillAlone(null, null);
            }
        });
    }

    @Override
    public OriginResponseListener passThrough(HttpResponse response, OriginExchange exchange, boolean shared) {
        if (channel.eventLoop().inEventLoop()) {
            return startPassThrough(response, exchange, false, !shared);
        }
        // Called on another client's origin loop: run everything on this channel's loop, in order.
        OriginResponseListener[] inner = new OriginResponseListener[1];
        channel.eventLoop().execute(() -> inner[0] = startPassThrough(response, exchange, false, !shared));
        return new OriginResponseListener() {
            @Override
            public void onResponse(HttpResponse r, OriginExchange e) {
                throw new IllegalStateException("headers already received");
            }

            @Override
            public void onContent(HttpContent content, boolean last) {
                channel.eventLoop().execute(() -> inner[0].onContent(content, last));
            }

            @Override
            public void onFailure(OriginException cause, boolean headersReceived) {
                channel.eventLoop().execute(() -> inner[0].onFailure(cause, headersReceived));
            }
        };
    }

    private void onLoop(Runnable r) {
        if (channel.eventLoop().inEventLoop()) {
            r.run();
        } else {
            channel.eventLoop().execute(r);
        }
    }

    // ---- DELIVER

    private void deliver(StoredObject obj, Result result) {
        deliver(obj, result, null, null);
    }

    private void deliver(StoredObject obj, Result result, java.util.concurrent.CompletionStage<Void> settled,
                         FillTail tail) {
        step = Step.DELIVER;
        delivery = new Delivery(this, obj, result, settled, tail);
        delivery.start();
    }

    /**
     * The stored object being delivered could not be read before its head went out (nothing was
     * sent). Damage the engine found ({@link CorruptObjectException}: it dropped the object) makes
     * this request a miss: it looks up again and joins or starts a fill. Another failure fetches
     * alone (the fill replaces the stored object); a second time, a 502.
     */
    void storedObjectUnreadable(Throwable cause) {
        delivery = null;
        if (step == Step.DONE) {
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "stored " + primaryKey + " is unreadable; answering as a miss: " + cause);
        if (unreadableOnce) {
            sendError(HttpResponseStatus.BAD_GATEWAY, "stored object unreadable", Result.MISS);
            return;
        }
        unreadableOnce = true;
        if (cause instanceof CorruptObjectException) {
            lookup(CacheControl.of(request.headers()));
        } else {
            fillAlone(null, null);
        }
    }

    // ---- PASS

    /** Forwards a request the cache does not answer (other methods, unkeyable targets) to the origin. */
    private void pass() {
        step = Step.PASS;
        boolean sendsLength = sendsContentLength(request.method());
        HttpRequest forward = OriginRequests.forward(request, sc.config().upstreamHost(), body != null);
        ByteBuf b = body;
        body = null;
        if (b != null && b.isReadable()) {
            HttpUtil.setContentLength(forward, b.readableBytes());
        } else {
            if (b != null) {
                b.release();
                b = null;
            }
            if (sendsLength) {
                HttpUtil.setContentLength(forward, 0);
            }
        }
        sc.stats().originRequest();
        sc.origin().send(channel.eventLoop(), forward, b, new OriginResponseListener() {
            private OriginResponseListener downstream;

            private java.util.ArrayDeque<HttpContent> early;

            @Override
            public void onResponse(HttpResponse response, OriginExchange exchange) {
                if (!Storability.invalidates(request.method(), response.status().code())) {
                    downstream = startPassThrough(response, exchange, true, true);
                    return;
                }
                // Invalidate before the client hears the answer, so its next request cannot hit the old object.
                early = new java.util.ArrayDeque<>();
                exchange.setReading(false);
                invalidate(response.headers(), () -> {
                    if (early == null) {
                        return; // the origin failed meanwhile, and the client was answered
                    }
                    downstream = startPassThrough(response, exchange, true, true);
                    HttpContent c;
                    while ((c = early.pollFirst()) != null) {
                        downstream.onContent(c, c instanceof io.netty.handler.codec.http.LastHttpContent);
                    }
                    early = null;
                    exchange.setReading(true);
                });
            }

            @Override
            public void onContent(HttpContent content, boolean last) {
                if (early != null) {
                    early.addLast(content);
                } else {
                    downstream.onContent(content, last);
                }
            }

            @Override
            public void onFailure(OriginException cause, boolean headersReceived) {
                sc.stats().originError();
                if (early != null) {
                    early.forEach(HttpContent::release);
                    early = null;
                }
                if (downstream != null) {
                    downstream.onFailure(cause, headersReceived);
                } else if (step != Step.DONE) {
                    sendError(cause.kind() == OriginException.Kind.TIMEOUT ? HttpResponseStatus.GATEWAY_TIMEOUT
                            : HttpResponseStatus.BAD_GATEWAY, cause.getMessage(), Result.PASS);
                }
            }
        });
    }

    private OriginResponseListener startPassThrough(HttpResponse response, OriginExchange exchange,
                                                    boolean sameMethod, boolean countOriginBytes) {
        if (step == Step.DONE) {
            exchange.abort();
            return DISCARD;
        }
        step = Step.PASS;
        pass = new PassThrough(this, response, exchange, sameMethod, countOriginBytes);
        return pass;
    }

    /** The methods whose requests are forwarded with an explicit Content-Length, 0 when they carry no body. */
    private static boolean sendsContentLength(HttpMethod m) {
        return HttpMethod.POST.equals(m) || HttpMethod.PUT.equals(m) || HttpMethod.DELETE.equals(m)
                || HttpMethod.PATCH.equals(m);
    }

    /**
     * Removes the target's stored object and those named by Location and Content-Location with
     * the target's origin (RFC 9111 §4.4), where removals may block; then runs {@code then} on this loop.
     */
    private void invalidate(HttpHeaders responseHeaders, Runnable then) {
        List<CacheKey> keys = new java.util.ArrayList<>();
        CacheKeys.primary(target).ifPresent(keys::add);
        for (CharSequence name : List.of(HttpHeaderNames.LOCATION, HttpHeaderNames.CONTENT_LOCATION)) {
            String value = responseHeaders.get(name);
            if (value != null) {
                CacheKeys.sameOrigin(target, value).ifPresent(keys::add);
            }
        }
        sc.store().call(StoreCall.REMOVE, channel.eventLoop(), () -> {
            for (CacheKey key : keys) {
                try {
                    sc.store().store().remove(key);
                } catch (java.io.IOException | RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "cannot invalidate " + key, e);
                }
            }
            return null;
        }, (ok, err) -> then.run());
    }

    private static final OriginResponseListener DISCARD = new OriginResponseListener() {
        @Override
        public void onResponse(HttpResponse response, OriginExchange exchange) {
        }

        @Override
        public void onContent(HttpContent content, boolean last) {
            content.release();
        }

        @Override
        public void onFailure(OriginException cause, boolean headersReceived) {
        }
    };

    // ---- responses the exchange writes itself

    /** Adds X-Cache, Via and the connection's fate to a response head. */
    void decorate(HttpResponse resp, Result result) {
        HttpHeaders h = resp.headers();
        h.set("X-Cache", result.header());
        h.add(HttpHeaderNames.VIA, OriginRequests.VIA);
        if (!keepAlive) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }

    /** Answers with a short plain-text error (never stored), then the exchange is done. */
    void sendError(HttpResponseStatus status, String message, Result result) {
        byte[] text = (status.code() + " " + status.reasonPhrase() + ": " + message + "\n")
                .getBytes(StandardCharsets.UTF_8);
        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(text));
        resp.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        resp.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, text.length);
        resp.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        resp.headers().set(HttpHeaderNames.AGE, 0);
        decorate(resp, result);
        sc.stats().response(result, status.code());
        step = Step.DELIVER;
        channel.writeAndFlush(resp).addListener(f -> done(f.isSuccess() && keepAlive));
    }

    // ---- DONE

    /** The client channel's writability changed: resume the body or the origin. */
    void writabilityChanged() {
        if (step == Step.DELIVER && delivery != null) {
            delivery.writabilityChanged();
        } else if (step == Step.PASS && pass != null) {
            pass.writabilityChanged();
        }
    }

    /** The response is written (or abandoned): the connection goes on with its next request, or closes. */
    void done(boolean keepConnection) {
        if (step == Step.DONE) {
            return;
        }
        step = Step.DONE;
        conn.exchangeDone(this, keepConnection);
    }

    /** The client went away: release everything this exchange holds. */
    void abandon() {
        step = Step.DONE;
        if (delivery != null) {
            delivery.abandon();
            delivery = null;
        }
        if (pass != null) {
            pass.abandon();
            pass = null;
        }
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
