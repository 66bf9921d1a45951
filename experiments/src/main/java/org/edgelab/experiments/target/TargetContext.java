package org.edgelab.experiments.target;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import org.edgelab.experiments.descriptor.Descriptor.Hardware;

/**
 * What a {@link Target} may use for one cell. Immutable.
 *
 * @param storeDir     the build's own directory for engine files ({@code ${store}}); deleted after the cell
 * @param workDir      a directory for configuration files and logs of the cell's processes; kept with
 *                     the results so a failed start can be read afterwards
 * @param hardware     the hardware assumptions (cores and memory become CPU and memory limits where the
 *                     target can apply them)
 * @param startTimeout how long to wait for the server to answer before giving up
 * @param listen       the address clients reach the server on: loopback, or the server side of a kernel link (a
 *                     namespace's address; the target is then started from a thread in that namespace, see
 *                     {@link Target#listensOnAnyAddress})
 */
public record TargetContext(Path storeDir, Path workDir, Hardware hardware, Duration startTimeout, InetAddress listen) {
    /** A context whose server listens on loopback. */
    public TargetContext(Path storeDir, Path workDir, Hardware hardware, Duration startTimeout) {
        this(storeDir, workDir, hardware, startTimeout, InetAddress.getLoopbackAddress());
    }

    /** The host part of a URL for {@link #listen}. */
    public String listenHost() {
        return listen.getHostAddress();
    }
}
