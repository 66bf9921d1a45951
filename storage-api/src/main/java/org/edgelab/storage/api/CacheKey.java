package org.edgelab.storage.api;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The name of a stored object: an opaque, non-empty string of at most {@link #MAX_BYTES} UTF-8 bytes.
 *
 * <p>The cache server builds keys from the request (host, path, query and, for variants, the
 * selecting header values); engines treat them as opaque. Immutable and thread-safe.
 */
public record CacheKey(String value) {

    /** The longest key in UTF-8 bytes; engines may rely on this bound for their on-disk layout. */
    public static final int MAX_BYTES = 4096;

    public CacheKey {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("a cache key cannot be empty");
        }
        if (value.length() > MAX_BYTES || utf8Length(value) > MAX_BYTES) {
            throw new IllegalArgumentException(
                    "a cache key is at most " + MAX_BYTES + " UTF-8 bytes, got " + utf8Length(value));
        }
    }

    /** Returns a key for the given string. */
    public static CacheKey of(String value) {
        return new CacheKey(value);
    }

    /** Returns the key's UTF-8 bytes. */
    public byte[] toBytes() {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    /** Returns a 64-bit hash of the key, stable across JVMs (FNV-1a over the UTF-8 bytes). */
    public long hash64() {
        long h = 0xcbf29ce484222325L;
        for (byte b : toBytes()) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
        return h;
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    @Override
    public String toString() {
        return value;
    }
}
