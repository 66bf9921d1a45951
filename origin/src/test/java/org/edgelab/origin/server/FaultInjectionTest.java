package org.edgelab.origin.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.SocketException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.OriginStats;
import org.edgelab.origin.content.ContentVerifier;
import org.edgelab.origin.content.SyntheticContent;
import org.edgelab.origin.fault.FaultRules;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Faults by query and by configuration, first-byte latency, bandwidth, and the stats they leave. */
class FaultInjectionTest {

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<OriginServer> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(OriginServer::close);
    }

    private OriginServer start(OriginConfig.Builder config) {
        OriginServer server = OriginServer.start(config.port(0).build());
        servers.add(server);
        return server;
    }

    private HttpResponse<byte[]> get(OriginServer server, String pathAndQuery) throws Exception {
        return client.send(HttpRequest.newBuilder(server.baseUri().resolve(pathAndQuery)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static byte[] expected(String id, long offset, int length) {
        ByteBuffer buf = ByteBuffer.allocate(length);
        SyntheticContent.fill(SyntheticContent.seed(id), offset, buf);
        return buf.array();
    }

    @Test
    void statusQueryAnswersThatStatus() throws Exception {
        OriginServer server = start(OriginConfig.builder());
        assertThat(get(server, "/objects/100/s?status=503").statusCode()).isEqualTo(503);
        HttpResponse<byte[]> notFound = get(server, "/objects/100/s?status=404&cache-control=max-age=30");
        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(notFound.headers().firstValue("cache-control")).hasValue("max-age=30");
        assertThat(get(server, "/objects/100/s?status=99").statusCode()).isEqualTo(400);
        assertThat(get(server, "/objects/100/s?rate=fast").statusCode()).isEqualTo(400);
        assertThat(get(server, "/objects/100/s?first-byte-delay=200").statusCode()).isEqualTo(400);
    }

    @Test
    void resetAfterSendsExactlyThePromisedBytesThenResetsTheConnection() throws Exception {
        OriginServer server = start(OriginConfig.builder());
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /objects/1MiB/reset?reset-after=100000 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(raw.readStatus()).isEqualTo(200);
            assertThat(raw.readHeaders()).containsEntry("content-length", String.valueOf(1 << 20));
            byte[] received = raw.in().readNBytes(100_000);
            assertThat(received).isEqualTo(expected("reset", 0, 100_000));
            // Then a reset, not an orderly end of stream.
            assertThatThrownBy(() -> raw.in().read()).isInstanceOf(SocketException.class).hasMessageContaining("reset");
        }
    }

    @Test
    void resetAfterZeroResetsRightAfterTheHeaders() throws Exception {
        OriginServer server = start(OriginConfig.builder());
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /objects/1000/reset0?reset-after=0 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(raw.readStatus()).isEqualTo(200);
            raw.readHeaders();
            assertThatThrownBy(() -> raw.in().read()).isInstanceOf(SocketException.class);
        }
    }

    @Test
    void corruptAtFlipsExactlyThatByteAndTheVerifierFindsIt() throws Exception {
        OriginServer server = start(OriginConfig.builder());
        HttpResponse<byte[]> response = get(server, "/objects/300000/corrupt?corrupt-at=200001");
        assertThat(response.statusCode()).isEqualTo(200);
        ContentVerifier verifier = new ContentVerifier("corrupt", 0);
        verifier.update(ByteBuffer.wrap(response.body()));
        assertThat(verifier.firstMismatch()).hasValue(200_001);
        byte[] expected = expected("corrupt", 0, 300_000);
        expected[200_001] ^= (byte) 0xff;
        assertThat(response.body()).isEqualTo(expected);
        // Ranges carry the corruption at the same object offset.
        HttpResponse<byte[]> range = client.send(HttpRequest.newBuilder(
                server.baseUri().resolve("/objects/300000/corrupt?corrupt-at=200001")).header("Range", "bytes=200000-200009").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        ContentVerifier rangeVerifier = new ContentVerifier("corrupt", 200_000);
        rangeVerifier.update(ByteBuffer.wrap(range.body()));
        assertThat(rangeVerifier.firstMismatch()).hasValue(200_001);
    }

    @Test
    void chunkedSendsTransferEncodingChunkedWithTheSameBytes() throws Exception {
        OriginServer server = start(OriginConfig.builder());
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /objects/200000/chunky?chunked=true HTTP/1.1\r\nHost: h\r\n\r\n");
            RawHttp.Response response = raw.read(false);
            assertThat(response.header("transfer-encoding")).isEqualTo("chunked");
            assertThat(response.header("content-length")).isNull();
            assertThat(response.body()).isEqualTo(expected("chunky", 0, 200_000));
            // The connection stays usable.
            raw.send("GET /objects/10/after HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(raw.read(false).body()).isEqualTo(expected("after", 0, 10));
        }
    }

    @Test
    void firstByteDelayByQueryAndByConfiguration() throws Exception {
        OriginServer plain = start(OriginConfig.builder());
        long t0 = System.nanoTime();
        assertThat(get(plain, "/objects/10/slow?first-byte-delay=200ms").statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(190));

        OriginServer slow = start(OriginConfig.builder().firstByteLatency(Duration.ofMillis(150)));
        t0 = System.nanoTime();
        assertThat(get(slow, "/objects/10/slow").statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(140));
        // A URL may override the configured latency.
        t0 = System.nanoTime();
        get(slow, "/objects/10/slow?first-byte-delay=0ms");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(140));
    }

    @Test
    void delayedResponsesDoNotBlockOtherConnections() throws Exception {
        OriginServer server = start(OriginConfig.builder().ioThreads(1));
        var slow = client.sendAsync(HttpRequest.newBuilder(server.baseUri().resolve("/objects/10/a?first-byte-delay=1s")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        Thread.sleep(50);
        long t0 = System.nanoTime();
        assertThat(get(server, "/objects/10/b").statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(800));
        assertThat(slow.get().statusCode()).isEqualTo(200);
    }

    @Test
    void bandwidthByQueryAndByConfigurationPacesTheBody() throws Exception {
        OriginServer plain = start(OriginConfig.builder());
        long t0 = System.nanoTime();
        HttpResponse<byte[]> paced = get(plain, "/objects/1MiB/paced?rate=10MiB");
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(paced.body()).isEqualTo(expected("paced", 0, 1 << 20));
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(80));

        OriginServer capped = start(OriginConfig.builder().bandwidthBytesPerSecond(4L << 20));
        t0 = System.nanoTime();
        HttpResponse<byte[]> response = get(capped, "/objects/1MiB/capped");
        took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(response.body()).hasSize(1 << 20);
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    }

    @Test
    void configuredRulesFaultEveryNthRequest() throws Exception {
        OriginServer server = start(OriginConfig.builder().faults(FaultRules.parse("every=3&status=503")));
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            statuses.add(get(server, "/objects/10/nth").statusCode());
        }
        assertThat(statuses).containsExactly(200, 200, 503, 200, 200, 503, 200, 200, 503);
        OriginStats stats = server.stats();
        assertThat(stats.requests()).isEqualTo(9);
        assertThat(stats.responses(503)).isEqualTo(3);
        assertThat(stats.responses(200)).isEqualTo(6);
    }

    @Test
    void statsCountRequestsBytesAndStatusesAndAreServedAsJson() throws Exception {
        OriginServer server = start(OriginConfig.builder());
        get(server, "/objects/1000/st");
        get(server, "/objects/1000/st?status=500");
        get(server, "/missing");
        client.send(HttpRequest.newBuilder(server.baseUri().resolve("/objects/1000/st")).header("Range", "bytes=0-99").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        OriginStats stats = server.stats();
        assertThat(stats.requests()).isEqualTo(4);
        assertThat(stats.responses(200)).isEqualTo(1);
        assertThat(stats.responses(206)).isEqualTo(1);
        assertThat(stats.responses(500)).isEqualTo(1);
        assertThat(stats.responses(404)).isEqualTo(1);
        long errorBodies = stats.bytesSent() - 1000 - 100;
        assertThat(errorBodies).isPositive().isLessThan(300);

        HttpResponse<String> json = client.send(HttpRequest.newBuilder(server.baseUri().resolve("/_stats")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(json.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(json.body().trim()).isEqualTo("{\"requests\":4,\"bytes_sent\":" + stats.bytesSent()
                + ",\"by_status\":{\"200\":1,\"206\":1,\"404\":1,\"500\":1}}");
        // Reading the stats does not change them.
        assertThat(server.stats()).isEqualTo(stats);
    }

    @Test
    void aClientThatGoesAwayMidBodyDoesNotDisturbTheServer() throws Exception {
        OriginServer server = start(OriginConfig.builder());
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /objects/1GiB/abandoned HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(raw.readStatus()).isEqualTo(200);
            raw.readHeaders();
            raw.in().readNBytes(1 << 20);
        } catch (IOException ignored) {
            // closing with unread data may reset: fine
        }
        assertThat(get(server, "/objects/10/next").statusCode()).isEqualTo(200);
    }
}
