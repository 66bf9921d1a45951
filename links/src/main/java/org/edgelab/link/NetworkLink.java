package org.edgelab.link;

import java.util.Optional;

/**
 * An open link between one client side and one server side, shared by every connection that crosses it: opened by
 * {@link NetworkLinks} for a run and closed after it. A kernel link puts the two sides in network namespaces and
 * shapes and delays the packets between them; a user-space link leaves both sides on the host and the shaping to the
 * load's own sockets ({@link #shapedByLoad()}).
 *
 * <p>Thread-safe; {@link #counters()} and {@link #probe} may block briefly (they ask the kernel), {@link #close()}
 * blocks until everything the link made is removed.
 */
public interface NetworkLink extends AutoCloseable {
    /** How the link is emulated: {@code kernel} or {@code user-space}. */
    String emulation();

    /** What the link was asked to be. */
    LinkShape shape();

    /** Where the load runs. */
    Endpoint client();

    /** Where the servers run. */
    Endpoint server();

    /** True when the load must shape and delay its own connections (the user-space link); false when the kernel does. */
    boolean shapedByLoad();

    /** Bytes and drops the link counted since it opened: its shapers', its devices' where a direction is unshaped ({@link LinkCounters#ZERO} when the load shapes). */
    LinkCounters counters();

    /**
     * The round-trip time across the link measured now by the kernel on {@code samples} TCP connections from the client
     * side to a listener on the server side, or empty where a probe cannot see the delay (a user-space delay sits above the
     * sockets).
     */
    Optional<RoundTrip> probe(int samples);

    /** One line for results: the emulation, the shape and anything worth knowing (a fallback and its reason). */
    String describe();

    /** Removes everything the link made (namespaces, devices, queues, processes); idempotent. */
    @Override
    void close();
}
