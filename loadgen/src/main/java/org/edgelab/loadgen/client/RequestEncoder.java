package org.edgelab.loadgen.client;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.edgelab.loadgen.workload.RequestSlot;

/** Encodes a GET (with an optional Range) straight into a pooled buffer, without header objects; stateless, thread-safe. */
final class RequestEncoder {
    private static final byte[] GET = "GET ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HTTP11_HOST = " HTTP/1.1\r\nHost: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RANGE = "\r\nRange: bytes=".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private RequestEncoder() {
    }

    /**
     * The request bytes of {@code slot} for {@code host} (the Host header value, ASCII), with {@code extra}
     * (further header lines, each starting with CRLF, as {@link #headerLines} makes them) after the Host header.
     */
    static ByteBuf encode(ByteBufAllocator alloc, RequestSlot slot, byte[] host, byte[] extra) {
        String path = slot.path;
        ByteBuf b = alloc.ioBuffer(96 + path.length() + host.length + extra.length);
        b.writeBytes(GET);
        b.writeCharSequence(path, StandardCharsets.US_ASCII);
        b.writeBytes(HTTP11_HOST);
        b.writeBytes(host);
        b.writeBytes(extra);
        if (slot.rangeStart >= 0) {
            b.writeBytes(RANGE);
            writeDecimal(b, slot.rangeStart);
            b.writeByte('-');
            writeDecimal(b, slot.rangeEnd);
        }
        b.writeBytes(END);
        return b;
    }

    /** {@code headers} ("Name: value" each) as header lines to pass to {@link #encode}: CRLF before each. */
    static byte[] headerLines(List<String> headers) {
        StringBuilder sb = new StringBuilder();
        for (String h : headers) {
            sb.append("\r\n").append(h);
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static void writeDecimal(ByteBuf b, long value) {
        if (value == 0) {
            b.writeByte('0');
            return;
        }
        int digits = 0;
        for (long v = value; v > 0; v /= 10) {
            digits++;
        }
        b.ensureWritable(digits);
        int at = b.writerIndex() + digits;
        for (long v = value; v > 0; v /= 10) {
            b.setByte(--at, (int) ('0' + v % 10));
        }
        b.writerIndex(b.writerIndex() + digits);
    }
}
