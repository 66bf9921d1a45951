package org.edgelab.loadgen.client;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * A lean HTTP/1.1 response parser for the load generator's hot path: fed the connection's raw reads, it
 * parses the status line and the few headers the checks need (Content-Length, Transfer-Encoding,
 * Connection, X-Cache, Content-Range) and hands body bytes to its {@link Listener} as views of the
 * buffer it was given: no header objects, no content objects, no copies of the body. Handles fixed
 * lengths, chunked bodies (with extensions and trailers), bodies delimited by the connection's close,
 * 1xx interim responses and bodiless statuses (204, 304). Bytes that cannot be HTTP make it call
 * {@link Listener#onMalformed} once and ignore the rest until {@link #reset()}.
 *
 * <p>Not thread-safe: confined to its connection's event loop, one response at a time (no pipelining).
 */
final class ResponseParser {

    /** Receives what the parser finds, on the event loop. */
    interface Listener {
        /** The head of a response (interim 1xx heads are skipped, not reported). */
        void onHead(int status, boolean keepAlive, long contentLength, String xCache, String contentRange);

        /**
         * The next body bytes: {@code buf}'s readable bytes; read them without moving its reader index
         * and do not keep the buffer.
         */
        void onBody(ByteBuf buf);

        /** The response ended (its body is complete). */
        void onEnd();

        /** The bytes are not a well-formed HTTP/1.1 response. */
        void onMalformed(String reason);
    }

    private enum State { HEAD, FIXED, CHUNK_SIZE, CHUNK_DATA, CHUNK_DATA_END, TRAILERS, UNTIL_CLOSE, IDLE, BROKEN }

    private static final int MAX_HEAD = 16 * 1024;
    private static final int MAX_LINE = 1024;

    private final Listener listener;
    private final byte[] head = new byte[MAX_HEAD];
    private int headLength;
    private final byte[] line = new byte[MAX_LINE];
    private int lineLength;
    private State state = State.HEAD;
    private long remaining;
    private boolean expectingResponse;

    ResponseParser(Listener listener) {
        this.listener = listener;
    }

    /** Prepares for a new connection: forgets any partial response. */
    void reset() {
        state = State.HEAD;
        headLength = 0;
        lineLength = 0;
        remaining = 0;
        expectingResponse = false;
    }

    /** Ignores everything until {@link #reset()}: the connection gave up on the response (and closes). */
    void abandon() {
        state = State.BROKEN;
    }

    /** A request was sent: the next bytes are its response. */
    void expectResponse() {
        if (state == State.IDLE) {
            state = State.HEAD;
        }
        expectingResponse = true;
    }

    /** Whether a response is under way whose end is the connection's close. */
    boolean endsAtClose() {
        return state == State.UNTIL_CLOSE;
    }

    /** The connection closed: ends a close-delimited body; returns whether a response ended so. */
    boolean onClose() {
        if (state == State.UNTIL_CLOSE) {
            state = State.IDLE;
            expectingResponse = false;
            listener.onEnd();
            return true;
        }
        return false;
    }

    /** Parses {@code in}'s readable bytes (consuming them). */
    void feed(ByteBuf in) {
        while (in.isReadable()) {
            switch (state) {
                case HEAD -> {
                    if (!expectingResponse) {
                        in.skipBytes(in.readableBytes()); // bytes nobody asked for (e.g. after a timeout)
                        return;
                    }
                    readHead(in);
                }
                case FIXED -> {
                    int n = (int) Math.min(remaining, in.readableBytes());
                    body(in, n);
                    remaining -= n;
                    if (remaining == 0) {
                        end();
                    }
                }
                case CHUNK_SIZE -> {
                    int n = readLine(in);
                    if (n >= 0) {
                        chunkSize(n);
                    }
                }
                case CHUNK_DATA -> {
                    int n = (int) Math.min(remaining, in.readableBytes());
                    body(in, n);
                    remaining -= n;
                    if (remaining == 0) {
                        state = State.CHUNK_DATA_END;
                    }
                }
                case CHUNK_DATA_END -> {
                    int n = readLine(in);
                    if (n > 0) {
                        malformed("chunk data longer than its size");
                    } else if (n == 0) {
                        state = State.CHUNK_SIZE;
                    }
                }
                case TRAILERS -> {
                    if (readLine(in) == 0) {
                        end();
                    }
                }
                case UNTIL_CLOSE -> body(in, in.readableBytes());
                case IDLE, BROKEN -> {
                    in.skipBytes(in.readableBytes());
                    return;
                }
                default -> throw new IllegalStateException(state.name());
            }
        }
    }

    private void body(ByteBuf in, int n) {
        int readerIndex = in.readerIndex();
        int writerIndex = in.writerIndex();
        in.writerIndex(readerIndex + n);
        try {
            listener.onBody(in);
        } finally {
            in.writerIndex(writerIndex);
            in.readerIndex(readerIndex + n);
        }
    }

    private void end() {
        state = State.IDLE;
        expectingResponse = false;
        listener.onEnd();
    }

    private void malformed(String reason) {
        state = State.BROKEN;
        listener.onMalformed(reason);
    }

    /** Copies head bytes until the empty line; parses the head once it is complete. */
    private void readHead(ByteBuf in) {
        int from = in.readerIndex();
        int to = in.writerIndex();
        for (int i = from; i < to; i++) {
            byte b = in.getByte(i);
            if (headLength == MAX_HEAD) {
                in.readerIndex(i);
                malformed("response head longer than " + MAX_HEAD + " bytes");
                return;
            }
            head[headLength++] = b;
            if (b == '\n' && endsHead()) {
                in.readerIndex(i + 1);
                parseHead();
                return;
            }
        }
        in.readerIndex(to);
    }

    private boolean endsHead() {
        int n = headLength;
        return (n >= 4 && head[n - 2] == '\r' && head[n - 3] == '\n' && head[n - 4] == '\r')
                || (n >= 2 && head[n - 2] == '\n');
    }

    private void parseHead() {
        int end = headLength;
        headLength = 0;
        int lineEnd = indexOf(head, 0, end, (byte) '\n');
        // status line: HTTP/1.x SP 3DIGIT [SP reason]
        if (lineEnd < 12 || !startsWith(head, 0, "HTTP/1.")) {
            malformed("not an HTTP/1.x status line");
            return;
        }
        boolean http11 = head[7] == '1';
        if (head[8] != ' ' || !digit(head[9]) || !digit(head[10]) || !digit(head[11])) {
            malformed("bad status line");
            return;
        }
        int status = (head[9] - '0') * 100 + (head[10] - '0') * 10 + (head[11] - '0');
        long contentLength = -1;
        boolean chunked = false;
        Boolean connectionClose = null;
        String xCache = null;
        String contentRange = null;
        int pos = lineEnd + 1;
        while (pos < end) {
            int eol = indexOf(head, pos, end, (byte) '\n');
            int lineStop = eol > pos && head[eol - 1] == '\r' ? eol - 1 : eol;
            if (lineStop == pos) {
                break; // the empty line
            }
            int colon = indexOf(head, pos, lineStop, (byte) ':');
            if (colon == pos || colon >= lineStop) {
                malformed("header line without a name");
                return;
            }
            int valueStart = colon + 1;
            while (valueStart < lineStop && (head[valueStart] == ' ' || head[valueStart] == '\t')) {
                valueStart++;
            }
            int valueEnd = lineStop;
            while (valueEnd > valueStart && (head[valueEnd - 1] == ' ' || head[valueEnd - 1] == '\t')) {
                valueEnd--;
            }
            int nameLength = colon - pos;
            if (nameIs(pos, nameLength, "content-length")) {
                long value = parseDecimal(valueStart, valueEnd);
                if (value < 0 || (contentLength >= 0 && contentLength != value)) {
                    malformed("bad Content-Length");
                    return;
                }
                contentLength = value;
            } else if (nameIs(pos, nameLength, "transfer-encoding")) {
                chunked = endsWithIgnoreCase(valueStart, valueEnd, "chunked");
            } else if (nameIs(pos, nameLength, "connection")) {
                if (containsIgnoreCase(valueStart, valueEnd, "close")) {
                    connectionClose = Boolean.TRUE;
                } else if (containsIgnoreCase(valueStart, valueEnd, "keep-alive") && connectionClose == null) {
                    connectionClose = Boolean.FALSE;
                }
            } else if (nameIs(pos, nameLength, "x-cache")) {
                xCache = new String(head, valueStart, valueEnd - valueStart, StandardCharsets.ISO_8859_1);
            } else if (nameIs(pos, nameLength, "content-range")) {
                contentRange = new String(head, valueStart, valueEnd - valueStart, StandardCharsets.ISO_8859_1);
            }
            pos = eol + 1;
        }
        if (status >= 100 && status < 200) {
            state = State.HEAD; // interim response: the real one follows
            return;
        }
        boolean keepAlive = connectionClose == null ? http11 : !connectionClose;
        boolean bodiless = status == 204 || status == 304;
        if (chunked) {
            contentLength = -1; // Transfer-Encoding wins over Content-Length (RFC 9112 6.3)
        }
        listener.onHead(status, keepAlive, bodiless ? 0 : contentLength, xCache, contentRange);
        if (state == State.BROKEN) {
            return; // the listener gave up on this response
        }
        if (bodiless || (!chunked && contentLength == 0)) {
            end();
        } else if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (contentLength > 0) {
            remaining = contentLength;
            state = State.FIXED;
        } else {
            state = State.UNTIL_CLOSE;
        }
    }

    /**
     * Reads a CRLF- (or LF-) terminated line into {@link #line}; returns its length without the line end once
     * it is complete, -1 while it is not (or when it was too long: then the parser is broken).
     */
    private int readLine(ByteBuf in) {
        int from = in.readerIndex();
        int to = in.writerIndex();
        for (int i = from; i < to; i++) {
            byte b = in.getByte(i);
            if (b == '\n') {
                in.readerIndex(i + 1);
                int length = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
                lineLength = 0;
                return length;
            }
            if (lineLength == MAX_LINE) {
                in.readerIndex(i);
                malformed("chunk line longer than " + MAX_LINE + " bytes");
                return -1;
            }
            line[lineLength++] = b;
        }
        in.readerIndex(to);
        return -1;
    }

    private void chunkSize(int n) {
        long size = 0;
        int digits = 0;
        for (int i = 0; i < n; i++) {
            int d = Character.digit(line[i], 16);
            if (d < 0) {
                if (line[i] == ';' || line[i] == ' ' || line[i] == '\t') {
                    break; // chunk extensions are ignored
                }
                malformed("bad chunk size");
                return;
            }
            if (++digits > 15) {
                malformed("chunk size too large");
                return;
            }
            size = size * 16 + d;
        }
        if (digits == 0) {
            malformed("empty chunk size");
            return;
        }
        if (size == 0) {
            state = State.TRAILERS;
        } else {
            remaining = size;
            state = State.CHUNK_DATA;
        }
    }

    private boolean nameIs(int pos, int length, String lowerName) {
        if (length != lowerName.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if ((head[pos + i] | 0x20) != lowerName.charAt(i) && head[pos + i] != lowerName.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private long parseDecimal(int from, int to) {
        if (from == to || to - from > 18) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            if (!digit(head[i])) {
                return -1;
            }
            v = v * 10 + (head[i] - '0');
        }
        return v;
    }

    private boolean endsWithIgnoreCase(int from, int to, String lower) {
        int start = to - lower.length();
        if (start < from) {
            return false;
        }
        for (int i = 0; i < lower.length(); i++) {
            if ((head[start + i] | 0x20) != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private boolean containsIgnoreCase(int from, int to, String lower) {
        for (int s = from; s + lower.length() <= to; s++) {
            boolean match = true;
            for (int i = 0; i < lower.length() && match; i++) {
                match = (head[s + i] | 0x20) == lower.charAt(i);
            }
            if (match) {
                return true;
            }
        }
        return false;
    }

    private static boolean digit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean startsWith(byte[] a, int at, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (a[at + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] a, int from, int to, byte b) {
        for (int i = from; i < to; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return to;
    }
}
