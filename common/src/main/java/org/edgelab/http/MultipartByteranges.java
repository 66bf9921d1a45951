package org.edgelab.http;

import org.edgelab.http.ByteRanges.ByteRange;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The framing of a multipart/byteranges body (RFC 9110 §14.6, RFC 2046 §5.1), computed up front so
 * a server can send the exact Content-Length and then stream each part's bytes from storage.
 *
 * <p>The body is: for each part i, {@link #partHeader(int) partHeader(i)} then the range's bytes;
 * then {@link #trailer()}. Part headers carry Content-Type (when the representation has one) and
 * Content-Range; every part after the first starts with the CRLF that ends the previous part's
 * data. The boundary is 32 random hex digits after a fixed prefix, so it cannot occur by chance in
 * the content. Immutable and thread-safe.
 */
public final class MultipartByteranges {

    private static final String BOUNDARY_PREFIX = "edgelab-";

    private final String boundary;
    private final List<ByteRange> ranges;
    private final List<byte[]> partHeaders;
    private final byte[] trailer;
    private final long contentLength;

    private MultipartByteranges(String boundary, List<ByteRange> ranges, long totalLength, String partContentType) {
        this.boundary = boundary;
        this.ranges = List.copyOf(ranges);
        List<byte[]> headers = new ArrayList<>(ranges.size());
        long length = 0;
        for (int i = 0; i < this.ranges.size(); i++) {
            ByteRange range = this.ranges.get(i);
            if (range.last() >= totalLength) {
                throw new IllegalArgumentException("range " + range.first() + "-" + range.last()
                        + " lies outside a representation of " + totalLength + " bytes");
            }
            StringBuilder h = new StringBuilder(128);
            if (i > 0) {
                h.append("\r\n");
            }
            h.append("--").append(boundary).append("\r\n");
            if (partContentType != null && !partContentType.isBlank()) {
                h.append("Content-Type: ").append(partContentType).append("\r\n");
            }
            h.append("Content-Range: ").append(range.contentRange(totalLength)).append("\r\n\r\n");
            byte[] bytes = h.toString().getBytes(StandardCharsets.ISO_8859_1);
            headers.add(bytes);
            length += bytes.length + range.length();
        }
        this.partHeaders = List.copyOf(headers);
        this.trailer = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.ISO_8859_1);
        this.contentLength = length + trailer.length;
    }

    /**
     * Frames these ranges (at least two, as {@link ByteRanges} returns them) of a representation of
     * {@code totalLength} bytes whose Content-Type is {@code partContentType} (null for none), with a
     * fresh random boundary.
     */
    public static MultipartByteranges of(List<ByteRange> ranges, long totalLength, String partContentType) {
        return of(ranges, totalLength, partContentType, newBoundary());
    }

    /** Frames the ranges with the given boundary (1 to 70 letters, digits or {@code '+-._}, so it needs no quoting). */
    public static MultipartByteranges of(List<ByteRange> ranges, long totalLength, String partContentType,
                                         String boundary) {
        if (boundary == null || boundary.isEmpty() || boundary.length() > 70
                || !boundary.chars().allMatch(MultipartByteranges::isBoundaryChar)) {
            throw new IllegalArgumentException("invalid multipart boundary: " + boundary);
        }
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("a multipart/byteranges body needs at least one range");
        }
        return new MultipartByteranges(boundary, ranges, totalLength, partContentType);
    }

    /** Returns a new random boundary. */
    public static String newBoundary() {
        byte[] random = new byte[16];
        ThreadLocalRandom.current().nextBytes(random);
        return BOUNDARY_PREFIX + HexFormat.of().formatHex(random);
    }

    private static boolean isBoundaryChar(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                || "'+-._".indexOf(c) >= 0;
    }

    /** The boundary. */
    public String boundary() {
        return boundary;
    }

    /** The response's Content-Type, {@code multipart/byteranges; boundary=...}. */
    public String contentType() {
        return "multipart/byteranges; boundary=" + boundary;
    }

    /** The ranges, one per part, in order. */
    public List<ByteRange> ranges() {
        return ranges;
    }

    /** The number of parts. */
    public int partCount() {
        return ranges.size();
    }

    /** The bytes to write before part {@code index}'s data (a copy: callers may wrap it in a buffer). */
    public byte[] partHeader(int index) {
        return partHeaders.get(index).clone();
    }

    /** The bytes to write after the last part's data (a copy). */
    public byte[] trailer() {
        return trailer.clone();
    }

    /** The exact length of the whole body: every part header and range plus the trailer. */
    public long contentLength() {
        return contentLength;
    }
}
