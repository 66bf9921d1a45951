package org.edgelab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.edgelab.loadgen.measure.ErrorClass;
import org.junit.jupiter.api.Test;

/** What users bring from wrk: {@code -H}, its {@code Socket errors:} line and its meaning of "Non-2xx or 3xx responses". */
class WrkConventionsTest {

    private static String summary(LoadResult r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        r.printSummary(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static LoopbackServer answering(HttpResponseStatus status, List<String> seen) throws InterruptedException {
        return new LoopbackServer(false, (ctx, request) -> {
            seen.add(request.headers().get(HttpHeaderNames.HOST) + "|" + request.headers().get("X-Test")
                    + "|" + request.headers().get("Accept"));
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.wrappedBuffer(new byte[5]));
            response.headers().set(HttpHeaderNames.CONTENT_LENGTH, 5);
            ctx.writeAndFlush(response);
        });
    }

    @Test
    void headersGivenWithHReachTheServerAndAHostHeaderReplacesTheUrls() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        try (LoopbackServer server = answering(HttpResponseStatus.OK, seen)) {
            LoadResult r = LoadRunner.run(LoadConfig.builder().url(server.url() + "/h").connections(1).threads(1)
                    .duration(Duration.ofSeconds(10)).requests(3)
                    .header("X-Test: one two").header("Accept:  */*").header("host: edge.example").build());
            assertThat(r.counters().goodResponses()).isEqualTo(3);
            assertThat(seen).containsExactly("edge.example|one two|*/*", "edge.example|one two|*/*", "edge.example|one two|*/*");
        }
    }

    @Test
    void badHeadersAreRefusedSayingWhy() {
        assertThatThrownBy(() -> LoadConfig.builder().header("no colon")).hasMessageContaining("'Name: value'");
        assertThatThrownBy(() -> LoadConfig.builder().header("Bad Name: x")).hasMessageContaining("not a header name");
        assertThatThrownBy(() -> LoadConfig.builder().header("X-A: a\r\nX-B: b")).hasMessageContaining("printable ASCII");
        assertThatThrownBy(() -> LoadConfig.builder().header("Range: bytes=0-1")).hasMessageContaining("--range");
        assertThatThrownBy(() -> LoadConfig.builder().header("Content-Length: 3")).hasMessageContaining("without a body");
    }

    @Test
    void onlyRedirectsPrintNoNon2xxOr3xxLineButTheir3xxCount() throws Exception {
        try (LoopbackServer server = answering(HttpResponseStatus.FOUND, new CopyOnWriteArrayList<>())) {
            LoadResult r = LoadRunner.run(LoadConfig.builder().url(server.url() + "/moved").connections(1).threads(1)
                    .duration(Duration.ofSeconds(10)).requests(4).build());
            assertThat(r.counters().status(3)).isEqualTo(4);
            String text = summary(r);
            assertThat(text).doesNotContain("Non-2xx or 3xx").contains("3xx responses: 4 (not errors)").doesNotContain("Socket errors");
        }
    }

    @Test
    void non2xxOr3xxCountsWhatWrkCounts() throws Exception {
        try (LoopbackServer server = answering(HttpResponseStatus.SERVICE_UNAVAILABLE, new CopyOnWriteArrayList<>())) {
            LoadResult r = LoadRunner.run(LoadConfig.builder().url(server.url() + "/down").connections(1).threads(1)
                    .duration(Duration.ofSeconds(10)).requests(4).build());
            assertThat(summary(r)).contains("Non-2xx or 3xx responses: 4").contains("Errors by class:", "status_5xx 4");
        }
    }

    @Test
    void connectionsClosedBeforeAnAnswerAreWrksReadErrors() throws Exception {
        try (LoopbackServer server = new LoopbackServer(true, (ctx, request) -> ctx.close())) {
            LoadResult r = LoadRunner.run(LoadConfig.builder().url(server.url() + "/closing").connections(2).threads(1)
                    .duration(Duration.ofSeconds(20)).requests(20).build());
            assertThat(r.errors(ErrorClass.CLOSED)).isEqualTo(20);
            assertThat(summary(r)).contains("Socket errors: connect 0, read 20, write 0, timeout 0");
        }
    }
}
