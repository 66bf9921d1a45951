package org.edgelab.cache.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
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
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.cache.admin.CacheStats.Result;
import org.edgelab.cache.admin.PhaseTimes;
import org.edgelab.cache.fetch.FetchWaiter;
import org.edgelab.cache.fetch.VariantMarkers;
import org.edgelab.cache.http.CacheControl;
import org.edgelab.cache.http.Freshness;
import org.edgelab.cache.http.HopByHop;
import org.edgelab.cache.http.StoredConditionals;
import org.edgelab.cache.http.VaryKeys;
import org.edgelab.cache.origin.OriginException;
import org.edgelab.cache.origin.OriginExchange;
import org.edgelab.cache.origin.OriginRequests;
import org.edgelab.cache.origin.OriginResponseListener;
import org.edgelab.http.ByteRanges;
import org.edgelab.http.Conditionals;
import org.edgelab.http.MultipartByteranges;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.StoredObject;

/**
 * Answers one client request: from the store when a fresh object (or variant) is there, else
 * through a shared {@link org.edgelab.cache.fetch.Fetch} (miss or revalidation), or by proxying
 * (unsafe and other methods, non-storable responses). Handles client conditionals and ranges
 * against stored objects, HEAD from a stored GET, and invalidation after unsafe methods. Confined
 * to the client channel's event loop: fetch callbacks hop onto it.
 */
final class RequestExchange implements FetchWaiter {

    private static final System.Logger LOG = System.getLogger(RequestExchange.class.getName());

    /** Stored fields repeated in a 304 (RFC 9110 §15.4.5). */
    private static final Set<String> NOT_MODIFIED_FIELDS = Set.of("cache-control", "content-location", "date",
            "etag", "expires", "last-modified", "vary");

    private final CacheRequestHandler conn;
    private final ServerContext sc;
    private final Channel channel;
    private final HttpRequest request;
    private final boolean head;
    private final boolean keepAlive;
    private final HttpResponseStatus rejectStatus;
    private final String rejectReason;
    private ByteBuf body;
    private CacheKey primaryKey;
    private StoredObject object;
    private BodyStreamer streamer;
    private OriginExchange passExchange;
    private boolean finished;
    private long startNanos;

    RequestExchange(CacheRequestHandler conn, ServerContext sc, Channel channel, HttpRequest request) {
        this(conn, sc, channel, request, null, null);
    }

    private RequestExchange(CacheRequestHandler conn, ServerContext sc, Channel channel, HttpRequest request,
                            HttpResponseStatus rejectStatus, String rejectReason) {
        this.conn = conn;
        this.sc = sc;
        this.channel = channel;
        this.request = request;
        this.head = HttpMethod.HEAD.equals(request.method());
        this.keepAlive = rejectStatus == null && HttpUtil.isKeepAlive(request);
        this.rejectStatus = rejectStatus;
        this.rejectReason = rejectReason;
    }

    /** Returns an exchange that answers a malformed request with an error and closes the connection. */
    static RequestExchange rejection(CacheRequestHandler conn, ServerContext sc, Channel channel, HttpRequest req,
                                     HttpResponseStatus status, String reason) {
        return new RequestExchange(conn, sc, channel, req, status, reason);
    }

    boolean isRejection() {
        return rejectStatus != null;
    }

    HttpRequest request() {
        return request;
    }

    /** Sets the collected request body (owned), for methods that have one. */
    void body(ByteBuf b) {
        this.body = b;
    }

