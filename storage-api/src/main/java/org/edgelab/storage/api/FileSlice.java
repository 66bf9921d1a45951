package org.edgelab.storage.api;

import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * A byte range of an open file that holds part of an object, for zero-copy transfer
 * ({@code sendfile}). The channel belongs to the engine: callers must not close it, and may use
 * it only while the {@link StoredObject} it came from is open. Immutable.
 */
public record FileSlice(FileChannel channel, long position, long length) {
    public FileSlice {
        Objects.requireNonNull(channel, "channel");
        if (position < 0 || length < 0) {
            throw new IllegalArgumentException("position and length must be >= 0");
        }
    }
}
