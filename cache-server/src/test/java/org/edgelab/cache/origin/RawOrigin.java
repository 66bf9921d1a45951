package org.edgelab.cache.origin;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback origin scripted per path, on raw sockets: {@code /ok} answers "hello" kept alive, {@code /silent}
 * never answers, {@code /cut} sends half a body and closes, {@code /close-if-reused} closes a connection on which
 * it is not the first request and otherwise answers as {@code /ok}, as does any other path. Records each
 * request's line and Host. Thread-safe: a thread per connection; close does not wait for them.
 */
final class RawOrigin implements AutoCloseable {
    private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** Each request received, as {@code "GET /path host"}. */
    final List<String> requests = new CopyOnWriteArrayList<>();
    volatile int connections;

    private final Thread acceptor;
    private final List<Thread> servers = new CopyOnWriteArrayList<>();

    RawOrigin() throws IOException {
        acceptor = new Thread(() -> {
            try {
                while (true) {
                    Socket s = server.accept();
                    connections++;
                    sockets.add(s);
                    Thread t = new Thread(() -> serve(s), "raw-origin-conn");
                    t.setDaemon(true);
                    servers.add(t);
                    t.start();
                }
            } catch (IOException closed) {
                // the test closed the origin
            }
        }, "raw-origin-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.getLocalSocketAddress()).getPort());
    }

    private void serve(Socket s) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            for (int n = 0; ; n++) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                String path = head.substring(0, head.indexOf("\r\n")).split(" ")[1];
                String host = "";
                for (String field : head.split("\r\n")) {
                    if (field.regionMatches(true, 0, "host:", 0, 5)) {
                        host = field.substring(5).trim();
                    }
                }
                requests.add("GET " + path + " " + host);
                switch (path) {
                    case "/silent" -> {
                        in.read(); // until the client gives up and closes
                        return;
                    }
                    case "/cut" -> {
                        out.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"
                                .getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        return;
                    }
                    case "/close-if-reused" -> {
                        if (n > 0) {
                            return;
                        }
                    }
                    default -> {
                    }
                }
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (IOException gone) {
            // the client closed the connection
        }
    }

    /** Reads a request head (no body: GETs only) and returns it; null at the end of the stream. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            head.append((char) c);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                return head.toString();
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
        // Closing a socket another thread is blocked on takes effect only once that thread is woken: until the
        // acceptor and every connection's thread have ended, a connection could still be accepted or a request
        // answered, and a test that closed this origin would see it answer.
        try {
            acceptor.join(10_000);
            for (Socket s : sockets) {
                s.close(); // one the acceptor took while it was being closed
            }
            for (Thread t : servers) {
                t.join(10_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while the origin closed");
        }
    }
}
