package org.edgelab.peers.nginx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * The {@code nginx} target: nginx (master and workers, {@code daemon off}) on a loopback port in front of
 * EdgeLab's synthetic origin, as one of two engines. {@code proxy_cache}: a caching reverse proxy whose
 * cache lives under {@code ${store}}; whole objects are cached per the origin's Cache-Control and ranges
 * are served from them (or, with setting {@code slice}, objects are fetched and cached in slices).
 * {@code files}: a plain static file server over a directory, the raw baseline of the booster-http
 * report; a path whose file is missing is fetched once from the origin and stored as a file
 * ({@code proxy_store}), so after the warm-up every request is a plain file read. Responses carry
 * {@code X-Cache} (HIT, HIT-STALE, HIT-REVALIDATED, MISS or PASS; for {@code files}, HIT when served from a
 * file). Counters come from the access log. Stateless and thread-safe.
 */
public final class NginxTarget implements Target {

    /** Debian's smallest package with nginx's proxy, slice and stub_status modules. */
    public static final String PACKAGE = "nginx-light";

    private static final Setting WORKERS = new Setting("worker_processes", "auto", "nginx worker processes (auto: one per core)");
    private static final PeerSettings SETTINGS = new PeerSettings("nginx", Map.of(
            "proxy_cache", List.of(new Setting("size", null, "max_size of the cache on disk, e.g. 4GB"),
                    new Setting("path", "${store}/nginx-cache", "proxy_cache_path directory"),
                    new Setting("keys_zone", "64MB", "shared memory for cache keys (about 8000 keys per MB)"),
                    new Setting("slice", "", "cache in slices of this size (nginx's slice module); empty: whole objects"),
                    WORKERS),
            "files", List.of(new Setting("root", "${store}/files", "directory of the files served"), WORKERS)));

    @Override
    public String name() {
        return "nginx";
    }

    @Override
    public String description() {
        return "nginx as a proxy_cache node or as a plain file server (the raw baseline), in front of the synthetic origin"
                + " (apt-get install " + PACKAGE + ")";
    }

    @Override
    public void validate(ServerBuild build) {
        settings(build);
    }

    private static PluginSettings settings(ServerBuild build) {
        PluginSettings settings = SETTINGS.check(build);
        if (build.engine().equals("proxy_cache")) {
            PeerSettings.bytes(settings, "size", 1 << 20);
            PeerSettings.bytes(settings, "keys_zone", 1 << 20);
            if (!settings.string("slice", "").isEmpty()) {
                PeerSettings.bytes(settings, "slice", 1 << 10);
            }
        }
        String workers = settings.string("worker_processes", "auto");
        if (!workers.equals("auto")) {
            PeerSettings.positive(settings, "worker_processes", 1);
        }
        return settings;
    }

    @Override
    public Optional<String> unavailableReason(ServerBuild build) {
        return Executables.missing(PACKAGE, "nginx");
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
    public boolean listensOnAnyAddress() {
        return true;
    }

    @Override
    public RunningTarget start(ServerBuild build, TargetContext context) throws IOException {
        PluginSettings settings = settings(build);
        Path nginx = Executables.require("nginx", PACKAGE);
        return PeerStart.behindOrigin((origin, cleanup) -> {
            Files.createDirectories(context.workDir());
            // pid file, access log and request-body temp files: kept out of the results
            Path scratch = Files.createTempDirectory("edgelab-nginx-");
            cleanup.add(scratch);
            NginxConfig config = new NginxConfig(build.engine(), settings, context.storeDir(), scratch, origin.port());
            for (Path dir : config.directoriesToCreate()) {
                if (!Files.exists(dir)) {
                    Files.createDirectories(dir);
                    cleanup.add(dir);
                }
            }
            Path conf = context.workDir().resolve("nginx.conf").toAbsolutePath();
            NginxAccessLog log = new NginxAccessLog(config.accessLog());
            PeerLauncher.Launched launched = PeerLauncher.launch("nginx", context.workDir(), context.startTimeout(),
                    NginxConfig.STATUS_PATH, port -> {
                        Files.writeString(conf, config.text(port, context.listenHost()), StandardCharsets.UTF_8);
                        return context.serverCommand(List.of(nginx.toString(), "-p", scratch.toString() + "/", "-c", conf.toString()));
                    });
            return new RunningPeer("nginx", origin, launched.process(), context.listenHost(), launched.port(), log::read, cleanup);
        });
    }
}
