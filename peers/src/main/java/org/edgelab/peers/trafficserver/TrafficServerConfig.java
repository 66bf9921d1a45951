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

    private static final List<String> UNUSED = List.of("cache.config", "hosting.config", "parent.config", "socks.config",
            "splitdns.config", "ssl_multicert.config", "volume.config", "sni.yaml", "strategies.yaml", "logging.yaml");
    private static final Path SYSTEM_BODY_FACTORY = Path.of("/etc/trafficserver/body_factory");

    private final Path root;
    private final Path cacheDir;
    private final long cacheBytes;
    private final long ramBytes;
    private final int originPort;

    /**
     * @param root       the runroot directory (in the cell's work folder)
     * @param cacheDir   the directory of the cache file
     * @param cacheBytes the cache file's size
     * @param ramBytes   RAM cache size, -1 for automatic
     * @param originPort the origin's loopback port
     */
    TrafficServerConfig(Path root, Path cacheDir, long cacheBytes, long ramBytes, int originPort) {
        this.root = root;
        this.cacheDir = cacheDir;
        this.cacheBytes = cacheBytes;
        this.ramBytes = ramBytes;
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
                # Written by EdgeLab for one cell.
                # listen on loopback only
                CONFIG proxy.config.http.server_ports STRING %d:ip-in=127.0.0.1
                # stay the user that started it (the runner); the cell's folders belong to that user
                CONFIG proxy.config.admin.user_id STRING #-1
                CONFIG proxy.config.reverse_proxy.enabled INT 1
                CONFIG proxy.config.url_remap.remap_required INT 1
                CONFIG proxy.config.http.cache.http INT 1
                # cache what the origin marks cacheable (its Cache-Control gives a lifetime)
                CONFIG proxy.config.http.cache.required_headers INT 2
                CONFIG proxy.config.http.cache.range.lookup INT 1
                CONFIG proxy.config.http.insert_response_via_str INT 0
                CONFIG proxy.config.cache.max_doc_size INT 0
                # accept requests only once the cache is ready; fail to start if it cannot be opened
                CONFIG proxy.config.http.wait_for_cache INT 2
                CONFIG proxy.config.exec_thread.autoconfig INT 1
                CONFIG proxy.config.exec_thread.autoconfig.scale FLOAT 1.0
                CONFIG proxy.config.log.logging_enabled INT 0
                CONFIG proxy.config.http.keep_alive_no_activity_timeout_in INT 120
                CONFIG proxy.config.http.transaction_no_activity_timeout_out INT 60
                CONFIG proxy.config.http.connect_attempts_timeout INT 5
                CONFIG proxy.config.cache.ram_cache.size INT %d
                # no crash-log helper process beside the server
                CONFIG proxy.config.crash_log_helper STRING NULL
                # counters read by the runner are at most this old
                CONFIG proxy.config.raw_stat_sync_interval_ms INT %d
                """.formatted(port, ramBytes, STATS_SYNC_MILLIS));
        if (Files.isDirectory(SYSTEM_BODY_FACTORY)) {
            r.append("CONFIG proxy.config.body_factory.template_sets_dir STRING ").append(SYSTEM_BODY_FACTORY).append('\n');
        }
        return r.toString();
    }
}
