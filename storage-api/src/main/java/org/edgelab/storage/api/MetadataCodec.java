package org.edgelab.storage.api;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The one binary form of {@link ObjectMetadata} that persistent engines write to disk:
 * a version byte, the status, length and times, then the headers as length-prefixed UTF-8.
 * Decoding damaged bytes fails with {@link CorruptObjectException}. Stateless and thread-safe.
 */
public final class MetadataCodec {

    private static final byte VERSION = 1;
    private static final int MAX_HEADERS = 512;

    private MetadataCodec() {
    }

    /** Returns the number of bytes {@link #encode} writes for {@code m}. */
    public static int encodedLength(ObjectMetadata m) {
        int n = 1 + 2 + 8 * 4 + 2;
        for (HeaderField h : m.headers()) {
            n += 4 + utf8(h.name()).length + utf8(h.value()).length;
        }
        return n;
    }

    /** Encodes {@code m} into a new heap buffer, flipped for reading. */
    public static ByteBuffer encode(ObjectMetadata m) {
        ByteBuffer out = ByteBuffer.allocate(encodedLength(m));
        encode(m, out);
        return out.flip();
    }

    /** Writes {@code m} at the position of {@code out}, which must have {@link #encodedLength} bytes left. */
    public static void encode(ObjectMetadata m, ByteBuffer out) {
        if (m.headers().size() > MAX_HEADERS) {
            throw new IllegalArgumentException("at most " + MAX_HEADERS + " headers can be stored");
        }
        out.put(VERSION);
        out.putShort((short) m.status());
        out.putLong(m.length());
        out.putLong(m.requestTimeMillis());
        out.putLong(m.responseTimeMillis());
        out.putLong(m.expiresAtMillis());
        out.putShort((short) m.headers().size());
        for (HeaderField h : m.headers()) {
            byte[] name = utf8(h.name());
            byte[] value = utf8(h.value());
            if (name.length > 0xffff || value.length > 0xffff) {
                throw new IllegalArgumentException("header '" + h.name() + "' is too long to store");
            }
            out.putShort((short) name.length).put(name);
            out.putShort((short) value.length).put(value);
        }
    }

    /** Decodes metadata from the position of {@code in}, advancing it. */
    public static ObjectMetadata decode(ByteBuffer in) throws CorruptObjectException {
        try {
            byte version = in.get();
            if (version != VERSION) {
                throw new CorruptObjectException("unknown metadata version " + version);
            }
            int status = in.getShort() & 0xffff;
            long length = in.getLong();
            long requestTime = in.getLong();
            long responseTime = in.getLong();
            long expiresAt = in.getLong();
            int count = in.getShort() & 0xffff;
            if (count > MAX_HEADERS) {
                throw new CorruptObjectException("metadata claims " + count + " headers");
            }
            List<HeaderField> headers = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                headers.add(new HeaderField(string(in), string(in)));
            }
            return new ObjectMetadata(status, headers, length, requestTime, responseTime, expiresAt);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptObjectException("damaged metadata: " + e, e);
        }
    }

    private static String string(ByteBuffer in) {
        int n = in.getShort() & 0xffff;
        byte[] b = new byte[n];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
