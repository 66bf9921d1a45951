package org.edgelab.origin.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.ContentVerifier;
import org.edgelab.origin.content.SyntheticContent;
import org.edgelab.origin.content.SyntheticPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Synthetic objects over real loopback sockets: headers, conditionals, ranges, methods, keep-alive. */
class SyntheticOriginTest {

    private static OriginServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        server = OriginServer.start(OriginConfig.builder().port(0).cacheControl("public, max-age=60").build());
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static URI uri(String pathAndQuery) {
        return server.baseUri().resolve(pathAndQuery);
    }

    static HttpResponse<byte[]> get(String pathAndQuery, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(20));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static byte[] expected(String id, long offset, int length) {
        ByteBuffer buf = ByteBuffer.allocate(length);
        SyntheticContent.fill(SyntheticContent.seed(id), offset, buf);
        return buf.array();
    }

    @Test
    void usesEpollOnLinux() {
        if (io.netty.channel.epoll.Epoll.isAvailable()) {
            assertThat(server.transport()).isEqualTo("epoll");
        } else {
            assertThat(server.transport()).isEqualTo("nio");
        }
    }

    @Test
    void servesTheSyntheticBytesWithEveryHeader() throws Exception {
        HttpResponse<byte[]> response = get(SyntheticPaths.path("hello", 100_000));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(expected("hello", 0, 100_000));
        var headers = response.headers();
        assertThat(headers.firstValue("content-length")).hasValue("100000");
        assertThat(headers.firstValue("content-type")).hasValue("application/octet-stream");
        assertThat(headers.firstValue("accept-ranges")).hasValue("bytes");
        assertThat(headers.firstValue("cache-control")).hasValue("public, max-age=60");
        assertThat(headers.firstValue("etag")).hasValueSatisfying(etag -> assertThat(etag).matches("\"[0-9a-f]{16}\""));
        Instant lastModified = httpDate(headers.firstValue("last-modified").orElseThrow());
        Instant date = httpDate(headers.firstValue("date").orElseThrow());
        assertThat(lastModified).isBefore(date);
        assertThat(date).isBetween(Instant.now().minusSeconds(5), Instant.now().plusSeconds(5));
    }

    @Test
    void validatorsAreFixedPerObjectAndEtagDependsOnIdAndSize() throws Exception {
        var a1 = get("/objects/1000/same").headers();
        var a2 = get("/objects/1000/same").headers();
        var otherSize = get("/objects/1001/same").headers();
        var otherId = get("/objects/1000/other").headers();
        assertThat(a1.firstValue("etag")).isEqualTo(a2.firstValue("etag"));
        assertThat(a1.firstValue("last-modified")).isEqualTo(a2.firstValue("last-modified"));
        assertThat(a1.firstValue("etag")).isNotEqualTo(otherSize.firstValue("etag"));
        assertThat(a1.firstValue("etag")).isNotEqualTo(otherId.firstValue("etag"));
    }

    @Test
    void sizesInUnitsAndEmptyObjects() throws Exception {
        assertThat(get("/objects/2KiB/unit").body()).isEqualTo(expected("unit", 0, 2048));
        HttpResponse<byte[]> empty = get("/objects/0/empty");
        assertThat(empty.statusCode()).isEqualTo(200);
        assertThat(empty.body()).isEmpty();
        assertThat(empty.headers().firstValue("content-length")).hasValue("0");
    }

    @Test
    void cacheControlCanBeOverriddenByQuery() throws Exception {
        HttpResponse<byte[]> response = get("/objects/10/cc?cache-control=no-store");
        assertThat(response.headers().firstValue("cache-control")).hasValue("no-store");
    }

