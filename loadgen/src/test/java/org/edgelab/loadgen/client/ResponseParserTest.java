package org.edgelab.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseParserTest {

    /** Records what the parser reports, as text, plus the body bytes. */
    private static final class Recorder implements ResponseParser.Listener {
        final List<String> events = new ArrayList<>();
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        ResponseParser parser;
        int moreRequests;

        @Override
        public void onHead(int status, boolean keepAlive, long contentLength, String xCache, String contentRange) {
            events.add("head " + status + " keepAlive=" + keepAlive + " length=" + contentLength + " xcache=" + xCache
                    + " range=" + contentRange);
        }

        @Override
        public void onBody(ByteBuf buf) {
            int before = buf.readerIndex();
            byte[] b = new byte[buf.readableBytes()];
            buf.getBytes(buf.readerIndex(), b);
            body.write(b, 0, b.length);
            assertThat(buf.readerIndex()).isEqualTo(before);
        }

        @Override
        public void onEnd() {
            events.add("end " + body.toString(StandardCharsets.ISO_8859_1));
            body.reset();
            if (moreRequests-- > 0) {
                parser.expectResponse(); // as a connection does: it sends its next request from this callback
            }
        }

        @Override
        public void onMalformed(String reason) {
            events.add("malformed " + reason);
        }
    }

    /** Feeds {@code wire} split at every pair of positions and checks every split gives {@code expected}. */
    private static void assertParses(String wire, List<String> expected, int responses) {
        byte[] bytes = wire.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i <= bytes.length; i++) {
            for (int j = i; j <= bytes.length; j += Math.max(1, bytes.length / 17)) {
                Recorder r = new Recorder();
                ResponseParser parser = new ResponseParser(r);
                r.parser = parser;
                r.moreRequests = responses - 1;
                parser.expectResponse();
                for (int[] part : new int[][] {{0, i}, {i, j}, {j, bytes.length}}) {
                    parser.feed(Unpooled.wrappedBuffer(bytes, part[0], part[1] - part[0]));
                }
                assertThat(r.events).as("split at %d and %d", i, j).isEqualTo(expected);
            }
        }
    }

    @Test
    void fixedLengthWithTheHeadersTheChecksNeed() {
        assertParses("HTTP/1.1 206 Partial Content\r\nContent-Length: 5\r\nX-Cache: HIT\r\n"
                        + "content-range: bytes 10-14/100\r\nETag: \"x\"\r\n\r\nhello",
                List.of("head 206 keepAlive=true length=5 xcache=HIT range=bytes 10-14/100", "end hello"), 1);
    }

    @Test
    void chunkedBodyWithExtensionsAndTrailers() {
        assertParses("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: 1\r\n\r\n",
                List.of("head 200 keepAlive=true length=-1 xcache=null range=null", "end hello world"), 1);
    }

    @Test
    void keepAliveFollowsTheVersionAndTheConnectionHeader() {
        assertParses("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
                List.of("head 200 keepAlive=false length=2 xcache=null range=null", "end ok"), 1);
        assertParses("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok",
                List.of("head 200 keepAlive=true length=2 xcache=null range=null", "end ok"), 1);
        assertParses("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
                List.of("head 200 keepAlive=false length=2 xcache=null range=null", "end ok"), 1);
    }

    @Test
    void interimResponsesAreSkippedAndBodilessStatusesEndAtTheHead() {
        assertParses("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n",
                List.of("head 304 keepAlive=true length=0 xcache=null range=null", "end "), 1);
    }

    @Test
    void twoResponsesInARowOnOneConnection() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
                List.of("head 200 keepAlive=true length=1 xcache=null range=null", "end a",
                        "head 404 keepAlive=true length=0 xcache=null range=null", "end "), 2);
    }

    @Test
    void aBodyWithoutLengthEndsWhenTheConnectionCloses() {
        Recorder r = new Recorder();
        ResponseParser parser = new ResponseParser(r);
        parser.expectResponse();
        parser.feed(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\n\r\nabc", StandardCharsets.ISO_8859_1));
        assertThat(parser.endsAtClose()).isTrue();
        assertThat(parser.onClose()).isTrue();
        assertThat(r.events).containsExactly("head 200 keepAlive=true length=-1 xcache=null range=null", "end abc");
    }

    @Test
    void malformedInputIsReportedOnceAndTheRestIgnored() {
        for (String wire : List.of("SMTP ready\r\n\r\n", "HTTP/1.1 2x0 OK\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n")) {
            Recorder r = new Recorder();
            ResponseParser parser = new ResponseParser(r);
            parser.expectResponse();
            parser.feed(Unpooled.copiedBuffer(wire + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", StandardCharsets.ISO_8859_1));
            assertThat(r.events).as(wire).last().asString().startsWith("malformed");
            assertThat(r.events.stream().filter(e -> e.startsWith("malformed"))).hasSize(1);
        }
    }

    @Test
    void anOversizedHeadIsMalformed() {
        Recorder r = new Recorder();
        ResponseParser parser = new ResponseParser(r);
        parser.expectResponse();
        parser.feed(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n", StandardCharsets.ISO_8859_1));
        assertThat(r.events).containsExactly("malformed response head longer than 16384 bytes");
    }

    @Test
    void bytesNobodyAskedForAreIgnored() {
        Recorder r = new Recorder();
        ResponseParser parser = new ResponseParser(r);
        parser.feed(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", StandardCharsets.ISO_8859_1));
        assertThat(r.events).isEmpty();
    }
}
