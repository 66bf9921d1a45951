package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.function.Consumer;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.ContentVerifier;
import org.edgelab.storage.api.ObjectStore;

/**
 * An origin, a store of one engine and a cache server in front of them, on loopback ephemeral ports, sharing one
 * {@link MovableClock}; plus an HTTP client.
 */
final class CacheFixture implements AutoCloseable {

    final String engine;
    /** The wall clock of the origin's Date and of the cache's freshness: {@link MovableClock#advance} ages objects. */
    final MovableClock clock = new MovableClock();
    final OriginServer origin;
    final ObjectStore store;
    private final Engines.Opened opened;
    final CacheServer cache;
    final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    CacheFixture(String engine) throws IOException {
        this(engine, OriginConfig.builder().port(0).build(), "64m", b -> { });
    }

    CacheFixture(String engine, OriginConfig originConfig, String capacity, Consumer<CacheServerConfig.Builder> tweak)
            throws IOException {
        this.engine = engine;
        origin = OriginServer.start(originConfig.toBuilder().clock(clock).build());
        try {
            opened = Engines.open(engine, capacity);
        } catch (IOException | RuntimeException e) {
            origin.close();
            throw e;
        }
        store = opened.store();
        CacheServerConfig.Builder b = CacheServerConfig.builder().origin(origin.baseUri()).adminPort(0).ioThreads(2)
                .clock(clock);
        tweak.accept(b);
        cache = CacheServer.start(b.build(), store);
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + cache.port() + pathAndQuery);
    }

    HttpResponse<byte[]> get(String pathAndQuery, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(20));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    HttpResponse<byte[]> send(HttpRequest.Builder b) throws IOException, InterruptedException {
        return client.send(b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static String xcache(HttpResponse<?> r) {
        return r.headers().firstValue("X-Cache").orElse("(none)");
    }

    /** True when {@code body} is exactly the synthetic bytes of {@code id} starting at {@code offset}. */
    static boolean verified(String id, long offset, byte[] body) {
        ContentVerifier v = new ContentVerifier(id, offset);
        return v.update(ByteBuffer.wrap(body)) && v.ok();
    }

    /**
     * GETs {@code path} on {@code raw} and asserts ({@code what} naming the step) a whole 200 of {@code size} bytes, every
     * byte those of synthetic content {@code id}; returns its X-Cache.
     */
    static String getWhole(RawHttp raw, String path, String id, long size, String what) throws Exception {
        raw.send("GET " + path + " HTTP/1.1\r\nHost: edge.example\r\n\r\n");
        RawHttp.Response r = raw.read(false);
        assertThat(r).as("%s: an empty reply", what).isNotNull();
        assertThat(r.status()).as(what).isEqualTo(200);
        assertThat(r.complete()).as("%s: cut, %d bytes", what, r.body().length).isTrue();
        assertThat(r.body().length).as(what).isEqualTo(size);
        assertThat(verified(id, 0, r.body())).as("%s: every byte right", what).isTrue();
        return r.header("x-cache");
    }

    @Override
    public void close() throws IOException {
        try {
            cache.close();
            origin.close();
        } finally {
            opened.close();
        }
    }
}
