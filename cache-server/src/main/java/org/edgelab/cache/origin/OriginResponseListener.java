package org.edgelab.cache.origin;

import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;

/**
 * Receives one origin response, on the event loop of the connection that carries it: the headers,
 * then body pieces in order ending with a {@link io.netty.handler.codec.http.LastHttpContent}, or a
 * failure at any point. Exactly one of "the last piece" or {@link #onFailure} ends the exchange.
 */
public interface OriginResponseListener {

    /** The response headers arrived; {@code exchange} controls the flow of the body. */
    void onResponse(HttpResponse response, OriginExchange exchange);

    /** A piece of the body; the listener owns (and must release) it. {@code last} ends the body. */
    void onContent(HttpContent content, boolean last);

    /**
     * The exchange failed: before the headers ({@code headersReceived} false: nothing was delivered)
     * or in the middle of the body. The connection is closed.
     */
    void onFailure(OriginException cause, boolean headersReceived);
}