    @Override
    public HttpHeaders requestHeaders() {
        return request.headers();
    }

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
            proxyOther();
            return;
        }
        Optional<CacheKey> key = CacheKeys.primary(request, sc.config().originAuthority());
        if (key.isEmpty()) {
            proxyOther();
            return;
        }
        primaryKey = key.get();
        CacheControl requestCc = CacheControl.of(request.headers());
        if (request.headers().contains(HttpHeaderNames.AUTHORIZATION) || requestCc.noStore()) {
            sc.fetches().startAlone(channel.eventLoop(), primaryKey, request, null, null, this);
            return;
        }
        try {
            lookupAndServe(requestCc);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "store lookup of " + primaryKey + " failed", e);
            sc.fetches().startAlone(channel.eventLoop(), primaryKey, request, null, null, this);
        }
    }

    private void lookupAndServe(CacheControl requestCc) throws IOException {
        CacheKey key = primaryKey;
        StoredObject found = sc.store().lookup(key).orElse(null);
        if (found != null && VariantMarkers.isMarker(found.metadata())) {
            List<String> fields = VaryKeys.varyFields(found.metadata()).orElse(List.of());
            found.close();
            found = null;
            Optional<CacheKey> variant = VariantMarkers.variantKey(primaryKey,
                    VaryKeys.secondaryKey(fields, request.headers()));
            if (variant.isEmpty()) {
                sc.fetches().startAlone(channel.eventLoop(), primaryKey, request, null, null, this);
                return;
            }
            key = variant.get();
            found = sc.store().lookup(key).orElse(null);
        }
        if (found != null) {
            Freshness freshness = Freshness.of(found.metadata(), System.currentTimeMillis());
            if (freshness.satisfies(requestCc)) {
                serveObject(found, Result.HIT);
                return;
            }
            ObjectMetadata stale = found.metadata();
            found.close();
            sc.fetches().joinOrStart(channel.eventLoop(), key, primaryKey, request, stale, this);
            return;
        }
        if (requestCc.onlyIfCached()) {
            sendError(HttpResponseStatus.GATEWAY_TIMEOUT, "only-if-cached and not in cache", Result.MISS);
            return;
        }
        sc.fetches().joinOrStart(channel.eventLoop(), key, primaryKey, request, null, this);
    }

    /** Looks the object up again (after a revalidation), following a variant marker. */
    private StoredObject relookup() throws IOException {
        StoredObject found = sc.store().lookup(primaryKey).orElse(null);
        if (found != null && VariantMarkers.isMarker(found.metadata())) {
            List<String> fields = VaryKeys.varyFields(found.metadata()).orElse(List.of());
            found.close();
            Optional<CacheKey> variant = VariantMarkers.variantKey(primaryKey,
                    VaryKeys.secondaryKey(fields, request.headers()));
            return variant.isEmpty() ? null : sc.store().lookup(variant.get()).orElse(null);
        }
        return found;
    }

    // ---- fetch callbacks (origin loop -> this loop) ----

    @Override
    public void stored(StoredObject follower, Role role) {
        long handedOver = System.nanoTime();
        onLoop(() -> {
            if (role == Role.INITIATOR) {
                sc.stats().phases().since(PhaseTimes.Phase.MISS_HANDOFF, handedOver);
            }
            if (finished) {
                follower.close();
            } else {
                serveObject(follower, role == Role.INITIATOR ? Result.MISS : Result.HIT_COALESCED);
            }
        });
    }

    @Override
    public void revalidated(Role role) {
        onLoop(() -> serveAgain(role == Role.INITIATOR ? Result.HIT_REVALIDATED : Result.HIT_COALESCED));
    }

    @Override
    public void staleOnError(Role role) {
        onLoop(() -> serveAgain(Result.HIT_STALE));
    }

    private void serveAgain(Result result) {
        if (finished) {
            return;
        }
        try {
            StoredObject obj = relookup();
            if (obj != null) {
                serveObject(obj, result);
                return;
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "store lookup of " + primaryKey + " failed", e);
        }
        sc.fetches().startAlone(channel.eventLoop(), primaryKey, request, null, null, this);
    }

    @Override
    public void failed(int status, String reason) {
        onLoop(() -> {
            if (!finished) {
                sendError(HttpResponseStatus.valueOf(status), "origin failure: " + reason, Result.MISS);
            }
        });
    }

    @Override
    public void retryAlone() {
        onLoop(() -> {
            if (!finished) {
                sc.fetches().startAlone(channel.eventLoop(), primaryKey, request, null, null, this);
            }
        });
    }

    @Override
    public OriginResponseListener passThrough(HttpResponse response, OriginExchange exchange, boolean shared) {
        if (channel.eventLoop().inEventLoop()) {
            return startProxying(response, exchange, false, !shared);
        }
        // Called on another client's origin loop: run everything on this channel's loop, in order.
        OriginResponseListener[] inner = new OriginResponseListener[1];
        channel.eventLoop().execute(() -> inner[0] = startProxying(response, exchange, false, !shared));
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

    // ---- serving stored objects ----

    private void serveObject(StoredObject obj, Result result) {
        this.object = obj;
        ObjectMetadata meta = obj.metadata();
        boolean complete = obj.isComplete();
        long length = complete ? obj.availableLength() : meta.length();
        int status = meta.status();
        String range = request.headers().get(HttpHeaderNames.RANGE);
        if (status == 200 && !head && range != null && length < 0) {
            // Ranges need the total length: wait for the end of a body of unknown length.
            obj.awaitLength(Long.MAX_VALUE).whenComplete((n, err) -> onLoop(() -> {
                if (finished) {
                    return;
                }
                if (err != null) {
                    object = null;
                    obj.close();
                    sendError(HttpResponseStatus.BAD_GATEWAY, "origin failed mid-body", result);
                } else {
                    serveObject(obj, result);
                }
            }));
            return;
        }
        Conditionals.Outcome outcome = status / 100 == 2
                ? StoredConditionals.evaluate(request.method(), request.headers(), meta) : Conditionals.Outcome.SERVE;
        if (outcome == Conditionals.Outcome.NOT_MODIFIED) {
            sendStoredHeadersOnly(meta, HttpResponseStatus.NOT_MODIFIED, result, true);
            return;
        }
        if (outcome == Conditionals.Outcome.PRECONDITION_FAILED) {
            closeObject();
            sendError(HttpResponseStatus.PRECONDITION_FAILED, "precondition failed", result);
            return;
        }
        if (status == 200 && range != null && length >= 0
                && StoredConditionals.ifRangeMatches(request.headers().get(HttpHeaderNames.IF_RANGE), meta)) {
            ByteRanges.RangeRequest rr = ByteRanges.parse(range, length, sc.config().maxRanges());
            if (rr instanceof ByteRanges.Unsatisfiable u) {
                HttpResponse resp = storedResponse(meta, HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE, result);
                resp.headers().set(HttpHeaderNames.CONTENT_RANGE, u.contentRange());
                resp.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
                closeObject();
                sendHeadersOnly(resp, result);
                return;
            }
            if (rr instanceof ByteRanges.Satisfiable s) {
                serveRanges(meta, s.ranges(), length, result);
                return;
            }
        }
        HttpResponse resp = storedResponse(meta, HttpResponseStatus.valueOf(status), result);
        if (length >= 0) {
            HttpUtil.setContentLength(resp, length);
        } else if (!head) {
            HttpUtil.setTransferEncodingChunked(resp, true);
        }
        if (head || status == 204 || length == 0) {
            closeObject();
            sendHeadersOnly(resp, result);
            return;
        }
        stream(resp, List.of(new BodyStreamer.Part(null, 0, length)), null, result);
    }

    private void serveRanges(ObjectMetadata meta, List<ByteRanges.ByteRange> ranges, long length, Result result) {
        HttpResponse resp = storedResponse(meta, HttpResponseStatus.PARTIAL_CONTENT, result);
        if (ranges.size() == 1) {
            ByteRanges.ByteRange r = ranges.get(0);
            resp.headers().set(HttpHeaderNames.CONTENT_RANGE, r.contentRange(length));
            HttpUtil.setContentLength(resp, r.length());
            if (head) {
                closeObject();
                sendHeadersOnly(resp, result);
                return;
            }
            stream(resp, List.of(new BodyStreamer.Part(null, r.first(), r.last() + 1)), null, result);
            return;
        }
        String partType = meta.header("Content-Type").orElse(null);
        MultipartByteranges mp = MultipartByteranges.of(ranges, length, partType);
        resp.headers().set(HttpHeaderNames.CONTENT_TYPE, mp.contentType());
        HttpUtil.setContentLength(resp, mp.contentLength());
        if (head) {
            closeObject();
            sendHeadersOnly(resp, result);
            return;
        }
        List<BodyStreamer.Part> parts = new ArrayList<>(ranges.size());
        for (int i = 0; i < ranges.size(); i++) {
            ByteRanges.ByteRange r = ranges.get(i);
            parts.add(new BodyStreamer.Part(Unpooled.wrappedBuffer(mp.partHeader(i)), r.first(), r.last() + 1));
        }
        stream(resp, parts, Unpooled.wrappedBuffer(mp.trailer()), result);
    }

    /** Builds the response head for a stored object: its stored fields plus Age, X-Cache, Via. */
    private HttpResponse storedResponse(ObjectMetadata meta, HttpResponseStatus status, Result result) {
        HttpResponse resp = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
        HttpHeaders h = resp.headers();
        for (HeaderField f : meta.headers()) {
            h.add(f.name(), f.value());
        }
        h.remove(HttpHeaderNames.AGE);
        h.set(HttpHeaderNames.AGE, Freshness.of(meta, System.currentTimeMillis()).currentAgeSeconds());
        decorate(resp, result);
        return resp;
    }

    private void sendStoredHeadersOnly(ObjectMetadata meta, HttpResponseStatus status, Result result,
                                       boolean notModified) {
        HttpResponse resp = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
        for (HeaderField f : meta.headers()) {
            if (!notModified || NOT_MODIFIED_FIELDS.contains(f.name().toLowerCase(java.util.Locale.ROOT))) {
                resp.headers().add(f.name(), f.value());
            }
        }
        resp.headers().set(HttpHeaderNames.AGE, Freshness.of(meta, System.currentTimeMillis()).currentAgeSeconds());
        decorate(resp, result);
        closeObject();
        sendHeadersOnly(resp, result);
    }

    private void decorate(HttpResponse resp, Result result) {
        HttpHeaders h = resp.headers();
        h.set("X-Cache", result.header());
        h.add(HttpHeaderNames.VIA, OriginRequests.VIA);
        if (!keepAlive) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }

    private void stream(HttpResponse resp, List<BodyStreamer.Part> parts, ByteBuf trailer, Result result) {
        sc.stats().response(result, resp.status().code());
        channel.write(resp);
        CacheStats stats = sc.stats();
        boolean fromCache = result.isHit();
        streamer = new BodyStreamer(channel, object, parts, trailer, n -> {
            stats.bytesToClients(n);
            if (fromCache) {
                stats.bytesFromCache(n);
            }
        }, complete -> {
            closeObject();
            if (!complete) {
                stats.truncated();
            }
            done(complete && keepAlive);
        }, sc.config().turnWriteBudget());
        // Timed at the head's write, before the body goes out: once pump() flushes, the client may
        // have the whole response (and read /stats) before this thread runs again.
        if (result == Result.HIT) {
            sc.stats().phases().since(PhaseTimes.Phase.HIT_FIRST_WRITE, startNanos);
        } else if (result == Result.MISS) {
            sc.stats().phases().since(PhaseTimes.Phase.MISS_FIRST_WRITE, startNanos);
        }
        streamer.pump();
    }

    private void sendHeadersOnly(HttpResponse resp, Result result) {
        sc.stats().response(result, resp.status().code());
        channel.write(resp);
        channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT)
                .addListener(f -> done(f.isSuccess() && keepAlive));
    }

    private void sendError(HttpResponseStatus status, String message, Result result) {
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
        channel.writeAndFlush(resp).addListener(f -> done(f.isSuccess() && keepAlive));
    }

    // ---- proxying ----

    private void proxyOther() {
        boolean unsafe = isUnsafe(request.method());
        HttpRequest forward = OriginRequests.forward(request, sc.config().originAuthority(), body != null);
        ByteBuf b = body;
        body = null;
        if (b != null && b.isReadable()) {
            HttpUtil.setContentLength(forward, b.readableBytes());
        } else {
            if (b != null) {
                b.release();
                b = null;
            }
            if (unsafe) {
                HttpUtil.setContentLength(forward, 0);
            }
        }
        sc.stats().originRequest();
        sc.origin().send(channel.eventLoop(), forward, b, new OriginResponseListener() {
            private OriginResponseListener downstream;

            @Override
            public void onResponse(HttpResponse response, OriginExchange exchange) {
                if (unsafe && response.status().code() < 400) {
                    invalidate(response.headers());
                }
                downstream = startProxying(response, exchange, true, true);
            }

            @Override
            public void onContent(HttpContent content, boolean last) {
                downstream.onContent(content, last);
            }

            @Override
            public void onFailure(OriginException cause, boolean headersReceived) {
                sc.stats().originError();
                if (downstream != null) {
                    downstream.onFailure(cause, headersReceived);
                } else if (!finished) {
                    sendError(cause.kind() == OriginException.Kind.TIMEOUT ? HttpResponseStatus.GATEWAY_TIMEOUT
                            : HttpResponseStatus.BAD_GATEWAY, cause.getMessage(), Result.PASS);
                }
            }
        });
    }

    private static boolean isUnsafe(HttpMethod m) {
        return HttpMethod.POST.equals(m) || HttpMethod.PUT.equals(m) || HttpMethod.DELETE.equals(m)
                || HttpMethod.PATCH.equals(m);
    }

    /** Removes the target's stored object and those named by Location and Content-Location on the same host (RFC 9111 §4.4). */
    private void invalidate(HttpHeaders responseHeaders) {
        Optional<CacheKey> target = CacheKeys.primary(request, sc.config().originAuthority());
        target.ifPresent(this::remove);
        String host = request.headers().get(HttpHeaderNames.HOST, sc.config().originAuthority());
        for (CharSequence name : List.of(HttpHeaderNames.LOCATION, HttpHeaderNames.CONTENT_LOCATION)) {
            String value = responseHeaders.get(name);
            if (value == null) {
                continue;
            }
            try {
                URI u = URI.create(value);
                if (u.getRawAuthority() != null && !u.getRawAuthority().equalsIgnoreCase(host)) {
                    continue;
                }
                String path = (u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath())
                        + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
                if (!path.startsWith("/")) {
                    continue;
                }
                CacheKeys.key(host, path).ifPresent(this::remove);
            } catch (IllegalArgumentException ignored) {
                // not a URI: nothing to invalidate
            }
        }
    }

    private void remove(CacheKey key) {
        try {
            sc.store().remove(key);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot invalidate " + key, e);
        }
    }

    /** Forwards an origin response to the client as it arrives, pausing the origin while the client is slow. */
    private OriginResponseListener startProxying(HttpResponse response, OriginExchange exchange, boolean sameMethod,
                                                 boolean countOriginBytes) {
        if (finished) {
            exchange.abort();
            return DISCARD;
        }
        passExchange = exchange;
        HttpResponse resp = new DefaultHttpResponse(HttpVersion.HTTP_1_1, response.status());
        resp.headers().set(response.headers());
        HopByHop.strip(resp.headers());
        boolean noBody = head || response.status().code() == 204 || response.status().code() == 304;
        // A HEAD answered by a GET fill must not carry the fill's body.
        boolean dropBody = head && !sameMethod;
        if (!noBody && !HttpUtil.isContentLengthSet(response)) {
            HttpUtil.setTransferEncodingChunked(resp, true);
        } else if (dropBody) {
            resp.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
        }
        if (!resp.headers().contains(HttpHeaderNames.AGE)) {
            resp.headers().setInt(HttpHeaderNames.AGE, 0);
        }
        decorate(resp, Result.PASS);
        sc.stats().response(Result.PASS, response.status().code());
        channel.write(resp);
        return new OriginResponseListener() {
            @Override
            public void onResponse(HttpResponse r, OriginExchange e) {
                throw new IllegalStateException("headers already received");
            }

            @Override
            public void onContent(HttpContent content, boolean last) {
                if (finished) {
                    content.release();
                    return;
                }
                int n = content.content().readableBytes();
                if (countOriginBytes) {
                    sc.stats().bytesFromOrigin(n);
                }
                Object out = content;
                if (dropBody) {
                    content.release();
                    out = last ? LastHttpContent.EMPTY_LAST_CONTENT : null;
                } else {
                    sc.stats().bytesToClients(n);
                }
                if (last) {
                    passExchange = null;
                    channel.writeAndFlush(out).addListener(f -> done(f.isSuccess() && keepAlive));
                } else if (out != null) {
                    channel.writeAndFlush(out);
                    if (!channel.isWritable()) {
                        exchange.setReading(false);
                    }
                }
            }

            @Override
            public void onFailure(OriginException cause, boolean headersReceived) {
                passExchange = null;
                if (!finished) {
                    sc.stats().truncated();
                    channel.close();
                    done(false);
                }
            }
        };
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

    // ---- lifecycle ----

    /** The client channel's writability changed: resume the body or the origin. */
    void writabilityChanged() {
        if (streamer != null) {
            streamer.pump();
        } else if (passExchange != null) {
            passExchange.setReading(channel.isWritable());
        }
    }

    private void closeObject() {
        StoredObject o = object;
        object = null;
        if (o != null) {
            o.close();
        }
    }

    private void done(boolean keepConnection) {
        if (finished) {
            return;
        }
        finished = true;
        streamer = null;
        conn.exchangeDone(this, keepConnection);
    }

    /** The client went away: release everything this exchange holds. */
    void abandon() {
        BodyStreamer s = streamer;
        streamer = null;
        finished = true;
        if (s != null) {
            s.abandon();
        }
        closeObject();
        if (passExchange != null) {
            passExchange.abort();
            passExchange = null;
        }
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
