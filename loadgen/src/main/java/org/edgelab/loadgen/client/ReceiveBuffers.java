package org.edgelab.loadgen.client;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;

/**
 * Sizes the buffers a load connection reads into. Response bodies are bulk data that is verified and
 * dropped at once, so a read may take up to {@link #MAX_READ} bytes: fewer read calls, event-loop
 * passes, decoder passes and verifier calls per response than Netty's default 64 KiB cap. The size
 * still adapts down for small responses, and a buffer is freed as soon as its bytes are checked.
 * A connection reads one buffer per pass of its loop (an allocator made here keeps Netty's
 * {@code maxMessagesPerRead} of 1, not the 16 of a channel's own default), so a first byte waiting on
 * another connection waits for at most one buffer of each (ReadsPerPassTest; with 16, up to 4 MiB each).
 * Stateless and thread-safe (each call returns a new allocator).
 */
final class ReceiveBuffers {
    /** The smallest read buffer. */
    static final int MIN_READ = 2 << 10;
    /** The first read buffer of a connection (Netty's default). */
    static final int INITIAL_READ = 64 << 10;
    /** The largest read buffer: one read takes a whole 100 KiB response; bounded for 1000s of connections. */
    static final int MAX_READ = 256 << 10;

    private ReceiveBuffers() {
    }

    /** The allocator for HTTP response streams carrying bulk bodies. */
    static RecvByteBufAllocator forBulkBodies() {
        return new AdaptiveRecvByteBufAllocator(MIN_READ, INITIAL_READ, MAX_READ);
    }
}
