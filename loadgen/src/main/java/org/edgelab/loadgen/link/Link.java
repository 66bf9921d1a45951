package org.edgelab.loadgen.link;

import io.netty.channel.Channel;

/**
 * An emulated link that every connection of one load crosses: one bandwidth cap per direction shared by all
 * of them, and a one-way delay. Opened by a {@link LinkEmulator}, closed after the load.
 *
 * <p>Thread-safe: connections on every event loop attach to it and cross it at once; no call blocks.
 */
public interface Link extends AutoCloseable {
    /** The emulator's name ({@code user-space}, or {@code none} for no link), for results. */
    String emulation();

    /**
     * Puts a new connection on this link: a user-space link adds its handler at the head of the pipeline;
     * a link the kernel emulates adds nothing. Called once per connection, on its event loop, before it is active.
     */
    void attach(Channel channel);

    /** Bytes the link has carried towards the client (responses) since it was opened: those that reached a connection. */
    long bytesDown();

    /** Bytes the link has carried towards the server (requests) since it was opened: those handed to a socket. */
    long bytesUp();

    /** Tears the link down; connections still on it keep working unshaped. */
    @Override
    void close();
}
