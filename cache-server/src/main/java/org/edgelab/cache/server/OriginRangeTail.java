package org.edgelab.cache.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Optional;
import org.edgelab.cache.admin.CacheStats;
import org.edgelab.cache.fetch.BodyTail;
import org.edgelab.cache.origin.OriginClient;
import org.edgelab.cache.origin.OriginException;
import org.edgelab.cache.origin.OriginExchange;
import org.edgelab.cache.origin.OriginRequests;
import org.edgelab.cache.origin.OriginResponseListener;
import org.edgelab.http.ContentRange;
import org.edgelab.http.EntityTag;
import org.edgelab.storage.api.ObjectMetadata;

/**
 * The rest of a stored object's body from the origin, when the store stops giving its bytes mid-response (a disk
 * that fails, an extent found damaged): one GET of the same target for {@code Range: bytes=from-(to-1)} with
 * {@code If-Range} set to the stored validator (a strong ETag, else Last-Modified; RFC 9110 §13.1.5), so that the
 * origin sends those bytes only if its object is still the stored one. A 206 whose Content-Range is exactly the
 * range asked for, of the stored length (and whose ETag, if any, is the stored one) activates the tail at
 * {@code from}; any other answer fails it, and the response is cut as it would have been. The origin is paused while
 * more than {@link #QUEUE_LIMIT} bytes wait for the client. Confined to the client channel's event loop, on which
 * the origin request is sent.
 */
final class OriginRangeTail implements BodyTail, OriginResponseListener {

    /** Bytes held for a slow client before the origin is no longer read. */
    static final long QUEUE_LIMIT = 1L << 20;

    private final long from;
    private final long to;
    private final long length;
    private final String etag;
    private final CacheStats stats;
    private final ArrayDeque<ByteBuf> pieces = new ArrayDeque<>();
    private long queued;
    private long received;
    private boolean active;
    private boolean ended;
    private Throwable failure;
    private boolean closed;
    private long version;
    private Runnable listener;
    private OriginExchange exchange;
    private boolean paused;

    private OriginRangeTail(long from, long to, long length, String etag, CacheStats stats) {
        this.from = from;
        this.to = to;
        this.length = length;
        this.etag = etag;
        this.stats = stats;
    }

    /**
     * The validator an {@code If-Range} may carry for a stored response: its ETag when strong, else its
     * Last-Modified; empty when it has neither (such a body cannot be resumed: the origin's might differ).
     */
    static Optional<String> validator(ObjectMetadata meta) {
        Optional<String> etag = meta.header("ETag");
        if (etag.isPresent()) {
            EntityTag tag = EntityTag.parse(etag.get());
            if (tag != null && !tag.weak()) {
                return etag;
            }
        }
        return meta.header("Last-Modified");
    }

    /**
     * Asks the origin for bytes {@code [from, to)} of the stored object {@code meta} (whose whole length is
     * {@code length}) on behalf of {@code client}'s request, on {@code loop} (the client channel's); empty when the
     * stored response has no validator to make the request conditional on.
     */
    static Optional<OriginRangeTail> request(OriginClient origin, EventLoop loop, HttpRequest client,
                                                    String upstreamHost, ObjectMetadata meta, long from, long to,
                                                    long length, CacheStats stats) {
        Optional<String> validator = validator(meta);
        if (validator.isEmpty() || from >= to || to > length) {
            return Optional.empty();
        }
        HttpHeaders extra = new DefaultHttpHeaders();
        extra.set(HttpHeaderNames.RANGE, "bytes=" + from + "-" + (to - 1));
        extra.set(HttpHeaderNames.IF_RANGE, validator.get());
        EntityTag tag = EntityTag.parse(meta.header("ETag").orElse(null));
        OriginRangeTail tail = new OriginRangeTail(from, to, length, tag == null || tag.weak() ? null : tag.opaque(),
                stats);
        stats.originRequest();
        origin.send(loop, OriginRequests.fill(client, upstreamHost, extra), null, tail);
        return Optional.of(tail);
    }

    // ---------------------------------------------------------------- the origin's side

    @Override
    public void onResponse(HttpResponse response, OriginExchange e) {
        this.exchange = e;
        String why = null;
        if (response.status().code() != 206) {
            why = "the origin answered " + response.status() + " (its object changed, or it ignores ranges)";
        } else {
            Optional<ContentRange> range = ContentRange.parse(response.headers().get(HttpHeaderNames.CONTENT_RANGE));
            if (range.isEmpty() || range.get().first() != from || range.get().last() != to - 1
                    || range.get().completeLength() != length) {
                why = "the origin's Content-Range " + response.headers().get(HttpHeaderNames.CONTENT_RANGE)
                        + " is not bytes " + from + "-" + (to - 1) + "/" + length;
            } else if (etag != null && response.headers().contains(HttpHeaderNames.ETAG)
                    && !etag.equals(opaque(response.headers().get(HttpHeaderNames.ETAG)))) {
                why = "the origin's ETag " + response.headers().get(HttpHeaderNames.ETAG) + " is not the stored one";
            }
        }
        if (why != null) {
            e.abort();
            exchange = null;
            IOException refused = new IOException("cannot resume the stored body from the origin: " + why);
            change(() -> failure = refused);
            return;
        }
        change(() -> active = true);
    }

    private static String opaque(String value) {
        EntityTag t = EntityTag.parse(value);
        return t == null || t.weak() ? null : t.opaque();
    }

    @Override
    public void onContent(HttpContent content, boolean last) {
        ByteBuf piece = content.content();
        int n = piece.readableBytes();
        stats.bytesFromOrigin(n);
        if (closed || failure != null || n == 0) {
            content.release();
        } else {
            pieces.addLast(piece);
            queued += n;
            received += n;
        }
        if (last) {
            exchange = null;
            change(() -> {
                if (received == to - from) {
                    ended = true;
                } else if (failure == null) {
                    failure = new IOException("the origin's range ended after " + received + " of "
                            + (to - from) + " bytes");
                }
            });
            return;
        }
        if (queued > QUEUE_LIMIT && exchange != null && !paused) {
            paused = true;
            exchange.setReading(false);
        }
        change(() -> { });
    }

    @Override
    public void onFailure(OriginException cause, boolean headersReceived) {
        exchange = null;
        change(() -> {
            if (failure == null) {
                failure = cause;
            }
        });
    }

    private void change(Runnable update) {
        update.run();
        version++;
        Runnable l = listener;
        listener = null;
        if (l != null) {
            l.run();
        }
    }

    // ---------------------------------------------------------------- the reader's side

    @Override
    public boolean isActive() {
        return active;
    }

    @Override
    public long start() {
        return active ? from : -1;
    }

    @Override
    public long end() {
        return ended ? to : -1;
    }

    @Override
    public Throwable failure() {
        return failure;
    }

    @Override
    public ByteBuf poll() {
        ByteBuf p = pieces.pollFirst();
        if (p != null) {
            queued -= p.readableBytes();
            if (paused && queued <= QUEUE_LIMIT / 2 && exchange != null) {
                paused = false;
                exchange.setReading(true);
            }
        }
        return p;
    }

    @Override
    public long version() {
        return version;
    }

    @Override
    public void whenChangedSince(long seen, Runnable r) {
        if (closed || version != seen) {
            r.run();
        } else {
            listener = r;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        listener = null;
        ByteBuf p;
        while ((p = pieces.pollFirst()) != null) {
            p.release();
        }
        queued = 0;
        if (exchange != null) {
            exchange.abort();
            exchange = null;
        }
    }
}
