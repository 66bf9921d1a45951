package org.edgelab.cache.fetch;

import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.edgelab.cache.origin.OriginException;
import org.edgelab.cache.origin.OriginExchange;
import org.edgelab.cache.origin.OriginResponseListener;

/**
 * Streams one origin response to several clients without storing it (the store refused it): each
 * body piece goes to every client as a retained duplicate, and the origin is read only while no
 * client is paused, so the slowest client sets the pace. Thread-safety: origin callbacks arrive on
 * the origin loop; clients' flow-control calls come from their own loops and are applied on the
 * origin loop under this object's monitor.
 */
final class SharedPassThrough implements OriginResponseListener {

    private final EventLoop originLoop;
    private final OriginExchange origin;
    private final List<OriginResponseListener> clients = new ArrayList<>();
    private final boolean[] paused;
    private final boolean[] gone;

    SharedPassThrough(EventLoop originLoop, OriginExchange origin, int clientCount) {
        this.originLoop = originLoop;
        this.origin = origin;
        this.paused = new boolean[clientCount];
        this.gone = new boolean[clientCount];
    }

    /** Attaches the waiters, in order; each gets its own flow-control handle. */
    void attach(List<FetchWaiter> waiters, HttpResponse response) {
        for (int i = 0; i < waiters.size(); i++) {
            clients.add(waiters.get(i).passThrough(response, handle(i), true));
        }
    }

    private OriginExchange handle(int index) {
        return new OriginExchange() {
            @Override
            public void setReading(boolean reading) {
                synchronized (SharedPassThrough.this) {
                    paused[index] = !reading;
                }
                originLoop.execute(SharedPassThrough.this::applyFlow);
            }

            @Override
            public void abort() {
                synchronized (SharedPassThrough.this) {
                    gone[index] = true;
                    paused[index] = false;
                }
                originLoop.execute(SharedPassThrough.this::applyFlow);
            }
        };
    }

    /** Applies the clients' latest combined wish on the origin loop (idempotent, so order does not matter). */
    private void applyFlow() {
        boolean allGone = true;
        boolean anyPaused = false;
        synchronized (this) {
            for (int i = 0; i < paused.length; i++) {
                allGone &= gone[i];
                anyPaused |= paused[i];
            }
        }
        if (allGone) {
            origin.abort();
        } else {
            origin.setReading(!anyPaused);
        }
    }

    @Override
    public void onResponse(HttpResponse response, OriginExchange exchange) {
        throw new IllegalStateException("headers already delivered");
    }

    @Override
    public void onContent(HttpContent content, boolean last) {
        try {
            for (OriginResponseListener c : clients) {
                c.onContent(content.retainedDuplicate(), last);
            }
        } finally {
            content.release();
        }
    }

    @Override
    public void onFailure(OriginException cause, boolean headersReceived) {
        for (OriginResponseListener c : clients) {
            c.onFailure(cause, headersReceived);
        }
    }
}
