package org.edgelab.cache.origin;

import org.edgelab.hashing.HashRing;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.edgelab.cache.admin.UpstreamStats;

/**
 * The cache's client towards its upstreams: one origin, or several upstreams (parent caches, or
 * replicas of an origin) among which each request is sent to the one a consistent-hash ring of the
 * target's path names ({@link HashRing}, as Varnish's {@code shard} director, Traffic Server's
 * {@code round_robin=consistent_hash} and nginx's {@code hash $uri consistent}), so a path always
 * goes to the same upstream while it is up.
 *
 * <p>Health, with several upstreams: one that refuses a connection or fails a request before its
 * response headers is marked down and skipped, the request going to the next upstream on the ring
 * (a GET or HEAD without a body, so every fill; never a request once a response to it has begun, so
 * nothing a client has been sent is fetched twice). While an upstream is down a connection probe is
 * made every probe interval; one that connects, or any response from it, takes it back. When every
 * upstream of a path is down, the path's own one is tried all the same. A single origin is always
 * tried and never probed, as before there were several.
 *
 * <p>Thread-safe; {@link #send} must be called on {@code loop}, and no call blocks.
 */
public final class OriginClient implements AutoCloseable {

    private final List<Upstream> upstreams;
    /** The only upstream's client when there is one: it gets the caller's listener as it is. */
    private final HostClient single;
    private final HashRing ring;
    private final long probeIntervalNanos;
    /** Whether requests keep the client's Host instead of getting the chosen upstream's. */
    private final boolean preserveHost;
    private volatile boolean closed;

    /**
     * Creates a client to {@code upstreams} (one or more distinct {@code http://host[:port]} URIs, validated by
     * the configuration); {@code virtualNodes} points per upstream on the ring, a probe of a down upstream every
     * {@code probeInterval}; {@code preserveHost}: requests keep the Host they come with instead of getting
     * the chosen upstream's; connections use {@code channelClass} (epoll or NIO, matching the loops).
     */
    public OriginClient(List<URI> upstreams, int virtualNodes, Duration probeInterval, boolean preserveHost,
                        Class<? extends Channel> channelClass, Duration connectTimeout, Duration responseTimeout) {
        List<Upstream> list = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (URI uri : upstreams) {
            int port = uri.getPort() > 0 ? uri.getPort() : 80;
            String authority = uri.getPort() > 0 ? uri.getHost() + ":" + uri.getPort() : uri.getHost();
            list.add(new Upstream(uri, authority,
                    new HostClient(uri.getHost(), port, channelClass, connectTimeout, responseTimeout)));
            names.add(authority);
        }
        this.upstreams = List.copyOf(list);
        this.single = list.size() == 1 ? list.get(0).client() : null;
        this.ring = new HashRing(names, virtualNodes);
        this.probeIntervalNanos = probeInterval.toNanos();
        this.preserveHost = preserveHost;
    }

    /**
     * Sends {@code request} (with an optional body, which this call takes ownership of) to the upstream of its
     * path, on a connection of {@code loop}; the listener hears the response on that loop. With several
     * upstreams the request's Host is set to the chosen one's, unless the client's is preserved. Idempotent requests that fail on a reused
     * connection before any response byte are retried once on a new connection, and, with several upstreams,
     * then on the next upstream of the ring.
     */
    public void send(EventLoop loop, HttpRequest request, ByteBuf body, OriginResponseListener listener) {
        assert loop.inEventLoop();
        if (single != null) {
            // nothing to fall back to and never marked down: the client counts the request and its failure
            single.send(loop, request, body, listener);
            return;
        }
        boolean retryable = body == null
                && (HttpMethod.GET.equals(request.method()) || HttpMethod.HEAD.equals(request.method()));
        new Attempt(loop, request, listener, first(ring, request.uri()), retryable).start(body);
    }

    /** Returns the upstreams' names ({@code host[:port]}) in the order configured. */
    public List<String> names() {
        return ring.nodes();
    }

    /** Returns each upstream's figures, in the order configured. */
    public List<UpstreamStats> stats() {
        List<UpstreamStats> out = new ArrayList<>(upstreams.size());
        for (Upstream u : upstreams) {
            out.add(u.stats());
        }
        return out;
    }

    /** The path of a request target, without its query: {@code /a/b} of {@code /a/b?c} or {@code http://h/a/b?c}. */
    static String path(String target) {
        long bounds = pathBounds(target);
        return bounds < 0 ? "/" : target.substring((int) (bounds >>> 32), (int) bounds);
    }

