package org.edgelab.origin.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Something the origin serves: its length, validators and bytes. Implementations are used by one
 * response on one event loop at a time and are not thread-safe; {@link #close()} releases any file.
 */
interface Representation extends AutoCloseable {

    /** Length in bytes. */
    long length();

    /** The strong entity tag, quoted, e.g. {@code "1f3a"}. */
    String etag();

    /** Last modification time in epoch milliseconds, a whole number of seconds. */
    long lastModifiedMillis();

    /** A new buffer holding {@code length} bytes from {@code offset}; the caller releases it. */
    ByteBuf read(ByteBufAllocator alloc, long offset, int length) throws IOException;

    /** The open file to send by zero copy, or null if the bytes are not in a file. */
    FileChannel fileChannel() throws IOException;

    /** Releases any open file; idempotent. */
    @Override
    void close();
}
