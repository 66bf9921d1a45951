package org.edgelab.cache.origin;

import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** What one exchange delivered to the caller's listener, and which class called each method: written on the loop, read once {@code done} completes. */
final class RecordingListener implements OriginResponseListener {
    final CompletableFuture<String> done = new CompletableFuture<>();
    final StringBuilder body = new StringBuilder();
    volatile int status;
    volatile OriginException failure;
    volatile boolean headersReceived;
    final List<Class<?>> callers = new CopyOnWriteArrayList<>();

    private void caller() {
        callers.add(StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .walk(frames -> frames.skip(2).findFirst().orElseThrow().getDeclaringClass()));
    }

    @Override
    public void onResponse(HttpResponse response, OriginExchange exchange) {
        caller();
        status = response.status().code();
    }

    @Override
    public void onContent(HttpContent content, boolean last) {
        caller();
        body.append(content.content().toString(StandardCharsets.US_ASCII));
        content.release();
        if (last) {
            done.complete("complete");
        }
    }

    @Override
    public void onFailure(OriginException cause, boolean headersReceived) {
        caller();
        this.failure = cause;
        this.headersReceived = headersReceived;
        done.complete("failed");
    }

    /** Sends a GET of {@code path} through {@code client} on {@code loop} and waits for its end. */
    static RecordingListener get(OriginClient client, EventLoop loop, String path) throws Exception {
        RecordingListener o = new RecordingListener();
        DefaultHttpRequest req = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
        req.headers().set(HttpHeaderNames.HOST, "origin.test");
        loop.execute(() -> client.send(loop, req, null, o));
        o.done.get(10, TimeUnit.SECONDS);
        return o;
    }
}
