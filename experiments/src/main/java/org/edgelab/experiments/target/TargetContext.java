package org.edgelab.experiments.target;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;

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
 */
public record TargetContext(Path storeDir, Path workDir, int cores, long memoryBytes, Duration startTimeout,
        InetAddress listen) {
    /** A context whose server listens on loopback. */
    public TargetContext(Path storeDir, Path workDir, int cores, long memoryBytes, Duration startTimeout) {
        this(storeDir, workDir, cores, memoryBytes, startTimeout, InetAddress.getLoopbackAddress());
    }

    /** The host part of a URL for {@link #listen}. */
    public String listenHost() {
        return listen.getHostAddress();
    }
}
