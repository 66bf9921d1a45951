package org.edgelab.origin.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.edgelab.commandline.CommandLines;
import org.edgelab.commandline.Converters;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.fault.FaultRules;
import org.edgelab.units.DataRate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code edgelab origin}: runs the synthetic origin (or a file server over a directory) until
 * interrupted, printing {@code edgelab origin on http://HOST:PORT ...} once it listens. Also a program of
 * its own ({@link #main}) so targets can run the origin in its own JVM. Not reusable: one instance serves
 * one invocation.
 */
@Command(name = "origin",
        mixinStandardHelpOptions = true,
        description = {"Run an origin: synthetic objects at /objects/{size}/{id} whose bytes every client can verify,",
            "or the files of a directory with --files. Faults by query: ?status=503, ?reset-after=N,",
            "?first-byte-delay=200ms, ?corrupt-at=N, ?rate=10MiB/s, ?chunked=true, ?cache-control=..."})
public final class OriginCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String bind;

    @Option(names = {"-p", "--port"}, defaultValue = "8081", description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--files", paramLabel = "DIR", description = "Serve this directory's files instead of synthetic objects.")
    private Path files;

    @Option(names = "--cache-control", paramLabel = "VALUE", defaultValue = "public, max-age=3600",
            description = "Cache-Control header sent with every response (default: ${DEFAULT-VALUE}).")
    private String cacheControl;

    @Option(names = "--first-byte-latency", defaultValue = "0ms", converter = Converters.Time.class,
            description = "Delay before each response's first byte (default: ${DEFAULT-VALUE}).")
    private Duration firstByteLatency;

    @Option(names = "--bandwidth", paramLabel = "RATE", converter = Converters.Rate.class,
            description = "Cap each response at this rate, e.g. 100MB/s or 1Gbit/s (default: unlimited).")
    private DataRate bandwidth;

    @Option(names = "--io-threads", defaultValue = "0", description = "Event-loop threads; 0 means one per core (default: ${DEFAULT-VALUE}).")
    private int ioThreads;

    @Option(names = "--faults", paramLabel = "RULES",
            description = "Faults for every URL, rules separated by ';', e.g. \"every=10&status=503;first-byte-delay=20ms\".")
    private String faults;

    /** Runs the origin in this JVM until it is stopped (SIGTERM or Ctrl-C), then exits. */
    public static void main(String[] args) {
        System.exit(CommandLines.execute(new OriginCommand(), args));
    }

    @Override
    public Integer call() throws Exception {
        OriginServer server = start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "edgelab-shutdown"));
        stopped.await();
        return 0;
    }

    /** Starts the origin and prints where it listens (the caller closes it). */
    OriginServer start() throws Exception {
        if (files != null && !Files.isDirectory(files)) {
            throw new IllegalArgumentException("--files " + files.toAbsolutePath() + " is not a directory");
        }
        OriginServer server = OriginServer.start(OriginConfig.builder()
                .host(bind)
                .port(port)
                .filesRoot(files)
                .cacheControl(cacheControl)
                .firstByteLatency(firstByteLatency)
                .bandwidthBytesPerSecond(bandwidth == null ? 0 : bandwidth.wholeBytesPerSecond())
                .ioThreads(ioThreads)
                .faults(FaultRules.parse(faults))
                .build());
        PrintWriter out = spec.commandLine().getOut();
        out.println("edgelab origin on " + server.baseUri() + " (" + server.transport() + ")"
                + (files == null ? " serving synthetic objects at /objects/{size}/{id}" : " serving " + files.toAbsolutePath())
                + ", Cache-Control: " + cacheControl
                + (bandwidth == null ? "" : ", " + bandwidth.formatBytes() + " per response")
                + ", stats at /_stats");
        out.flush();
        return server;
    }
}
