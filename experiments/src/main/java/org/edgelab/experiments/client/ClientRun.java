package org.edgelab.experiments.client;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.PluginSettings;

/**
 * One run a {@link LoadClient} sends: where, which requests, how many connections for how long, and where
 * it may keep files. Immutable and thread-safe.
 *
 * @param uri         the server's base URI (loopback)
 * @param workload    the requests (without a warm-up pass: the runner warms the cache itself, with loadgen)
 * @param connections open connections
 * @param threads     client event loops or threads, at most {@code connections}
 * @param duration    how long to send at most
 * @param requests    how many requests to send at most (the run ends at whichever bound comes first), 0 for no bound
 * @param timeout     per-request timeout
 * @param rate        open-loop rate text as the descriptor gives it, or null for closed loop
 * @param link        the emulated client link, {@link LinkEmulation#NONE} for none
 * @param verify      whether bodies are EdgeLab's synthetic content, which a verifying client checks byte by byte
 * @param seed        seed of the client's random choices
 * @param workDir     the cell's folder for the client's scripts and logs (kept with the results)
 * @param label       what the client's files in {@code workDir} are named after ({@code r1}, {@code r1-settle})
 * @param settings    the client's settings from the descriptor
 * @param onInterval  told the requests completed in each report interval, for the live progress line (a client
 *                    that cannot say, such as wrk, tells it nothing)
 */
public record ClientRun(URI uri, Workload workload, int connections, int threads, Duration duration, long requests, Duration timeout,
                        String rate, LinkEmulation link, boolean verify, long seed, Path workDir, String label,
                        PluginSettings settings, IntervalListener onInterval) {
}
