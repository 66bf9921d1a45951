package org.edgelab.peers;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.edgelab.experiments.process.LoopbackPorts;
import org.edgelab.experiments.process.ManagedProcess;

/**
 * Starts a peer's server process on a free loopback port and waits until it answers HTTP. The port is
 * found by binding port 0 and closing it, so another process may take it before the peer binds it: a
 * start whose log says the address is in use is retried once on a new port, and so is a start that
 * crashed by a signal before it answered (see {@link #crashedBySignal}). Stateless and thread-safe.
 */
public final class PeerLauncher {

    private static final System.Logger LOG = System.getLogger(PeerLauncher.class.getName());

    private static final Pattern ADDRESS_IN_USE = Pattern.compile("(?i)address already in use|could not get socket|bind\\(\\) to .* failed");

    /** Writes the peer's configuration for a port and returns the command that starts it. */
    @FunctionalInterface
    public interface Configurer {
        /** Prepares a start on {@code port} (writes configuration files) and returns the command line. */
        List<String> configure(int port) throws IOException;
    }

    /**
     * A peer that answers on {@code port}, started with {@code command}; {@link #restart} starts that command again (the
     * same port and configuration) after the process died or was killed.
     */
    public record Launched(ManagedProcess process, int port, List<String> command, String name, Path workDir, String readyPath) {

        /**
         * Starts the command again as {@code <name>-<label>} (its own log) and returns once it answers on the same port.
         *
         * @throws IOException if it exits or does not answer within {@code timeout}; nothing is left running then
         */
        public ManagedProcess restart(String label, Duration timeout) throws IOException, InterruptedException {
            ManagedProcess again = ManagedProcess.start(name + "-" + label, command, workDir);
            try {
                again.awaitHttp(URI.create("http://127.0.0.1:" + port + readyPath), timeout);
                return again;
            } catch (IOException | RuntimeException | InterruptedException e) {
                again.close();
                throw e;
            }
        }
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
            int port = LoopbackPorts.free();
            List<String> command = configurer.configure(port);
            ManagedProcess process = ManagedProcess.start(name, command, workDir);
            try {
                process.awaitHttp(URI.create("http://127.0.0.1:" + port + readyPath), timeout);
                return new Launched(process, port, List.copyOf(command), name, workDir, readyPath);
            } catch (IOException | RuntimeException | InterruptedException e) {
                process.close();
                if (attempt == 1 && e instanceof IOException && ADDRESS_IN_USE.matcher(process.tail(50)).find()) {
                    continue;
                }
                if (attempt == 1 && e instanceof IOException && crashedBySignal(process)) {
                    Path kept = process.keepLog("crash-1");
                    LOG.log(System.Logger.Level.WARNING, "{0} crashed during start-up ({1}); starting it once more"
                            + " (its log is kept in {2})", name, e.getMessage().lines().findFirst().orElse(""), kept);
                    continue;
                }
                throw e;
            }
        }
    }

    /**
     * Whether the process died by a signal before it answered. Traffic Server 9.2 (Debian 12) sometimes
     * segfaults in {@code EThread::summarize_stats} while it starts on a loaded machine (a stats callback
     * running before every thread's metrics exist; seen in {@code mvn verify} beside other builds): such
     * a start is retried once, a second crash fails it.
     */
    private static boolean crashedBySignal(ManagedProcess process) {
        return process.exitStatus().filter(status -> status > 128).isPresent();
    }
}
