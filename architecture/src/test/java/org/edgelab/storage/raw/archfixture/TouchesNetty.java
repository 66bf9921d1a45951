package org.edgelab.storage.raw.archfixture;

import io.netty.buffer.ByteBuf;

/** A storage class that uses Netty, for the test that the Netty-free rule catches it (never run). */
public final class TouchesNetty {
    /** Reads a byte the Netty way. */
    public byte first(ByteBuf buf) {
        return buf.getByte(0);
    }
}
