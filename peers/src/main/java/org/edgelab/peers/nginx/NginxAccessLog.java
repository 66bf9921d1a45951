package org.edgelab.peers.nginx;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.edgelab.experiments.target.ServerCounters;

/**
 * nginx's counters, from its access log in the {@code edgelab} format ({@code label body_bytes_sent
 * upstream_response_length}, one line per client request): each read parses only the lines appended since
 * the last one and adds them to running totals. Requests are lines, hits lines whose label starts with
 * {@code HIT}, misses lines labelled {@code MISS}. Thread-safe (reads are serialised).
 */
final class NginxAccessLog {

    private static final int CHUNK = 1 << 16;

    private final Path file;
    private long offset;
    private long requests;
    private long hits;
    private long misses;
    private long bytesToClients;
    private long bytesFromOrigin;

    NginxAccessLog(Path file) {
        this.file = file;
    }

    /** The totals over every complete line written so far. */
    synchronized ServerCounters read() throws IOException {
        if (Files.exists(file)) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
                StringBuilder line = new StringBuilder();
                long position = offset;
                while (channel.read(buffer, position) > 0) {
                    buffer.flip();
                    int start = 0;
                    byte[] bytes = buffer.array();
                    for (int i = 0; i < buffer.limit(); i++) {
                        if (bytes[i] == '\n') {
                            line.append(new String(bytes, start, i - start, StandardCharsets.US_ASCII));
                            add(line);
                            line.setLength(0);
                            start = i + 1;
                            offset = position + start;
                        }
                    }
                    line.append(new String(bytes, start, buffer.limit() - start, StandardCharsets.US_ASCII));
                    position += buffer.limit();
                    buffer.clear();
                }
            }
        }
        return new ServerCounters(requests, hits, misses, bytesToClients, bytesFromOrigin);
    }

    /** Adds one complete line. */
    private void add(CharSequence line) {
        String text = line.toString().trim();
        if (text.isEmpty()) {
            return;
        }
        String[] fields = text.split(" ", 3);
        requests++;
        if (fields[0].startsWith("HIT")) {
            hits++;
        } else if (fields[0].equals("MISS")) {
            misses++;
        }
        if (fields.length > 1) {
            bytesToClients += number(fields[1]);
        }
        if (fields.length > 2) {
            // "-" without an upstream; "123, 456" or "123 : 456" when several upstream responses made one reply
            for (String part : fields[2].split("[^0-9]+")) {
                bytesFromOrigin += number(part);
            }
        }
    }

    private static long number(String text) {
        if (text.isEmpty() || !Character.isDigit(text.charAt(0))) {
            return 0;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
