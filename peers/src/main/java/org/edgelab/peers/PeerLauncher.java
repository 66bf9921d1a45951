package org.edgelab.peers;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.edgelab.experiments.process.ManagedProcess;

/**
 * Starts a peer's server process on a free loopback port and waits until it answers HTTP. The port is
 * found by binding port 0 and closing it, so another process may take it before the peer binds it: a
 * start whose log says the address is in use is retried once on a new port. Stateless and thread-safe.
 */
public final class PeerLauncher {

    private static final Pattern ADDRESS_IN_USE = Pattern.compile("(?i)address already in use|could not get socket|bind\\(\\) to .* failed");

    /** Writes the peer's configuration for a port and returns the command that starts it. */
    @FunctionalInterface
    public interface Configurer {
        /** Prepares a start on {@code port} (writes configuration files) and returns the command line. */
        List<String> configure(int port) throws IOException;
    }

    /** A peer that answers on {@code port}. */
    public record Launched(ManagedProcess process, int port) {
    }

    private PeerLauncher() {
    }

    /**
     * Starts {@code name} with the command {@code configurer} gives for a free port, logging into
     * {@code workDir}, and returns once {@code GET readyPath} on that port gets any HTTP answer.
     *
     * @throws IOException if the process exits or does not answer within {@code timeout}; nothing is left running
     */
    public static Launched launch(String name, Path workDir, Duration timeout, String readyPath, Configurer configurer)
            throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            int port = freeLoopbackPort();
            ManagedProcess process = ManagedProcess.start(name, configurer.configure(port), workDir);
            try {
                process.awaitHttp(URI.create("http://127.0.0.1:" + port + readyPath), timeout);
                return new Launched(process, port);
            } catch (IOException | RuntimeException | InterruptedException e) {
                process.close();
                if (attempt == 1 && e instanceof IOException && ADDRESS_IN_USE.matcher(process.tail(50)).find()) {
                    continue;
                }
                throw e;
            }
        }
    }

    /** A loopback port that was free a moment ago. */
    public static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
