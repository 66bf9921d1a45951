package org.edgelab.peers.trafficserver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The configuration of one Traffic Server build, written as a private runroot: {@code runroot.yaml}
 * pointing its configuration, runtime, log and cache directories at the cell's folders while binaries and
 * plugins stay in the system's, then {@code records.config}, {@code remap.config}, {@code storage.config},
 * {@code ip_allow.yaml} and {@code plugin.config} (plus empty files for the configurations it does not
 * use). Immutable; {@link #write} is not meant for concurrent calls.
 */
final class TrafficServerConfig {

    /** The stats_over_http page (also how the launcher knows the server answers). */
    static final String STATS_PATH = "/_edgelab/ats-stats";
    /** How often Traffic Server sums its per-thread counters, in milliseconds (its default is 5000). */
    static final int STATS_SYNC_MILLIS = 100;
    /** Where Debian installs Traffic Server's plugins. */
    static final Path PLUGIN_DIR = Path.of("/usr/lib/trafficserver/modules");
    /** The plugins the target uses. */
    static final List<String> PLUGINS = List.of("stats_over_http.so", "header_rewrite.so");
    /** The smallest cache file accepted (Traffic Server needs room for its directory and a stripe). */
    static final long MIN_CACHE_BYTES = 64L << 20;
    /** The hit-evacuation percentage that makes 9.2's window the whole stripe (see {@link #records}). */
    static final int WHOLE_STRIPE_EVACUATE_PERCENT = 1600;
    /** Bytes of cache writes Traffic Server may queue before it drops new ones (its default is 5 MB). */
    static final long WRITE_BACKLOG_BYTES = 64L << 20;

    private static final List<String> UNUSED = List.of("cache.config", "hosting.config", "parent.config", "socks.config",
            "splitdns.config", "ssl_multicert.config", "volume.config", "sni.yaml", "strategies.yaml", "logging.yaml");
    private static final Path SYSTEM_BODY_FACTORY = Path.of("/etc/trafficserver/body_factory");

    private final Path root;
    private final Path cacheDir;
    private final long cacheBytes;
    private final long ramBytes;
    private final long ramCutoffBytes;
    private final boolean evacuateHits;
    private final int dirSyncSeconds;
    private final int originPort;

    /**
     * @param root       the runroot directory (in the cell's work folder)
     * @param cacheDir   the directory of the cache file
     * @param cacheBytes the cache file's size
     * @param ramBytes   RAM cache size, -1 for automatic
     * @param ramCutoffBytes the largest object the RAM cache takes, 0 for any
     * @param evacuateHits whether objects read since the write cursor last passed are kept (hit evacuation)
     * @param dirSyncSeconds how often the cache directory is written to the store, -1 for Traffic Server's default
     * @param originPort the origin's loopback port
     */
    TrafficServerConfig(Path root, Path cacheDir, long cacheBytes, long ramBytes, long ramCutoffBytes, boolean evacuateHits,
            int dirSyncSeconds, int originPort) {
        this.root = root;
        this.cacheDir = cacheDir;
        this.cacheBytes = cacheBytes;
        this.ramBytes = ramBytes;
        this.ramCutoffBytes = ramCutoffBytes;
        this.evacuateHits = evacuateHits;
        this.dirSyncSeconds = dirSyncSeconds;
        this.originPort = originPort;
    }

    /** Writes every file for a server on loopback {@code port} and returns the runroot file to start with. */
    Path write(int port) throws IOException {
        Path etc = Files.createDirectories(root.resolve("etc"));
        Path run = Files.createDirectories(root.resolve("run"));
        Path log = Files.createDirectories(root.resolve("log"));
        Path runroot = root.resolve("runroot.yaml");
        Files.writeString(runroot, """
                # Written by EdgeLab: system binaries and plugins, everything else in this cell's folders.
                prefix: /usr
                exec_prefix: /usr
                bindir: /usr/bin
                sbindir: /usr/sbin
                includedir: /usr/include
                libdir: /usr/lib/trafficserver
                libexecdir: %s
                sysconfdir: %s
                datadir: %s
                localstatedir: %s
                runtimedir: %s
                logdir: %s
                cachedir: %s
                """.formatted(PLUGIN_DIR, etc, run, run, run, log, cacheDir), StandardCharsets.UTF_8);
        for (String name : UNUSED) {
            Files.writeString(etc.resolve(name), "", StandardCharsets.UTF_8);
        }
        Files.writeString(etc.resolve("records.config"), records(port), StandardCharsets.UTF_8);
        Files.writeString(etc.resolve("remap.config"), """
                # every path goes to the origin; X-Cache from the cache lookup (x-cache.conf)
                map / http://127.0.0.1:%d/ @plugin=header_rewrite.so @pparam=%s
                """.formatted(originPort, etc.resolve("x-cache.conf")), StandardCharsets.UTF_8);
        Files.writeString(etc.resolve("x-cache.conf"), """
                cond %{SEND_RESPONSE_HDR_HOOK} [AND]
                cond %{CACHE} =hit-fresh
                set-header X-Cache HIT

                cond %{SEND_RESPONSE_HDR_HOOK} [AND]
                cond %{CACHE} =hit-fresh [NOT]
                set-header X-Cache MISS
                """, StandardCharsets.UTF_8);
        Files.writeString(etc.resolve("storage.config"), cacheDir + " " + cacheBytes + "\n", StandardCharsets.UTF_8);
        Files.writeString(etc.resolve("plugin.config"), "stats_over_http.so " + STATS_PATH.substring(1) + "\n", StandardCharsets.UTF_8);
        Files.writeString(etc.resolve("ip_allow.yaml"), """
                ip_allow:
                  - apply: in
                    ip_addrs: [127.0.0.1, ::1]
                    action: allow
                    methods: ALL
                  - apply: in
                    ip_addrs: [0/0, ::/0]
                    action: deny
                    methods: ALL
                """, StandardCharsets.UTF_8);
        return runroot;
    }

    private String records(int port) {
        StringBuilder r = new StringBuilder("""
                # Written by EdgeLab for one cell. Lines at Traffic Server 9.2's defaults are left out, except
                # where its guide lists them as required together (read-while-writer); docs/PEERS.md has the sources.
                # listen on loopback only
                CONFIG proxy.config.http.server_ports STRING %d:ip-in=127.0.0.1
                # stay the user that started it (the runner); the cell's folders belong to that user
                CONFIG proxy.config.admin.user_id STRING #-1
                # accept requests only once the cache is ready; fail to start if it cannot be opened
                CONFIG proxy.config.http.wait_for_cache INT 2
                # no access log: the counters come from stats_over_http, and writing logs is not under test
                CONFIG proxy.config.log.logging_enabled INT 0
                # the origin is on loopback: a connect that takes 5 s has failed (default 30 s)
                CONFIG proxy.config.http.connect_attempts_timeout INT 5
                # a 50 MB miss under load may stall longer than the default 30 s between reads
                CONFIG proxy.config.http.transaction_no_activity_timeout_out INT 60
                # no crash-log helper process beside the server
                CONFIG proxy.config.crash_log_helper STRING NULL
                # counters read by the runner are at most this old (default 5000 ms)
                CONFIG proxy.config.raw_stat_sync_interval_ms INT %d

                # Concurrent misses for one object: one origin fetch, the others read while it is written
                # (admin guide, "Reducing Origin Server Requests": these four together; in 9.2 all four are
                # already the defaults, stated because the guide requires them)
                CONFIG proxy.config.cache.enable_read_while_writer INT 1
                CONFIG proxy.config.http.background_fill_active_timeout INT 0
                CONFIG proxy.config.http.background_fill_completed_threshold FLOAT 0.000000
                CONFIG proxy.config.cache.max_doc_size INT 0
                # a request arriving while the object's headers are still on their way waits up to 5 x 10 ms
                # for the first fetch instead of going to the origin itself (the guide's example; off by default)
                CONFIG proxy.config.http.cache.max_open_read_retries INT 5
                CONFIG proxy.config.http.cache.open_read_retry_time INT 10

                # The store is a cyclic log: the write cursor overwrites whatever lies ahead of it, popular or not.
                # Hit evacuation copies an object that was read while in front of the cursor past it (developer
                # guide, "Evacuation Operation"). 9.2 computes the window as this percentage of the stripe in
                # 8 KB blocks and compares it with offsets in 512-byte blocks (Cache.cc, P_CacheVol.h
                # within_hit_evacuate_window), so 100 covers 1/16 of the stripe and %d covers all of it: every
                # object read since the cursor last passed is kept. Default 0.
                CONFIG proxy.config.cache.hit_evacuate_percent INT %d
                # Writes queued beyond this backlog (plus 4 MB) are dropped and the object is not cached
                # (CacheWrite.cc, counted in proxy.process.cache.write.backlog.failure). The 5 MB default drops a
                # third of the writes when 100 clients miss at once, the warm-up's own fetches included.
                CONFIG proxy.config.cache.agg_write_backlog INT %d
                # RAM cache in front of the store; reads from the store are O_DIRECT, so this is the only memory
                # tier Traffic Server has (-1: about 10 MB per GB of store; performance guide, "Memory Allocation")
                CONFIG proxy.config.cache.ram_cache.size INT %d
                # objects up to this size may enter the RAM cache (default 4 MB; 0: no limit)
                CONFIG proxy.config.cache.ram_cache_cutoff INT %d
                """.formatted(port, STATS_SYNC_MILLIS, WHOLE_STRIPE_EVACUATE_PERCENT, evacuateHits ? WHOLE_STRIPE_EVACUATE_PERCENT : 0,
                WRITE_BACKLOG_BYTES, ramBytes, ramCutoffBytes));
        if (dirSyncSeconds > 0) {
            r.append("""
                    # The cache directory (which object lies where in the store) is written to the store this often
                    # (default 60 s). It is the only index: a restart after a crash finds the cache as of the last sync
                    CONFIG proxy.config.cache.dir.sync_frequency INT %d
                    """.formatted(dirSyncSeconds));
        }
        if (Files.isDirectory(SYSTEM_BODY_FACTORY)) {
            r.append("# error pages from the system's templates (the private runroot has none)\n");
            r.append("CONFIG proxy.config.body_factory.template_sets_dir STRING ").append(SYSTEM_BODY_FACTORY).append('\n');
        }
        return r.toString();
    }
}
