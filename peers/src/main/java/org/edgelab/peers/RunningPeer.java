package org.edgelab.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.experiments.process.ManagedProcess;
import org.edgelab.experiments.process.ProcessCpu;
import org.edgelab.experiments.target.CpuSample;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerRestart;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.origin.OriginServer;

/**
 * A peer serving one cell: EdgeLab's synthetic origin in this JVM and the peer's process in front of it.
 * CPU time is the peer's process tree only (the origin is not under test). {@link #close()} stops the
 * peer, then the origin, then deletes the files the peer made outside the cell's folders; it is
 * idempotent. A peer made {@link #restartable} can be SIGKILLed and started again with its first command on the same
 * port and store ({@link #restart()}), its origin running on. Thread-safe.
 */
public final class RunningPeer implements RunningTarget {

    private static final System.Logger LOG = System.getLogger(RunningPeer.class.getName());

    private final String peer;
    private final OriginServer origin;
    private volatile ManagedProcess process;
    private volatile ServerRestart restart;
    private final int port;
    private final CounterSource counters;
    private final List<Path> cleanup;
    private final AtomicBoolean closed = new AtomicBoolean();

    private final String host;

    /**
     * A peer started in front of {@code origin}; it owns both from now on.
     *
     * @param peer     the peer's process name, for the CPU method label
     * @param origin   the origin the peer forwards to (closed by {@link #close()})
     * @param process  the peer's process (closed by {@link #close()})
     * @param port     the loopback port clients use
     * @param counters reads the peer's counters
     * @param cleanup  files and directories to delete after the peer stopped
     */
    public RunningPeer(String peer, OriginServer origin, ManagedProcess process, int port, CounterSource counters, List<Path> cleanup) {
        this(peer, origin, process, "127.0.0.1", port, counters, cleanup);
    }

    /** A peer whose clients reach it on {@code host} (the server side of a kernel link) rather than loopback. */
    public RunningPeer(String peer, OriginServer origin, ManagedProcess process, String host, int port, CounterSource counters,
                       List<Path> cleanup) {
        this.host = host;
        this.peer = peer;
        this.origin = origin;
        this.process = process;
        this.port = port;
        this.counters = counters;
        this.cleanup = List.copyOf(cleanup);
    }

    /**
     * Lets the runner kill this peer's process and start {@code launched}'s command again on the same port and store
     * (what {@link #restart()} gives), each start waiting up to {@code timeout}; returns this.
     */
    public RunningPeer restartable(PeerLauncher.Launched launched, java.time.Duration timeout) {
        int[] starts = {0};
        this.restart = new ServerRestart() {
            @Override
            public synchronized void kill() throws IOException, InterruptedException {
                process.kill();
            }

            @Override
            public synchronized void start() throws IOException, InterruptedException {
                if (closed.get()) {
                    throw new IOException("the cell's " + peer + " is closed");
                }
                ManagedProcess old = process;
                if (old.alive()) {
                    throw new IOException(peer + " (pid " + old.pid() + ") is still running: kill it first");
                }
                old.close();
                process = launched.restart("restart-" + (++starts[0]), timeout);
            }

            @Override
            public long originBytesSent() {
                return origin.stats().bytesSent();
            }
        };
        return this;
    }

    @Override
    public java.util.Optional<ServerRestart> restart() {
        return java.util.Optional.ofNullable(restart);
    }

    @Override
    public URI clientUri() {
        return URI.create("http://" + host + ":" + port);
    }

    /** The peer's process. */
    public ManagedProcess process() {
        return process;
    }

    /** The origin behind the peer. */
    public OriginServer origin() {
        return origin;
    }

    @Override
    public ServerCounters counters() throws IOException {
        if (!process.alive()) {
            throw new IOException(peer + " exited with status " + process.exitStatus().orElse(-1) + "; last lines of " + process.log()
                    + ":\n" + process.tail(20));
        }
        return counters.read();
    }

    @Override
    public java.util.Optional<Long> serverPid() {
        return java.util.Optional.of(process.pid());
    }

    @Override
    public CpuSample cpu() throws IOException {
        return new CpuSample(process.cpuSeconds(), ProcessCpu.METHOD + " of " + peer + " (origin not included)");
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            process.close();
        } finally {
            try {
                origin.close();
            } finally {
                cleanup.forEach(RunningPeer::deleteQuietly);
            }
        }
    }

    /** Deletes {@code path} (recursively for a directory); logs rather than throws, for use in cleanup. */
    public static void deleteQuietly(Path path) {
        try {
            deleteRecursively(path);
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot delete " + path + ": " + e.getMessage());
        }
    }

    /** Deletes {@code path} and, for a directory, everything under it; a missing path is not an error. */
    public static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(path, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
