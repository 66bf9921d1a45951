package org.edgelab.cache.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A plain-socket HTTP/1.1 client for what java.net.http hides: pipelining, truncation, raw limits, idle closes. */
final class RawHttp implements AutoCloseable {

    /** One response as read from the wire; {@code complete} false when the connection ended inside the body. */
    record Response(int status, Map<String, String> headers, byte[] body, boolean complete) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;

    RawHttp(int port) throws IOException {
        this(port, 0);
    }

    /** Connects with the given receive buffer size (0: the system's, auto-tuned). */
    RawHttp(int port, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new java.net.InetSocketAddress("127.0.0.1", port));
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
    }

    void send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    /** Waits, without reading, until at least {@code n} bytes of the reply have arrived (at most the socket timeout). */
    void awaitBytes(int n) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + socket.getSoTimeout() * 1_000_000L;
        while (in.available() < n) {
            if (System.nanoTime() > deadline) {
                throw new java.net.SocketTimeoutException("no " + n + " bytes of a reply within " + socket.getSoTimeout() + " ms");
            }
            Thread.sleep(5);
        }
    }

    void soTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /** Reads one response to a request of the given method; returns null if the connection closed first. */
    Response read(boolean head) throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            return null;
        }
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        String l;
        while ((l = line()) != null && !l.isEmpty()) {
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        boolean complete = true;
        if (head || status == 304 || status == 204) {
            return new Response(status, headers, body.toByteArray(), true);
        }
        if (headers.containsKey("content-length")) {
            long n = Long.parseLong(headers.get("content-length"));
            byte[] buf = new byte[8192];
            while (body.size() < n) {
                int r = in.read(buf, 0, (int) Math.min(buf.length, n - body.size()));
                if (r < 0) {
                    complete = false;
                    break;
                }
                body.write(buf, 0, r);
            }
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            while (true) {
                String size = line();
                if (size == null) {
                    complete = false;
                    break;
                }
                int n = Integer.parseInt(size.trim(), 16);
                if (n == 0) {
                    line();
                    break;
                }
                byte[] chunk = in.readNBytes(n);
                body.write(chunk);
                if (chunk.length < n || line() == null) {
                    complete = false;
                    break;
                }
            }
        } else {
            body.write(in.readAllBytes());
        }
        return new Response(status, headers, body.toByteArray(), complete);
    }

    /** Returns true when the server closes the connection within the socket timeout. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** Reads one line (CRLF stripped), or null at the end of the stream. */
    String line() throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                int len = b.length();
                return len > 0 && b.charAt(len - 1) == '\r' ? b.substring(0, len - 1) : b.toString();
            }
            b.append((char) c);
        }
        return b.length() == 0 ? null : b.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
