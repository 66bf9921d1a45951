package org.edgelab.origin.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A minimal HTTP/1.1 client over a raw socket, for what java.net.http hides (resets, malformed requests, keep-alive). Not thread-safe. */
final class RawHttp implements AutoCloseable {

    /** A response: status, headers (lower-case names) and body (read by Content-Length, chunked, or to EOF). */
    record Response(int status, Map<String, String> headers, byte[] body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;

    RawHttp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
    }

    Socket socket() {
        return socket;
    }

    void send(String requestText) throws IOException {
        socket.getOutputStream().write(requestText.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    /** Reads one response; {@code head} says it answers a HEAD (no body). */
    Response read(boolean head) throws IOException {
        int status = readStatus();
        Map<String, String> headers = readHeaders();
        byte[] body;
        String length = headers.get("content-length");
        if (head || status == 304) {
            body = new byte[0];
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = readChunked();
        } else if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
        } else {
            body = in.readAllBytes();
        }
        return new Response(status, headers, body);
    }

    int readStatus() throws IOException {
        String statusLine = readLine();
        return Integer.parseInt(statusLine.split(" ")[1]);
    }

    Map<String, String> readHeaders() throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        return headers;
    }

    InputStream in() {
        return in;
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            int size = Integer.parseInt(readLine().trim(), 16);
            if (size == 0) {
                readLine();
                return out.toByteArray();
            }
            out.write(in.readNBytes(size));
            readLine();
        }
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new IOException("connection closed mid-line after '" + line + "'");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