    @Test
    void headSendsTheHeadersWithoutBody() throws Exception {
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri("/objects/5000/head"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
        assertThat(response.headers().firstValue("content-length")).hasValue("5000");
        assertThat(response.headers().firstValue("etag")).isEqualTo(get("/objects/5000/head").headers().firstValue("etag"));
    }

    @Test
    void ifNoneMatchAnswers304ForAMatchingTagInAListOrStarOrWeakForm() throws Exception {
        String etag = get("/objects/100/cond").headers().firstValue("etag").orElseThrow();
        for (String header : List.of(etag, "\"nope\", " + etag, "*", "W/" + etag)) {
            HttpResponse<byte[]> response = get("/objects/100/cond", "If-None-Match", header);
            assertThat(response.statusCode()).as(header).isEqualTo(304);
            assertThat(response.body()).isEmpty();
            assertThat(response.headers().firstValue("etag")).hasValue(etag);
            assertThat(response.headers().firstValue("cache-control")).hasValue("public, max-age=60");
        }
        assertThat(get("/objects/100/cond", "If-None-Match", "\"other\"").statusCode()).isEqualTo(200);
    }

    @Test
    void ifModifiedSinceAnswers304UnlessModifiedLater() throws Exception {
        String lastModified = get("/objects/100/ims").headers().firstValue("last-modified").orElseThrow();
        assertThat(get("/objects/100/ims", "If-Modified-Since", lastModified).statusCode()).isEqualTo(304);
        String before = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME).minusSeconds(1));
        assertThat(get("/objects/100/ims", "If-Modified-Since", before).statusCode()).isEqualTo(200);
        // If-None-Match takes precedence over If-Modified-Since.
        assertThat(get("/objects/100/ims", "If-None-Match", "\"x\"", "If-Modified-Since", lastModified).statusCode())
                .isEqualTo(200);
    }

    /** RFC 9110 §13.1.1 and §13.1.4; until the origin shared the cache's preconditions it ignored both and answered 200. */
    @Test
    void aFailedIfMatchOrIfUnmodifiedSinceAnswers412() throws Exception {
        var headers = get("/objects/100/ifmatch").headers();
        String etag = headers.firstValue("etag").orElseThrow();
        String lastModified = headers.firstValue("last-modified").orElseThrow();
        HttpResponse<byte[]> failed = get("/objects/100/ifmatch", "If-Match", "\"other\"");
        assertThat(failed.statusCode()).isEqualTo(412);
        assertThat(failed.headers().firstValue("etag")).hasValue(etag);
        assertThat(get("/objects/100/ifmatch", "If-Match", etag).statusCode()).isEqualTo(200);
        String before = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME).minusSeconds(1));
        assertThat(get("/objects/100/ifmatch", "If-Unmodified-Since", before).statusCode()).isEqualTo(412);
        assertThat(get("/objects/100/ifmatch", "If-Unmodified-Since", lastModified).statusCode()).isEqualTo(200);
    }

    @Test
    void singleRangesInEveryForm() throws Exception {
        String path = "/objects/1000/ranged";
        record Case(String range, long first, long last) { }
        for (Case c : List.of(new Case("bytes=0-99", 0, 99), new Case("bytes=990-", 990, 999),
                new Case("bytes=-10", 990, 999), new Case("bytes=500-5000", 500, 999),
                new Case("bytes=-5000", 0, 999), new Case("bytes=7-7", 7, 7))) {
            HttpResponse<byte[]> response = get(path, "Range", c.range());
            assertThat(response.statusCode()).as(c.range()).isEqualTo(206);
            assertThat(response.headers().firstValue("content-range")).hasValue("bytes " + c.first() + "-" + c.last() + "/1000");
            assertThat(response.headers().firstValue("content-length")).hasValue(String.valueOf(c.last() - c.first() + 1));
            assertThat(response.body()).isEqualTo(expected("ranged", c.first(), (int) (c.last() - c.first() + 1)));
        }
    }

    @Test
    void unsatisfiableRangeAnswers416WithTheSize() throws Exception {
        for (String range : List.of("bytes=1000-", "bytes=2000-3000", "bytes=-0")) {
            HttpResponse<byte[]> response = get("/objects/1000/r416", "Range", range);
            assertThat(response.statusCode()).as(range).isEqualTo(416);
            assertThat(response.headers().firstValue("content-range")).hasValue("bytes */1000");
        }
    }

    @Test
    void malformedOrForeignRangesAreIgnored() throws Exception {
        for (String range : List.of("bytes=5-2", "items=0-1", "bytes=a-b", "bytes")) {
            HttpResponse<byte[]> response = get("/objects/100/rbad", "Range", range);
            assertThat(response.statusCode()).as(range).isEqualTo(200);
            assertThat(response.body()).hasSize(100);
        }
    }

    /**
     * The last two ranges overlap: they come as one part (RFC 9110 §14.2 lets a server coalesce them, and
     * §17.15 warns of overlapping ranges as amplification); until the origin shared the cache's range
     * parsing it sent both, the overlap twice.
     */
    @Test
    void severalRangesComeAsMultipartByterangesWithAnExactContentLengthOverlapsCoalesced() throws Exception {
        HttpResponse<byte[]> response = get("/objects/100000/multi", "Range", "bytes=0-9, 50000-50099, -7, 99990-");
        assertThat(response.statusCode()).isEqualTo(206);
        String contentType = response.headers().firstValue("content-type").orElseThrow();
        assertThat(contentType).startsWith("multipart/byteranges; boundary=");
        assertThat(response.headers().firstValue("content-length")).hasValue(String.valueOf(response.body().length));
        String boundary = contentType.substring(contentType.indexOf("boundary=") + 9);
        List<Part> parts = parseMultipart(response.body(), boundary);
        assertThat(parts).extracting(Part::contentRange).containsExactly(
                "bytes 0-9/100000", "bytes 50000-50099/100000", "bytes 99990-99999/100000");
        long[][] spans = {{0, 10}, {50000, 100}, {99990, 10}};
        for (int i = 0; i < parts.size(); i++) {
            assertThat(parts.get(i).contentType()).isEqualTo("application/octet-stream");
            assertThat(parts.get(i).body()).isEqualTo(expected("multi", spans[i][0], (int) spans[i][1]));
        }
    }

    @Test
    void ifRangeServesTheRangeOnlyWhenTheValidatorMatches() throws Exception {
        var headers = get("/objects/1000/ifrange").headers();
        String etag = headers.firstValue("etag").orElseThrow();
        String lastModified = headers.firstValue("last-modified").orElseThrow();
        assertThat(get("/objects/1000/ifrange", "Range", "bytes=0-9", "If-Range", etag).statusCode()).isEqualTo(206);
        assertThat(get("/objects/1000/ifrange", "Range", "bytes=0-9", "If-Range", lastModified).statusCode()).isEqualTo(206);
        HttpResponse<byte[]> stale = get("/objects/1000/ifrange", "Range", "bytes=0-9", "If-Range", "\"old\"");
        assertThat(stale.statusCode()).isEqualTo(200);
        assertThat(stale.body()).hasSize(1000);
        assertThat(get("/objects/1000/ifrange", "Range", "bytes=0-9", "If-Range", "W/" + etag).statusCode()).isEqualTo(200);
    }

    @Test
    void unknownPathsAre404AndOtherMethods405() throws Exception {
        assertThat(get("/nothing/here").statusCode()).isEqualTo(404);
        assertThat(get("/objects/abc/x").statusCode()).isEqualTo(404);
        assertThat(get("/objects/10/bad%2Fid").statusCode()).isEqualTo(404);
        HttpResponse<byte[]> post = client.send(HttpRequest.newBuilder(uri("/objects/10/x"))
                .POST(HttpRequest.BodyPublishers.ofString("data")).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("allow")).hasValue("GET, HEAD");
    }

    @Test
    void malformedRequestsGet400AndTheConnectionCloses() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /objects/10/x HTTP/1.1\r\nHost: h\r\nbroken header line without colon\r\n\r\n");
            RawHttp.Response response = raw.read(false);
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.header("connection")).isEqualTo("close");
            assertThat(raw.in().read()).isEqualTo(-1);
        }
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /objects/10/" + "x".repeat(10_000) + " HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(raw.read(false).status()).isEqualTo(414);
        }
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /objects/10/x?status=%zz HTTP/1.1\r\nHost: h\r\n\r\nGET /objects/10/%zz HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(raw.read(false).status()).isEqualTo(400);
            assertThat(raw.read(false).status()).isEqualTo(400);
        }
    }

    @Test
    void keepAliveServesSeveralRequestsIncludingPipelinedOnesThenHonoursConnectionClose() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /objects/300000/k1 HTTP/1.1\r\nHost: h\r\n\r\n"
                    + "HEAD /objects/20/k2 HTTP/1.1\r\nHost: h\r\n\r\n"
                    + "GET /objects/20/k3 HTTP/1.1\r\nHost: h\r\n\r\n");
            RawHttp.Response first = raw.read(false);
            assertThat(first.body()).isEqualTo(expected("k1", 0, 300_000));
            assertThat(first.header("connection")).isNull();
            RawHttp.Response second = raw.read(true);
            assertThat(second.header("content-length")).isEqualTo("20");
            assertThat(raw.read(false).body()).isEqualTo(expected("k3", 0, 20));
            raw.send("GET /objects/20/k4 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
            RawHttp.Response last = raw.read(false);
            assertThat(last.body()).isEqualTo(expected("k4", 0, 20));
            assertThat(last.header("connection")).isEqualTo("close");
            assertThat(raw.in().read()).isEqualTo(-1);
        }
    }

    @Test
    void absoluteFormRequestTargetsAreServed() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET http://origin.example/objects/30/abs?cache-control=no-cache HTTP/1.1\r\nHost: origin.example\r\n\r\n");
            RawHttp.Response response = raw.read(false);
            assertThat(response.body()).isEqualTo(expected("abs", 0, 30));
            assertThat(response.header("cache-control")).isEqualTo("no-cache");
        }
    }

    @Test
    void http10WithoutKeepAliveIsClosedAfterTheResponse() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /objects/20/old HTTP/1.0\r\n\r\n");
            RawHttp.Response response = raw.read(false);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).isEqualTo(expected("old", 0, 20));
            assertThat(raw.in().read()).isEqualTo(-1);
        }
    }

    @Test
    void aLargeObjectStreamsAndVerifies() throws Exception {
        long size = 256L << 20;
        long heapBefore = usedHeap();
        HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(uri("/objects/256MiB/large")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.headers().firstValue("content-length")).hasValue(String.valueOf(size));
        ContentVerifier verifier = new ContentVerifier("large", 0);
        byte[] buffer = new byte[256 * 1024];
        try (InputStream in = response.body()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                verifier.update(ByteBuffer.wrap(buffer, 0, n));
            }
        }
        assertThat(verifier.ok()).isTrue();
        assertThat(verifier.position()).isEqualTo(size);
        // The origin never holds an object: streaming 256 MiB must not grow the (shared) heap by anything like it.
        assertThat(usedHeap() - heapBefore).isLessThan(128L << 20);
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    record Part(String contentType, String contentRange, byte[] body) { }

    /** Parses a multipart/byteranges body strictly: every delimiter, part header and CRLF where RFC 2046 puts it. */
    static List<Part> parseMultipart(byte[] body, String boundary) {
        String text = new String(body, StandardCharsets.ISO_8859_1);
        List<Part> parts = new ArrayList<>();
        String delimiter = "--" + boundary;
        assertThat(text).startsWith(delimiter + "\r\n").endsWith("\r\n" + delimiter + "--\r\n");
        int at = 0;
        Pattern headers = Pattern.compile("Content-Type: ([^\r]+)\r\nContent-Range: ([^\r]+)\r\n\r\n");
        while (true) {
            int start = text.indexOf(delimiter, at);
            int afterDelimiter = start + delimiter.length();
            if (text.startsWith("--", afterDelimiter)) {
                assertThat(afterDelimiter + 4).isEqualTo(text.length());
                return parts;
            }
            Matcher m = headers.matcher(text);
            assertThat(m.find(afterDelimiter + 2) && m.start() == afterDelimiter + 2).isTrue();
            int bodyStart = m.end();
            int next = text.indexOf("\r\n" + delimiter, bodyStart);
            byte[] partBody = java.util.Arrays.copyOfRange(body, bodyStart, next);
            String[] span = m.group(2).substring("bytes ".length()).split("[-/]");
            assertThat(partBody).hasSize((int) (Long.parseLong(span[1]) - Long.parseLong(span[0]) + 1));
            parts.add(new Part(m.group(1), m.group(2), partBody));
            at = next + 2;
        }
    }

    static Instant httpDate(String value) {
        return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    }
}
