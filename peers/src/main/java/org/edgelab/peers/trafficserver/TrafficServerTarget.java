package org.edgelab.peers.trafficserver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.edgelab.experiments.process.Executables;
import org.edgelab.experiments.target.BuildValidationException;
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
 * The {@code trafficserver} target: {@code traffic_server} (without {@code traffic_manager}) on a loopback
 * port, mapping every path to EdgeLab's synthetic origin, with engine {@code file}: its cache in a file
 * of {@code size} bytes in directory {@code path}, and a RAM cache of {@code ram} bytes for objects up to
 * {@code ram_cutoff}. Configured as its guides advise for a large-object cache (concurrent misses collapsed,
 * hits evacuated past the write cursor unless {@code evacuate_hits} is false; docs/PEERS.md); {@code dir_sync} sets
 * how often its cache directory is written to the store, what a restart after a crash finds. All its
 * configuration, runtime and log files are in a private runroot in the cell's work folder, never in system
 * directories. Responses carry {@code X-Cache: HIT} (a fresh object from the cache) or {@code MISS}
 * (header_rewrite plugin); counters come from the stats_over_http plugin. Stateless and thread-safe.
 */
public final class TrafficServerTarget implements Target {

    /** Debian's package with traffic_server and its plugins. */
    public static final String PACKAGE = "trafficserver";

    private static final PeerSettings SETTINGS = new PeerSettings("trafficserver", Map.of(
            "file", List.of(new Setting("size", null, "cache file size, e.g. 4GB"),
                    new Setting("path", "${store}/trafficserver", "directory of the cache file"),
                    new Setting("ram", "", "RAM cache size; empty: Traffic Server's automatic size (about 10 MB per GB of store)"),
                    new Setting("ram_cutoff", "4MiB", "largest object the RAM cache takes; 0: any size"),
                    new Setting("evacuate_hits", "true",
                            "true: objects read since the write cursor last passed are copied past it (hit evacuation); false: 9.2's default"),
                    new Setting("dir_sync", "",
                            "how often the cache directory is written to the store, in whole seconds (e.g. 5s); a restart after"
                                    + " a crash finds the cache as of the last one; empty: Traffic Server's default, 60 s"))));

    @Override
    public String name() {
        return "trafficserver";
    }

    @Override
    public String description() {
        return "Apache Traffic Server (traffic_server) with its cache in a file, in front of the synthetic origin (apt-get install "
                + PACKAGE + ")";
    }

    @Override
    public void validate(ServerBuild build) {
        settings(build);
    }

    private static PluginSettings settings(ServerBuild build) {
        PluginSettings settings = SETTINGS.check(build);
        PeerSettings.bytes(settings, "size", TrafficServerConfig.MIN_CACHE_BYTES);
        if (!settings.string("ram", "").isEmpty()) {
            PeerSettings.bytes(settings, "ram", 0);
        }
        PeerSettings.bytes(settings, "ram_cutoff", 0);
        PeerSettings.bool(settings, "evacuate_hits");
        dirSyncSeconds(settings);
        return settings;
    }

    /** The {@code dir_sync} setting in whole seconds, at least 1; -1 when unset (Traffic Server's default). */
    static int dirSyncSeconds(PluginSettings settings) {
        if (settings.string("dir_sync", "").isEmpty()) {
            return -1;
        }
        Duration d;
        try {
            d = settings.duration("dir_sync", null);
        } catch (IllegalArgumentException e) {
            throw new BuildValidationException("settings", e.getMessage());
        }
        if (d.isNegative() || d.isZero() || d.toNanos() % 1_000_000_000L != 0) {
            throw new BuildValidationException("settings", "setting 'dir_sync' must be a whole number of seconds, at least"
                    + " 1 s (Traffic Server counts it in seconds), got " + settings.string("dir_sync", null));
        }
        return Math.toIntExact(d.toSeconds());
    }

    @Override
    public Optional<String> unavailableReason(ServerBuild build) {
        Optional<String> missing = Executables.missing(PACKAGE, "traffic_server");
        if (missing.isPresent()) {
            return missing;
        }
        for (String plugin : TrafficServerConfig.PLUGINS) {
            if (!Files.isRegularFile(TrafficServerConfig.PLUGIN_DIR.resolve(plugin))) {
                return Optional.of("Traffic Server plugin " + TrafficServerConfig.PLUGIN_DIR.resolve(plugin)
                        + " not found: apt-get install " + PACKAGE);
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean usesDisk(ServerBuild build) {
        return true;
    }

    @Override
    public boolean runsServerInCgroup() {
        return true;
    }

    @Override
    public RunningTarget start(ServerBuild build, TargetContext context) throws IOException {
        PluginSettings settings = settings(build);
        Path trafficServer = Executables.require("traffic_server", PACKAGE);
        return PeerStart.behindOrigin((origin, cleanup) -> {
            Path cacheDir = PeerSettings.storePath(settings.string("path", null), context.storeDir());
            if (!Files.exists(cacheDir)) {
                Files.createDirectories(cacheDir);
                cleanup.add(cacheDir);
            }
            String ram = settings.string("ram", "");
            TrafficServerConfig config = new TrafficServerConfig(context.workDir().resolve("trafficserver").toAbsolutePath(),
                    cacheDir, settings.bytes("size", 0), ram.isEmpty() ? -1 : settings.bytes("ram", 0), settings.bytes("ram_cutoff", 0),
                    settings.bool("evacuate_hits", true), dirSyncSeconds(settings), origin.port());
            PeerLauncher.Launched launched = PeerLauncher.launch("traffic_server", context.workDir(), context.startTimeout(),
                    "/", port -> {
                        Path runroot = config.write(port);
                        return context.serverCommand(List.of(trafficServer.toString(), "--run-root=" + runroot));
                    });
            TrafficServerStats stats = new TrafficServerStats(launched.port());
            return new RunningPeer("traffic_server", origin, launched.process(), launched.port(), stats::read, cleanup)
                    .restartable(launched, context.startTimeout());
        });
    }
}
