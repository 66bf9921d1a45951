package org.edgelab.cache.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.cache.admin.CacheStats.Result;
import org.edgelab.cache.admin.PhaseTimes;
import org.edgelab.cache.fetch.BodyTail;
import org.edgelab.cache.fetch.FillTail;
import org.edgelab.cache.http.Freshness;
import org.edgelab.cache.http.StoredConditionals;
import org.edgelab.http.ByteRanges;
import org.edgelab.http.Conditionals;
import org.edgelab.http.MultipartByteranges;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.StoredObject;

/**
 * The deliver step of a {@link RequestExchange}: answers the request from one stored object
 * (committed, or followed while it is written) — client conditionals (304, 412), ranges (206,
 * multipart, 416), HEAD, and the body through a {@link BodyStreamer} — and releases the object
 * when done. A stored body whose bytes fail once its response has begun ends with the origin's bytes
 * ({@link OriginRangeTail}) where the origin still has the same object, else it is cut. Owns the object from construction. Confined to the client channel's event loop.
 */
final class Delivery {

    /** Stored fields repeated in a 304 (RFC 9110 §15.4.5). */
    private static final Set<String> NOT_MODIFIED_FIELDS = Set.of("cache-control", "content-location", "date",
            "etag", "expires", "last-modified", "vary");

    private final RequestExchange exchange;
    private final ServerContext sc;
    private final Channel channel;
    private final HttpRequest request;
    private final boolean head;
    private final Result result;
    private StoredObject object;
    private BodyStreamer streamer;

    private final CompletionStage<Void> settled;
    private FillTail tail;

    /**
     * {@code settled}: for a follower, completes when its fill is over (the body ends only then);
     * {@code tail}: a follower's rest of the body should the store write fail (owned). Both null
     * for a stored object.
     */
    Delivery(RequestExchange exchange, StoredObject object, Result result, CompletionStage<Void> settled,
             FillTail tail) {
        this.settled = settled;
        this.tail = tail;
        this.exchange = exchange;
        this.sc = exchange.context();
        this.channel = exchange.channel();
        this.request = exchange.request();
        this.head = exchange.isHead();
        this.object = object;
        this.result = result;
    }

