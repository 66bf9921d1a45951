package org.edgelab.experiments.process.cgroup;

import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;

/**
 * One memory cgroup made by EdgeLab for a server under test: a command started through {@link #wrap} joins it
 * before it runs (so every process it starts is in it, and its page cache is charged to it), its memory figures
 * are read back, and {@link #close()} kills what is still in it and removes it (idempotent). Thread-safe; every
 * call reads or writes cgroupfs files and may block briefly.
 */
public interface Cgroup extends AutoCloseable {

    /** Which interface bounds it, e.g. {@code cgroup v1} (written into manifests). */
    String version();

    /** The cgroup's directory, e.g. {@code /sys/fs/cgroup/memory/edgelab-123-1-cell}. */
    java.nio.file.Path path();

    /** The memory limit in bytes (its {@code memory.limit_in_bytes} or {@code memory.max}), empty when unlimited. */
    OptionalLong limitBytes();

    /** The name of the limit file, e.g. {@code memory.limit_in_bytes}, for messages and manifests. */
    String limitFile();

    /**
     * {@code command} prefixed by a shell that writes its own pid into the cgroup and then {@code exec}s the
     * command: the process and everything it starts run inside from their first instruction; if the write
     * fails, the shell exits with status 125 and says why.
     */
    List<String> wrap(List<String> command);

    /** Moves a running process into the cgroup (its threads with it; children it starts later follow). */
    void join(long pid) throws IOException;

    /** The pids of the processes in the cgroup now. */
    List<Long> pids() throws IOException;

    /** Memory figures now; fields the kernel does not expose are -1. */
    CgroupMemory memory() throws IOException;

    /** Kills the processes left in it (SIGKILL), waits for them to go and removes the cgroup; logs what it cannot do. */
    @Override
    void close();
}
