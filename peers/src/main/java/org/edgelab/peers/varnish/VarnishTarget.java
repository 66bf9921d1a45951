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
            Files.writeString(vcl, vcl(origin.port()), StandardCharsets.UTF_8);
            List<String> command = new ArrayList<>(List.of(varnishd.toString(), "-F", "-j", "none", "-n", instance.toString(),
                    "-T", "none", "-p", "auto_restart=off", "-f", vcl.toAbsolutePath().toString(), "-s", storage));
            String threads = settings.string("threads", "");
            if (!threads.isEmpty()) {
                int max = Integer.parseInt(threads);
                command.addAll(List.of("-p", "thread_pool_min=" + Math.min(max, 100), "-p", "thread_pool_max=" + max));
            }
            PeerLauncher.Launched launched = PeerLauncher.launch("varnishd", context.workDir(), context.startTimeout(), "/", port -> {
                List<String> withPort = new ArrayList<>(command);
                withPort.addAll(List.of("-a", "127.0.0.1:" + port));
                return withPort;
            });
            VarnishStats stats = new VarnishStats(varnishstat, instance);
            return new RunningPeer("varnishd", origin, launched.process(), launched.port(), stats::read, cleanup);
        });
    }

    /** The VCL of a node in front of the origin on {@code originPort}. */
    static String vcl(int originPort) {
        return """
                vcl 4.1;
                # Written by EdgeLab: a CDN node in front of the synthetic origin. Caching follows the origin's
                # Cache-Control (builtin VCL); Range requests are served from the cached whole object.
                backend origin {
                    .host = "127.0.0.1";
                    .port = "%d";
                    .connect_timeout = 5s;
                    .first_byte_timeout = 60s;
                    .between_bytes_timeout = 60s;
                }

                sub vcl_deliver {
                    # A response from an object that was already cached (or filled while this request waited) is a hit.
                    if (obj.hits > 0) {
                        set resp.http.X-Cache = "HIT";
                    } else {
                        set resp.http.X-Cache = "MISS";
                    }
                }
                """.formatted(originPort);
    }
}
