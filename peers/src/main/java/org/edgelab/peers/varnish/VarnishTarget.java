package org.edgelab.peers.varnish;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.edgelab.experiments.process.Executables;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.peers.PeerLauncher;
import org.edgelab.peers.PeerSettings;
import org.edgelab.peers.PeerStart;
import org.edgelab.peers.RunningPeer;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;

/**
 * The {@code varnish} target: {@code varnishd} in the foreground on a loopback port in front of EdgeLab's
 * synthetic origin, with {@code malloc} (memory) or {@code file} (a memory-mapped file) storage. The VCL
 * does what a CDN node does and nothing more: it caches per the origin's Cache-Control, serves ranges
 * from cached whole objects, and labels each response {@code X-Cache: HIT} or {@code MISS} from
 * {@code obj.hits}. Counters come from {@code varnishstat}. Stateless and thread-safe.
 */
public final class VarnishTarget implements Target {

    /** Debian's package with {@code varnishd} and {@code varnishstat}. */
    public static final String PACKAGE = "varnish";

    private static final Setting SIZE = new Setting("size", null, "storage size, e.g. 1G");
    private static final Setting THREADS = new Setting("threads", "", "worker threads per pool (thread_pool_max); empty: Varnish's default");
    private static final PeerSettings SETTINGS = new PeerSettings("varnish", Map.of(
            "malloc", List.of(SIZE, THREADS),
            "file", List.of(SIZE, THREADS, new Setting("path", "${store}/varnish.bin", "the storage file"))));

    @Override
    public String name() {
        return "varnish";
    }

    @Override
    public String description() {
        return "Varnish Cache (varnishd) with malloc or file storage, in front of the synthetic origin (apt-get install varnish)";
    }

    @Override
    public void validate(ServerBuild build) {
        settings(build);
    }

    private static PluginSettings settings(ServerBuild build) {
        PluginSettings settings = SETTINGS.check(build);
        PeerSettings.bytes(settings, "size", 1 << 20);
        if (!settings.string("threads", "").isEmpty()) {
            PeerSettings.positive(settings, "threads", 1);
        }
        return settings;
    }

    @Override
    public Optional<String> unavailableReason(ServerBuild build) {
        return Executables.missing(PACKAGE, "varnishd", "varnishstat");
    }

    @Override
    public boolean usesDisk(ServerBuild build) {
        return build.engine().equals("file");
    }

    @Override
    public boolean runsServerInCgroup() {
        return true;
    }

    @Override
    public RunningTarget start(ServerBuild build, TargetContext context) throws IOException {
        PluginSettings settings = settings(build);
        Path varnishd = Executables.require("varnishd", PACKAGE);
        Path varnishstat = Executables.require("varnishstat", PACKAGE);
        long size = settings.bytes("size", 0);
        return PeerStart.behindOrigin((origin, cleanup) -> {
            Files.createDirectories(context.workDir());
            // varnishd's working directory holds its shared-memory log (tens of MB): kept out of the results
            Path instance = Files.createTempDirectory("edgelab-varnish-");
            cleanup.add(instance);
            String storage = "malloc," + size;
            if (build.engine().equals("file")) {
                Path file = PeerSettings.storePath(settings.string("path", null), context.storeDir());
                Files.createDirectories(file.getParent());
                if (!Files.exists(file)) {
                    cleanup.add(file);
                }
                storage = "file," + file + "," + size;
            }
            Path vcl = context.workDir().resolve("varnish.vcl");
            // Everything else is at Varnish 7.1's defaults, which its users' guide asks to keep unless measured
            // otherwise ("Parameters"): 2 thread pools of 100-5000 threads serve 100 connections without a wait.
            List<Argument> arguments = new ArrayList<>(List.of(
                    new Argument("foreground: the runner watches and stops the process", "-F"),
                    new Argument("no jail: stay the runner's user, who owns the cell's folders", "-j", "none"),
                    new Argument("a private working directory for the shared-memory log, deleted afterwards", "-n", instance.toString()),
                    new Argument("no management port: nothing listens beyond the client port", "-T", "none"),
                    new Argument("a crashed child fails the cell instead of restarting with an empty cache", "-p", "auto_restart=off"),
                    new Argument("this file", "-f", vcl.toAbsolutePath().toString()),
                    new Argument("the store, setting size: 2 GB of malloc holds a 1 GB set plus about 1 KB per object", "-s", storage)));
            String threads = settings.string("threads", "");
            if (!threads.isEmpty()) {
                int max = Integer.parseInt(threads);
                arguments.add(new Argument("setting threads", "-p", "thread_pool_min=" + Math.min(max, 100), "-p", "thread_pool_max=" + max));
            }
            List<String> command = new ArrayList<>(List.of(varnishd.toString()));
            arguments.forEach(a -> command.addAll(a.tokens()));
            Files.writeString(vcl, vcl(origin.port(), arguments), StandardCharsets.UTF_8);
            PeerLauncher.Launched launched = PeerLauncher.launch("varnishd", context.workDir(), context.startTimeout(), "/", port -> {
                List<String> withPort = new ArrayList<>(command);
                withPort.addAll(List.of("-a", "127.0.0.1:" + port));
                return context.serverCommand(withPort);
            });
            VarnishStats stats = new VarnishStats(varnishstat, instance);
            return new RunningPeer("varnishd", origin, launched.process(), launched.port(), stats::read, cleanup)
                    .restartable(launched, context.startTimeout());
        });
    }

    /** One {@code varnishd} argument (an option and its values) and why it is given. */
    record Argument(String why, List<String> tokens) {
        Argument(String why, String... tokens) {
            this(why, List.of(tokens));
        }
    }

    /** The VCL of a node in front of the origin on {@code originPort}, naming the {@code varnishd} arguments it runs with and why. */
    static String vcl(int originPort, List<Argument> arguments) {
        StringBuilder command = new StringBuilder();
        for (Argument a : arguments) {
            command.append("#   ").append(String.join(" ", a.tokens())).append("  (").append(a.why()).append(")\n");
        }
        return """
                vcl 4.1;
                # Written by EdgeLab: a CDN node in front of the synthetic origin. Caching follows the origin's
                # Cache-Control (builtin VCL); Range requests are served from the cached whole object.
                # varnishd runs with -a 127.0.0.1:<port> and, every other parameter at Varnish's default:
                %sbackend origin {
                    .host = "127.0.0.1";
                    .port = "%d";
                }

                sub vcl_deliver {
                    # A response from an object that was already cached (or filled while this request waited) is a hit.
                    if (obj.hits > 0) {
                        set resp.http.X-Cache = "HIT";
                    } else {
                        set resp.http.X-Cache = "MISS";
                    }
                }
                """.formatted(command, originPort);
    }
}
