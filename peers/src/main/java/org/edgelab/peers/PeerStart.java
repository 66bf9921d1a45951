package org.edgelab.peers;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;

/**
 * The start sequence every peer shares: an EdgeLab synthetic origin on an ephemeral loopback port, then
 * the peer's own steps; if they fail, the origin is closed and the files they registered for cleanup are
 * deleted before the failure is rethrown. Stateless and thread-safe.
 */
public final class PeerStart {

    /** What a peer does once its origin is listening. */
    @FunctionalInterface
    public interface Steps {
        /**
         * Starts the peer in front of {@code origin}; adds to {@code cleanup} each file or directory it makes
         * outside the cell's folders as soon as it makes it.
         */
        RunningPeer start(OriginServer origin, List<Path> cleanup) throws IOException, InterruptedException;
    }

    private PeerStart() {
    }

    /** Starts an origin and runs {@code steps}; on failure leaves nothing running and nothing behind. */
    public static RunningPeer behindOrigin(Steps steps) throws IOException {
        OriginServer origin = OriginServer.start(OriginConfig.builder().host("127.0.0.1").port(0).build());
        List<Path> cleanup = new ArrayList<>();
        try {
            return steps.start(origin, cleanup);
        } catch (IOException | RuntimeException | Error e) {
            abandon(origin, cleanup);
            throw e;
        } catch (InterruptedException e) {
            abandon(origin, cleanup);
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while starting a peer");
            interrupted.initCause(e);
            throw interrupted;
        }
    }

    private static void abandon(OriginServer origin, List<Path> cleanup) {
        try {
            origin.close();
        } finally {
            cleanup.forEach(RunningPeer::deleteQuietly);
        }
    }
}
