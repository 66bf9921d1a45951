/**
 * Netty transport pieces shared by EdgeLab's servers and clients (the origin, the cache server, the
 * load generator): the one choice of epoll or NIO with its event-loop groups and channel classes
 * ({@link org.edgelab.transport.Transport}), and how a writer gives its loop's other channels their
 * turn ({@link org.edgelab.transport.LoopTurns}). Needs Netty on the class path (an optional
 * dependency of {@code common}).
 */
package org.edgelab.transport;
