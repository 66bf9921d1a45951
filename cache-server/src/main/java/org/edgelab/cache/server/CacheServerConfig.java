package org.edgelab.cache.server;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.edgelab.cache.store.StoreExecutor;

/**
 * Settings of a {@link CacheServer}: where it listens, which origin it fronts, the HTTP limits and
 * the timeouts. Build with {@link #builder()}; every setting has a default except the origin.
 * Immutable and thread-safe.
 *
 * @param bindHost              address the HTTP listener binds (default {@code 127.0.0.1})
 * @param port                  HTTP port, 0 for an ephemeral one
 * @param adminPort             admin listener port on loopback, 0 for an ephemeral one, -1 for none
 * @param origin                the origin's base URI ({@code http://host:port}), required
 * @param ioThreads             event-loop threads, 0 for one per core
 * @param maxInitialLineLength  longest request line accepted (longer gets 414)
 * @param maxHeaderSize         largest header block accepted (larger gets 431)
 * @param idleTimeout           a connection without traffic for this long is closed
 * @param requestHeaderTimeout  a request whose headers take longer than this to arrive is dropped
 * @param originConnectTimeout  connecting to the origin fails after this long (502)
 * @param originResponseTimeout the origin must send data at least this often (else 504, or truncation)
 * @param maxRanges             most ranges served in one multipart/byteranges response
 * @param maxRequestBody        largest request body forwarded for unsafe methods (larger gets 413)
 * @param storeThreads          threads of the store's I/O executor, which makes every call the engine
 *                              declares blocking (default {@link StoreExecutor#DEFAULT_THREADS})
 * @param storeQueue            calls that may wait for an executor thread before connections wait in line
 *                              (default {@link StoreExecutor#DEFAULT_QUEUE})
 */
public record CacheServerConfig(
        String bindHost,
        int port,
        int adminPort,
        URI origin,
        int ioThreads,
        int maxInitialLineLength,
        int maxHeaderSize,
        Duration idleTimeout,
        Duration requestHeaderTimeout,
        Duration originConnectTimeout,
        Duration originResponseTimeout,
        int maxRanges,
        int maxRequestBody,
        int storeThreads,
        int storeQueue) {

    public CacheServerConfig {
        Objects.requireNonNull(bindHost, "bindHost");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(requestHeaderTimeout, "requestHeaderTimeout");
        Objects.requireNonNull(originConnectTimeout, "originConnectTimeout");
        Objects.requireNonNull(originResponseTimeout, "originResponseTimeout");
        if (!"http".equalsIgnoreCase(origin.getScheme()) || origin.getHost() == null) {
            throw new IllegalArgumentException("origin must be an http://host[:port] URI, got '" + origin + "'");
        }
        requireRange("port", port, 0, 65535);
        requireRange("adminPort", adminPort, -1, 65535);
        requireRange("ioThreads", ioThreads, 0, 1024);
        requireRange("maxInitialLineLength", maxInitialLineLength, 64, 1 << 20);
        requireRange("maxHeaderSize", maxHeaderSize, 256, 1 << 22);
        requireRange("maxRanges", maxRanges, 1, 1000);
        requireRange("maxRequestBody", maxRequestBody, 0, Integer.MAX_VALUE);
        requireRange("storeThreads", storeThreads, 1, 1024);
        requireRange("storeQueue", storeQueue, 0, 1 << 20);
        requirePositive("idleTimeout", idleTimeout);
        requirePositive("requestHeaderTimeout", requestHeaderTimeout);
        requirePositive("originConnectTimeout", originConnectTimeout);
        requirePositive("originResponseTimeout", originResponseTimeout);
    }

    /** Returns the origin's port, defaulting to 80. */
    public int originPort() {
        return origin.getPort() > 0 ? origin.getPort() : 80;
    }

    /** Returns the Host header value for requests to the origin. */
    public String originAuthority() {
        return origin.getPort() > 0 ? origin.getHost() + ":" + origin.getPort() : origin.getHost();
    }

    /** Returns a builder with every default set and no origin. */
    public static Builder builder() {
        return new Builder();
    }

    private static void requireRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], got " + value);
        }
    }

    private static void requirePositive(String name, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
    }

    /** Builds a {@link CacheServerConfig}. Not thread-safe. */
    public static final class Builder {
        private String bindHost = "127.0.0.1";
        private int port;
        private int adminPort = -1;
        private URI origin;
        private int ioThreads;
        private int maxInitialLineLength = 8192;
        private int maxHeaderSize = 16384;
        private Duration idleTimeout = Duration.ofSeconds(60);
        private Duration requestHeaderTimeout = Duration.ofSeconds(10);
        private Duration originConnectTimeout = Duration.ofSeconds(5);
        private Duration originResponseTimeout = Duration.ofSeconds(30);
        private int maxRanges = 16;
        private int storeThreads = StoreExecutor.DEFAULT_THREADS;
        private int storeQueue = StoreExecutor.DEFAULT_QUEUE;
        private int maxRequestBody = 8 << 20;

        private Builder() {
        }

        public Builder bindHost(String v) { this.bindHost = v; return this; }
        public Builder port(int v) { this.port = v; return this; }
        public Builder adminPort(int v) { this.adminPort = v; return this; }
        public Builder origin(URI v) { this.origin = v; return this; }
        public Builder origin(String v) { this.origin = URI.create(v); return this; }
        public Builder ioThreads(int v) { this.ioThreads = v; return this; }
        public Builder maxInitialLineLength(int v) { this.maxInitialLineLength = v; return this; }
        public Builder maxHeaderSize(int v) { this.maxHeaderSize = v; return this; }
        public Builder idleTimeout(Duration v) { this.idleTimeout = v; return this; }
        public Builder requestHeaderTimeout(Duration v) { this.requestHeaderTimeout = v; return this; }
        public Builder originConnectTimeout(Duration v) { this.originConnectTimeout = v; return this; }
        public Builder originResponseTimeout(Duration v) { this.originResponseTimeout = v; return this; }
        public Builder maxRanges(int v) { this.maxRanges = v; return this; }
        public Builder maxRequestBody(int v) { this.maxRequestBody = v; return this; }
        public Builder storeThreads(int v) { this.storeThreads = v; return this; }
        public Builder storeQueue(int v) { this.storeQueue = v; return this; }

        /** Returns the configuration, failing with a message naming the first invalid setting. */
        public CacheServerConfig build() {
            return new CacheServerConfig(bindHost, port, adminPort, origin, ioThreads, maxInitialLineLength,
                    maxHeaderSize, idleTimeout, requestHeaderTimeout, originConnectTimeout, originResponseTimeout,
                    maxRanges, maxRequestBody, storeThreads, storeQueue);
        }
    }
}
