package org.edgelab.experiments.process;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One HTTP GET whose socket is opened on the calling thread, never reused and never proxied. A server behind a kernel
 * link runs in a network namespace, and only a thread that has joined it reaches it: the JDK's {@code HttpClient}
 * opens sockets on pool threads that may sit in another namespace. Stateless, thread-safe; blocks for the answer.
 */
public final class PlainHttp {
    private PlainHttp() {
    }

    /** A status and a body. */
    public record Response(int status, String body) {
    }

    /** GETs {@code uri} (connect and read each bounded by {@code timeout}). */
    public static Response get(URI uri, Duration timeout) throws IOException {
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
        c.setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        c.setReadTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        c.setUseCaches(false);
        c.setRequestProperty("Connection", "close");
        try {
            int status = c.getResponseCode();
            InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
            String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new Response(status, body);
        } finally {
            c.disconnect();
        }
    }
}
