package org.edgelab.experiments.target;

import java.io.IOException;

/**
 * The server under test of a running cell as a process that can be killed and started again on the same store, with
 * the same command: the same settings, port (clients keep their URL), admin port and memory cgroup, in front of the
 * same origin, which keeps running. After {@link #start()} the {@link RunningTarget}'s counters and CPU are the new
 * process's, counted from its start. Thread-safe; {@link #kill()} and {@link #start()} block and are called from one
 * thread, in turn.
 */
public interface ServerRestart {

    /** SIGKILLs the server's process and its descendants, as a crash or an OOM kill would, and returns once they are gone. */
    void kill() throws IOException, InterruptedException;

    /**
     * Starts the server again with its first command and returns once it listens on its client port (not necessarily
     * serving hits yet).
     *
     * @throws IOException when it exits or does not listen within the target's start timeout (its log quoted)
     */
    void start() throws IOException, InterruptedException;

    /** Bytes the origin has sent since it started (it outlives the server's restarts), -1 when it cannot tell. */
    long originBytesSent() throws IOException;
}
