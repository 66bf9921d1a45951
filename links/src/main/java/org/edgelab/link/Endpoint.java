package org.edgelab.link;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * One side of a link: where a server listens or a load connects from. On the host it is loopback; behind a kernel
 * link it is a network namespace, and everything that opens a socket on that side (a server's bind, a load's
 * connects, a readiness check, a stats read, a child process) must run through {@link #call} (a thread that has
 * joined the namespace; threads and processes it starts inherit it) or {@link #command}.
 *
 * <p>Thread-safe. {@link #call} blocks until the task has run.
 */
public interface Endpoint {
    /** A short name for messages ("client", "server", or the host). */
    String name();

    /** The address of this side: servers listen on it, peers connect to it. */
    InetAddress address();

    /** True for the host's own network (loopback), where no namespace is involved. */
    boolean isHost();

    /**
     * Runs {@code task} on a thread of this side and returns its result; an exception it throws is rethrown
     * (checked ones wrapped in {@link java.util.concurrent.ExecutionException}'s cause, unwrapped here as they are).
     */
    <T> T call(Callable<T> task) throws Exception;

    /** {@code command} prefixed so that the process it starts runs on this side ({@code ip netns exec NAME}, or as is on the host). */
    List<String> command(List<String> command);

    /**
     * Throws IllegalStateException when the calling thread is not on this side: a guard a connection runs before it
     * connects, so that a socket made on the wrong side can never send a packet to this side's address elsewhere.
     */
    void checkCurrentThread();
}
