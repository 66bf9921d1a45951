package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.verified;

import java.time.Duration;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.content.SyntheticPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Request limits, timeouts and connection management, over raw sockets. */
@ParameterizedClass(name = "{0}")
@MethodSource("org.edgelab.cache.server.Engines#names")
class ConnectionHandlingTest {

    /** The engine of this run (the fixture is made per engine, before the tests). */
    @Parameter
    String engine;

    private static CacheFixture f;

    @BeforeParameterizedClassInvocation
    static void start(String engine) throws Exception {
        f = new CacheFixture(engine, OriginConfig.builder().port(0).build(), "16m", b -> b
                .maxInitialLineLength(1024)
                .maxHeaderSize(2048)
                .idleTimeout(Duration.ofMillis(600))
                .requestHeaderTimeout(Duration.ofMillis(400)));
    }

    @AfterParameterizedClassInvocation
    static void stop() throws Exception {
        f.close();
    }

    @Test
    void oversizedHeadersGet431AndTheConnectionCloses() throws Exception {
        try (RawHttp raw = new RawHttp(f.cache.port())) {
            raw.send("GET /objects/10/x HTTP/1.1\r\nHost: t\r\nX-Big: " + "a".repeat(4000) + "\r\n\r\n");
            RawHttp.Response r = raw.read(false);
            assertThat(r.status()).isEqualTo(431);
            assertThat(r.header("x-cache")).isEqualTo("PASS");
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void anOverlongRequestLineGets414() throws Exception {
        try (RawHttp raw = new RawHttp(f.cache.port())) {
            raw.send("GET /objects/10/" + "y".repeat(2000) + " HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(raw.read(false).status()).isEqualTo(414);
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void garbageGets400() throws Exception {
        try (RawHttp raw = new RawHttp(f.cache.port())) {
            raw.send("GET /x HTTP/1.1\r\nHost: t\r\nContent-Length: nope\r\n\r\n");
            assertThat(raw.read(false).status()).isEqualTo(400);
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void anIdleConnectionIsClosed() throws Exception {
        try (RawHttp raw = new RawHttp(f.cache.port())) {
            raw.send("GET " + SyntheticPaths.path("idle", 100) + " HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(raw.read(false).status()).isEqualTo(200);
            raw.soTimeout(3000);
            long t0 = System.nanoTime();
            assertThat(raw.closedByServer()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isBetween(Duration.ofMillis(300), Duration.ofMillis(2500));
        }
    }

    @Test
    void aClientTricklingItsHeadersIsDropped() throws Exception {
        try (RawHttp raw = new RawHttp(f.cache.port())) {
            raw.send("GET /objects/10/slowloris HTTP/1.1\r\n");
            raw.soTimeout(2000);
            long t0 = System.nanoTime();
            Thread.sleep(150);
            raw.send("Host: t\r\n");
            assertThat(raw.closedByServer()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(1500));
        }
    }

    @Test
    void http10ClientsGetTheirConnectionClosedAfterTheResponse() throws Exception {
        String path = SyntheticPaths.path("http10", 3000);
        try (RawHttp raw = new RawHttp(f.cache.port())) {
            raw.send("GET " + path + " HTTP/1.0\r\n\r\n");
            RawHttp.Response r = raw.read(false);
            assertThat(r.status()).isEqualTo(200);
            assertThat(verified("http10", 0, r.body())).isTrue();
            assertThat(raw.closedByServer()).isTrue();
        }
    }
}