    /**
     * {@code ring.first(path(target))}, without copying the path out of the target: the node a request target goes to,
     * by its path without the query, as the cache picks an upstream (a load that shards edges by path uses it too).
     */
    public static int first(HashRing ring, String target) {
        long bounds = pathBounds(target);
        return bounds < 0 ? ring.first("/") : ring.first(target, (int) (bounds >>> 32), (int) bounds);
    }

    /** Where {@link #path} lies in {@code target}: start in the high half, end in the low; -1 for "/" (no path). */
    private static long pathBounds(String target) {
        int start = 0;
        if (!target.startsWith("/")) {
            int scheme = target.indexOf("://");
            if (scheme >= 0) {
                int slash = target.indexOf('/', scheme + 3);
                if (slash < 0) {
                    return -1;
                }
                start = slash;
            }
        }
        int query = target.indexOf('?', start);
        return (long) start << 32 | (query < 0 ? target.length() : query);
    }

    /** Keeps probing {@code u} from {@code loop} while it is down, unless a probe chain already runs. */
    private void probeWhileDown(Upstream u, EventLoop loop) {
        if (u.startProbing()) {
            probeLater(u, loop);
        }
    }

    private void probeLater(Upstream u, EventLoop loop) {
        try {
            loop.schedule(() -> {
                if (closed || u.isUp()) {
                    u.stopProbing();
                    return;
                }
                u.probed();
                u.client().probe(loop, connected -> {
                    if (connected) {
                        u.answered();
                        u.stopProbing();
                    } else {
                        probeLater(u, loop);
                    }
                });
            }, probeIntervalNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException shuttingDown) {
            u.stopProbing();
        }
    }

    /** Closes every idle connection and stops probing; exchanges in progress finish on their own. */
    @Override
    public void close() {
        closed = true;
        for (Upstream u : upstreams) {
            u.client().close();
        }
    }

    /**
     * One request's way through several upstreams: it takes back the upstream that answers, and moves a
     * failure that came before any response on to the next upstream that is up (each upstream's client
     * counts the attempts and failures). The path's preference list is walked only when its first upstream
     * is down or fails. Confined to the request's loop.
     */
    private final class Attempt implements OriginResponseListener {
        private final EventLoop loop;
        private final HttpRequest request;
        private final OriginResponseListener listener;
        /** The path's first upstream on the ring. */
        private final int first;
        private final boolean retryable;
        /** The upstreams in the order this request tries them, from the ring once needed (null before). */
        private int[] order;
        private boolean[] tried;
        private int attempts;
        private Upstream current;

        Attempt(EventLoop loop, HttpRequest request, OriginResponseListener listener, int first, boolean retryable) {
            this.loop = loop;
            this.request = request;
            this.listener = listener;
            this.first = first;
            this.retryable = retryable;
        }

        /** Sends to the path's first upstream if it is up, else to the next one up of its preference. */
        void start(ByteBuf body) {
            Upstream u = upstreams.get(first);
            if (u.isUp()) {
                attempts = 1;
                sendTo(u, body);
                return;
            }
            walkRing();
            next(body);
        }

        /** Takes the path's whole preference, its first upstream already tried if a request went to it. */
        private void walkRing() {
            order = ring.preference(path(request.uri()));
            assert order[0] == first : "the ring's first upstream heads its preference";
            tried = new boolean[order.length];
            tried[0] = attempts > 0;
        }

        /** Sends to the next upstream to try; false when none is left. */
        boolean next(ByteBuf body) {
            int pick = -1;
            for (int i = 0; i < order.length && pick < 0; i++) {
                if (!tried[i] && upstreams.get(order[i]).isUp()) {
                    pick = i;
                }
            }
            if (pick < 0 && attempts == 0) {
                pick = 0; // every upstream of this path is down: try its own all the same
            }
            if (pick < 0) {
                return false;
            }
            tried[pick] = true;
            attempts++;
            sendTo(upstreams.get(order[pick]), body);
            return true;
        }

        private void sendTo(Upstream u, ByteBuf body) {
            current = u;
            if (!preserveHost) {
                request.headers().set(HttpHeaderNames.HOST, u.authority());
            }
            u.client().send(loop, request, body, this);
        }

        @Override
        public void onResponse(HttpResponse response, OriginExchange exchange) {
            current.answered();
            listener.onResponse(response, exchange);
        }

        @Override
        public void onContent(HttpContent content, boolean last) {
            listener.onContent(content, last);
        }

        @Override
        public void onFailure(OriginException cause, boolean headersReceived) {
            if (!headersReceived && current.markDown()) {
                probeWhileDown(current, loop);
            }
            if (!headersReceived && retryable && !closed) {
                if (order == null) {
                    walkRing();
                }
                if (next(null)) {
                    return;
                }
            }
            listener.onFailure(cause, headersReceived);
        }
    }
}
