package org.edgelab.experiments.target;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.edgelab.experiments.process.cgroup.Cgroup;

/**
 * What a {@link Target} may use for one cell. Immutable.
 *
 * @param storeDir     the build's own directory for engine files ({@code ${store}}); deleted after the cell
 * @param workDir      a directory for configuration files and logs of the cell's processes; kept with
 *                     the results so a failed start can be read afterwards
 * @param cores        the cores the hardware assumptions give the server (a CPU limit where the target can
 *                     apply one)
 * @param memoryBytes  the memory the hardware assumptions give the server, 0 when they state none (a memory
 *                     limit where the target can apply one)
 * @param startTimeout how long to wait for the server to answer before giving up
 * @param listen       the address clients reach the server on: loopback, or the server side of a kernel link (a
 *                     namespace's address; the target is then started from a thread in that namespace, see
 *                     {@link Target#listensOnAnyAddress})
 * @param cgroup       the memory cgroup the runner made for the server under test, for a target that
 *                     {@link Target#runsServerInCgroup() runs it in one}; null when there is none (the runner
 *                     owns it and removes it after the cell)
 */
public record TargetContext(Path storeDir, Path workDir, int cores, long memoryBytes, Duration startTimeout,
        InetAddress listen, Cgroup cgroup) {

    /** A context whose server listens on loopback, in no cgroup. */
    public TargetContext(Path storeDir, Path workDir, int cores, long memoryBytes, Duration startTimeout) {
        this(storeDir, workDir, cores, memoryBytes, startTimeout, InetAddress.getLoopbackAddress(), null);
    }

    /** A context whose server listens on {@code listen}, in no cgroup. */
    public TargetContext(Path storeDir, Path workDir, int cores, long memoryBytes, Duration startTimeout, InetAddress listen) {
        this(storeDir, workDir, cores, memoryBytes, startTimeout, listen, null);
    }

    /** A context whose server listens on loopback and runs in {@code cgroup} (null: none). */
    public TargetContext(Path storeDir, Path workDir, int cores, long memoryBytes, Duration startTimeout, Cgroup cgroup) {
        this(storeDir, workDir, cores, memoryBytes, startTimeout, InetAddress.getLoopbackAddress(), cgroup);
    }

    /** The host part of a URL for {@link #listen}. */
    public String listenHost() {
        return listen.getHostAddress();
    }

    /** The cgroup, if the runner made one. */
    public Optional<Cgroup> serverCgroup() {
        return Optional.ofNullable(cgroup);
    }

    /**
     * The command that starts the server under test: {@code command} itself, or wrapped so that the process joins the
     * cell's cgroup before it runs (see {@link Cgroup#wrap}).
     */
    public List<String> serverCommand(List<String> command) {
        return cgroup == null ? command : cgroup.wrap(command);
    }
}
