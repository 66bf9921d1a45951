package org.edgelab.origin.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The --files mode over real files and sockets: zero-copy bodies, validators from the file, and no way out of the root. */
class FilesModeTest {

    @TempDir
    Path temp;
    private Path root;
    private byte[] content;
    private OriginServer server;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void start() throws Exception {
        root = Files.createDirectories(temp.resolve("www"));
        content = new byte[3_000_000];
        new Random(42).nextBytes(content);
        Files.createDirectories(root.resolve("sub dir"));
        Files.write(root.resolve("sub dir/data.bin"), content);
        Files.setLastModifiedTime(root.resolve("sub dir/data.bin"), FileTime.from(Instant.parse("2024-05-06T07:08:09.123Z")));
        Files.writeString(temp.resolve("secret.txt"), "outside the root");
        Files.createSymbolicLink(root.resolve("escape"), temp.resolve("secret.txt"));
        Files.writeString(root.resolve("inside.txt"), "inside");
        Files.createSymbolicLink(root.resolve("alias.txt"), root.resolve("inside.txt"));
        server = OriginServer.start(OriginConfig.builder().port(0).filesRoot(root).cacheControl("max-age=5").build());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.baseUri().resolve(path)).timeout(Duration.ofSeconds(20));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void servesAFileWithValidatorsFromItsSizeAndModificationTime() throws Exception {
        HttpResponse<byte[]> response = get("/sub%20dir/data.bin");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(content);
        assertThat(response.headers().firstValue("last-modified")).hasValue("Mon, 06 May 2024 07:08:09 GMT");
        assertThat(response.headers().firstValue("cache-control")).hasValue("max-age=5");
        String etag = response.headers().firstValue("etag").orElseThrow();
        assertThat(etag).contains(Long.toHexString(content.length));

        assertThat(get("/sub%20dir/data.bin", "If-None-Match", etag).statusCode()).isEqualTo(304);
        assertThat(get("/sub%20dir/data.bin", "If-Modified-Since", "Mon, 06 May 2024 07:08:09 GMT").statusCode()).isEqualTo(304);

        Files.setLastModifiedTime(root.resolve("sub dir/data.bin"), FileTime.from(Instant.parse("2025-01-01T00:00:00Z")));
        HttpResponse<byte[]> changed = get("/sub%20dir/data.bin", "If-None-Match", etag);
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.headers().firstValue("etag")).isNotEqualTo(etag);
    }

    @Test
    void singleAndMultipleRanges() throws Exception {
        HttpResponse<byte[]> single = get("/sub%20dir/data.bin", "Range", "bytes=1000000-1999999");
        assertThat(single.statusCode()).isEqualTo(206);
        assertThat(single.headers().firstValue("content-range")).hasValue("bytes 1000000-1999999/3000000");
        assertThat(single.body()).isEqualTo(Arrays.copyOfRange(content, 1_000_000, 2_000_000));

        HttpResponse<byte[]> multi = get("/sub%20dir/data.bin", "Range", "bytes=0-4,-5");
        String type = multi.headers().firstValue("content-type").orElseThrow();
        var parts = SyntheticOriginTest.parseMultipart(multi.body(), type.substring(type.indexOf("boundary=") + 9));
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0).body()).isEqualTo(Arrays.copyOfRange(content, 0, 5));
        assertThat(parts.get(1).body()).isEqualTo(Arrays.copyOfRange(content, content.length - 5, content.length));
        assertThat(get("/sub%20dir/data.bin", "Range", "bytes=3000000-").statusCode()).isEqualTo(416);
    }

    @Test
    void anEmptyFileIsServedAndCannotBeRanged() throws Exception {
        Files.write(root.resolve("empty"), new byte[0]);
        HttpResponse<byte[]> response = get("/empty");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-length")).hasValue("0");
        assertThat(response.body()).isEmpty();
        assertThat(get("/empty", "Range", "bytes=0-").statusCode()).isEqualTo(416);
    }

    @Test
    void faultsApplyToFilesToo() throws Exception {
        HttpResponse<byte[]> corrupt = get("/sub%20dir/data.bin?corrupt-at=5&rate=100MiB");
        byte[] expected = content.clone();
        expected[5] ^= (byte) 0xff;
        assertThat(corrupt.body()).isEqualTo(expected);
        assertThat(get("/inside.txt?status=502").statusCode()).isEqualTo(502);
    }

    @Test
    void symbolicLinksInsideTheRootWorkButNotOnesLeavingIt() throws Exception {
        assertThat(new String(get("/alias.txt").body())).isEqualTo("inside");
        assertThat(get("/escape").statusCode()).isEqualTo(404);
    }

    @Test
    void traversalAttemptsNeverReachOutsideTheRoot() throws Exception {
        for (String target : List.of("/../secret.txt", "/sub%20dir/../../secret.txt", "/%2e%2e/secret.txt",
                "/%2E%2E/secret.txt", "/sub%20dir/%2e%2e/%2e%2e/secret.txt", "/..%2fsecret.txt", "/a%00b", "/..\\secret.txt")) {
            try (RawHttp raw = new RawHttp(server.port())) {
                raw.send("GET " + target + " HTTP/1.1\r\nHost: h\r\n\r\n");
                RawHttp.Response response = raw.read(false);
                assertThat(response.status()).as(target).isIn(400, 404);
                assertThat(new String(response.body())).doesNotContain("outside the root");
            }
        }
        for (String notServed : List.of("/", "/sub%20dir", "/sub%20dir/", "/missing", "/objects/10/x")) {
            assertThat(get(notServed).statusCode()).as(notServed).isEqualTo(404);
        }
    }

    @Test
    void headAndKeepAliveAcrossZeroCopyResponses() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /inside.txt HTTP/1.1\r\nHost: h\r\n\r\nHEAD /sub%20dir/data.bin HTTP/1.1\r\nHost: h\r\n\r\n"
                    + "GET /sub%20dir/data.bin HTTP/1.1\r\nHost: h\r\nRange: bytes=10-19\r\n\r\n");
            assertThat(new String(raw.read(false).body())).isEqualTo("inside");
            RawHttp.Response head = raw.read(true);
            assertThat(head.header("content-length")).isEqualTo("3000000");
            assertThat(raw.read(false).body()).isEqualTo(Arrays.copyOfRange(content, 10, 20));
        }
    }
}
