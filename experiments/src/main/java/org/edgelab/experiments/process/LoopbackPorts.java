package org.edgelab.experiments.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Loopback ports chosen before the server that will listen on them starts, so that its address can be handed to
 * another process at the same time. The port is found by binding port 0 and closing it, so another process may take
 * it before the server binds it: callers retry on a new port when the server's log says the address is in use.
 * Stateless and thread-safe; {@link #free} opens and closes a socket in the calling thread's network namespace and does
 * not block.
 */
public final class LoopbackPorts {
    private LoopbackPorts() {
    }

    /** A loopback port that was free a moment ago. */
    public static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