    /** Answers from the object. */
    void start() {
        StoredObject obj = object;
        ObjectMetadata meta = obj.metadata();
        boolean complete = obj.isComplete();
        long length = complete ? obj.availableLength() : meta.length();
        int status = meta.status();
        String range = request.headers().get(HttpHeaderNames.RANGE);
        if (status == 200 && !head && range != null && length < 0) {
            // Ranges need the total length: wait for the end of a body of unknown length.
            obj.awaitLength(Long.MAX_VALUE).whenComplete((n, err) -> channel.eventLoop().execute(() -> {
                if (object == null) {
                    return; // abandoned meanwhile
                }
                if (err != null) {
                    release();
                    exchange.sendError(HttpResponseStatus.BAD_GATEWAY, "origin failed mid-body", result);
                } else {
                    start();
                }
            }));
            return;
        }
        Conditionals.Outcome outcome = status / 100 == 2
                ? StoredConditionals.evaluate(request.method(), request.headers(), meta) : Conditionals.Outcome.SERVE;
        if (outcome == Conditionals.Outcome.NOT_MODIFIED) {
            HttpResponse resp = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_MODIFIED);
            for (HeaderField f : meta.headers()) {
                if (NOT_MODIFIED_FIELDS.contains(f.name().toLowerCase(Locale.ROOT))) {
                    resp.headers().add(f.name(), f.value());
                }
            }
            resp.headers().set(HttpHeaderNames.AGE, Freshness.of(meta, sc.config().clock().millis()).currentAgeSeconds());
            exchange.decorate(resp, result);
            sendHeadersOnly(resp);
            return;
        }
        if (outcome == Conditionals.Outcome.PRECONDITION_FAILED) {
            release();
            exchange.sendError(HttpResponseStatus.PRECONDITION_FAILED, "precondition failed", result);
            return;
        }
        if (status == 200 && range != null && length >= 0
                && StoredConditionals.ifRangeMatches(request.headers().get(HttpHeaderNames.IF_RANGE), meta)) {
            ByteRanges.RangeRequest rr = ByteRanges.parse(range, length, sc.config().maxRanges());
            if (rr instanceof ByteRanges.Unsatisfiable u) {
                HttpResponse resp = storedResponse(meta, HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE);
                resp.headers().set(HttpHeaderNames.CONTENT_RANGE, u.contentRange());
                resp.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
                sendHeadersOnly(resp);
                return;
            }
            if (rr instanceof ByteRanges.Satisfiable s) {
                serveRanges(meta, s.ranges(), length);
                return;
            }
        }
        HttpResponse resp = storedResponse(meta, HttpResponseStatus.valueOf(status));
        if (length >= 0) {
            HttpUtil.setContentLength(resp, length);
        } else if (!head) {
            HttpUtil.setTransferEncodingChunked(resp, true);
        }
        if (head || status == 204 || length == 0) {
            sendHeadersOnly(resp);
            return;
        }
        stream(resp, List.of(new BodyStreamer.Part(null, 0, length)), null);
    }

    private void serveRanges(ObjectMetadata meta, List<ByteRanges.ByteRange> ranges, long length) {
        HttpResponse resp = storedResponse(meta, HttpResponseStatus.PARTIAL_CONTENT);
        if (ranges.size() == 1) {
            ByteRanges.ByteRange r = ranges.get(0);
            resp.headers().set(HttpHeaderNames.CONTENT_RANGE, r.contentRange(length));
            HttpUtil.setContentLength(resp, r.length());
            if (head) {
                sendHeadersOnly(resp);
                return;
            }
            stream(resp, List.of(new BodyStreamer.Part(null, r.first(), r.last() + 1)), null);
            return;
        }
        String partType = meta.header("Content-Type").orElse(null);
        MultipartByteranges mp = MultipartByteranges.of(ranges, length, partType);
        resp.headers().set(HttpHeaderNames.CONTENT_TYPE, mp.contentType());
        HttpUtil.setContentLength(resp, mp.contentLength());
        if (head) {
            sendHeadersOnly(resp);
            return;
        }
        List<BodyStreamer.Part> parts = new ArrayList<>(ranges.size());
        for (int i = 0; i < ranges.size(); i++) {
            ByteRanges.ByteRange r = ranges.get(i);
            parts.add(new BodyStreamer.Part(Unpooled.wrappedBuffer(mp.partHeader(i)), r.first(), r.last() + 1));
        }
        stream(resp, parts, Unpooled.wrappedBuffer(mp.trailer()));
    }

    /** Builds the response head for a stored object: its stored fields plus Age, X-Cache, Via. */
    private HttpResponse storedResponse(ObjectMetadata meta, HttpResponseStatus status) {
        HttpResponse resp = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
        HttpHeaders h = resp.headers();
        for (HeaderField f : meta.headers()) {
            h.add(f.name(), f.value());
        }
        h.remove(HttpHeaderNames.AGE);
        h.set(HttpHeaderNames.AGE, Freshness.of(meta, sc.config().clock().millis()).currentAgeSeconds());
        exchange.decorate(resp, result);
        return resp;
    }

    private void firstWrite(HttpResponse resp) {
        sc.stats().response(result, resp.status().code());
        if (result == Result.HIT) {
            sc.stats().phases().since(PhaseTimes.Phase.HIT_FIRST_WRITE, exchange.startNanos());
        } else if (result == Result.MISS) {
            sc.stats().phases().since(PhaseTimes.Phase.MISS_FIRST_WRITE, exchange.startNanos());
        }
        channel.write(resp);
    }

    private void stream(HttpResponse resp, List<BodyStreamer.Part> parts, ByteBuf trailer) {
        CacheStats stats = sc.stats();
        boolean fromCache = result.isHit();
        boolean lengthFramed = HttpUtil.isContentLengthSet(resp);
        streamer = new BodyStreamer(channel, object, parts, trailer, n -> {
            stats.bytesToClients(n);
            if (fromCache && !(streamer != null && streamer.resumed())) {
                stats.bytesFromCache(n);
            }
        }, complete -> {
            BodyStreamer s = streamer;
            streamer = null;
            // A client that read a Content-Length body to its last byte may close before the response's
            // end (which waits for the fill's commit): its response was whole, not cut short.
            if (!complete && !(lengthFramed && s != null && s.everyByteWritten())) {
                stats.truncated();
            }
            release();
            exchange.done(complete && exchange.keepAlive());
        }, sc.scheduler(channel.eventLoop()), sc.store(), settled, tail);
        if (settled == null) {
            // A stored object: its head waits for the first body bytes, so that damage the engine
            // finds in them makes this request a miss instead of a 200 cut before its first byte.
            streamer.holdHead(() -> firstWrite(resp), this::unreadable);
            // Once the head is out, bytes the store can no longer give come from the origin, if it
            // still has this very object (a range request conditional on the stored validator).
            ObjectMetadata meta = object.metadata();
            long length = object.availableLength();
            streamer.resumeWith((from, to) -> OriginRangeTail.request(sc.origin(), channel.eventLoop(), request,
                    sc.config().upstreamHost(), meta, from, to, length, stats).<BodyTail>map(t -> {
                        stats.hitResumedFromOrigin();
                        return t;
                    }).orElse(null));
        } else {
            firstWrite(resp);
        }
        streamer.start();
    }

    /** The stored body's first bytes could not be read; nothing was sent. */
    private void unreadable(Throwable cause) {
        streamer = null;
        release();
        exchange.storedObjectUnreadable(cause);
    }

    private void sendHeadersOnly(HttpResponse resp) {
        release();
        firstWrite(resp);
        channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT)
                .addListener(f -> exchange.done(f.isSuccess() && exchange.keepAlive()));
    }

    /** The client channel's writability changed. */
    void writabilityChanged() {
        if (streamer != null) {
            streamer.writabilityChanged();
        }
    }

    /** The client went away: stop, and release the object once nothing reads it. */
    void abandon() {
        BodyStreamer s = streamer;
        if (s != null) {
            s.abandon(); // its completion releases the object
        } else {
            release();
        }
    }

    private void release() {
        StoredObject o = object;
        object = null;
        sc.store().release(o);
        if (tail != null) {
            tail.close();
            tail = null;
        }
    }
}
