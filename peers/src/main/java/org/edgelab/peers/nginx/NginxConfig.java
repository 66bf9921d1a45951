package org.edgelab.peers.nginx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.edgelab.peers.PeerSettings;
import org.edgelab.plugin.PluginSettings;

/**
 * The {@code nginx.conf} of one nginx build: everything nginx writes goes to the build's store or to a
 * scratch directory, never to system paths; it listens on loopback only. Immutable and thread-safe.
 */
final class NginxConfig {

    /** The stub_status page; also how the launcher knows nginx answers. */
    static final String STATUS_PATH = "/_edgelab/nginx_status";

    private final String engine;
    private final PluginSettings settings;
    private final Path storeDir;
    private final Path scratch;
    private final int originPort;

    NginxConfig(String engine, PluginSettings settings, Path storeDir, Path scratch, int originPort) {
        this.engine = engine;
        this.settings = settings;
        this.storeDir = storeDir.toAbsolutePath();
        this.scratch = scratch.toAbsolutePath();
        this.originPort = originPort;
    }

    /** The access log counters are read from. */
    Path accessLog() {
        return scratch.resolve("access.log");
    }

    private boolean files() {
        return engine.equals("files");
    }

    private Path cacheDir() {
        return PeerSettings.storePath(settings.string("path", null), storeDir);
    }

    private Path root() {
        return PeerSettings.storePath(settings.string("root", null), storeDir);
    }

    /** proxy_store's temp files must be on the root's file system, so that storing a file is a rename. */
    private Path storeTemp() {
        return root().resolveSibling(root().getFileName() + ".tmp");
    }

    /** The directories nginx needs before it starts. */
    List<Path> directoriesToCreate() {
        return files() ? List.of(root(), storeTemp()) : List.of(cacheDir());
    }

    /** The configuration for a server on loopback {@code port}. */
    String text(int port) {
        return text(port, "127.0.0.1");
    }

    /**
     * The configuration for a server on {@code port} of loopback and, behind a kernel link, also of {@code listenHost}
     * (the server side's address in its namespace; status and readiness stay on loopback).
     */
    String text(int port, String listenHost) {
        String user = runningAsRoot() ? "user root root;  # the store and work folders belong to the runner's user\n" : "";
        String workers = settings.string("worker_processes", "auto");
        return """
                # Written by EdgeLab for one cell; nginx runs in the foreground under the runner. Lines at nginx
                # 1.22's defaults are left out unless they were once the cause of a fault; docs/PEERS.md has the sources.
                # one worker per core (default 1)
                %sworker_processes %s;
                # the runner starts, watches and stops the master itself; pid file and errors stay with the run
                daemon off;
                master_process on;
                pid %s;
                error_log stderr warn;

                events {
                    # two per proxied client connection (default 512); the file limit is inherited from the runner's JVM
                    worker_connections 8192;
                }

                http {
                    # no log but the one the counters are read from (in the location below)
                    access_log off;
                    # nothing may be written to system directories
                    client_body_temp_path %s;
                    proxy_temp_path %s;
                    fastcgi_temp_path %s;
                    uwsgi_temp_path %s;
                    scgi_temp_path %s;
                    # bodies go from the file to the socket without a copy (default off)
                    sendfile on;
                    # tcp_nopush stays off (nginx's default). On Linux, tcp_nopush on corks every response that
                    # has a file body and never turns TCP_NODELAY on for keep-alive connections afterwards
                    # (nginx sets both only where the OS allows them together, FreeBSD and macOS). Uncorking
                    # then leaves the last, partial segment to Nagle: it waits for the client's delayed ACK,
                    # 40 ms or more. A proxy_cache file holds its header before the body, so the body starts
                    # at an unaligned offset, each segment is a little under the loopback MSS and the tail
                    # always waits: 44 ms per 100 KB hit (docs/PEERS.md). With it off, nginx sets
                    # TCP_NODELAY (tcp_nodelay on, the default) when the connection first goes keep-alive.
                    tcp_nopush off;
                    # a client keeps its connection for the whole run (default 1000 requests, then it is closed)
                    keepalive_requests 1000000;
                    # the objects are bytes (default text/plain)
                    default_type application/octet-stream;

                    # X-Cache and the counters use one label per response: a value starting with HIT is a hit
                %s
                    log_format edgelab '$edgelab_cache $body_bytes_sent $upstream_response_length';

                    upstream origin {
                        server 127.0.0.1:%d;
                        # idle connections to the origin kept per worker (default none: a new connection per miss)
                        keepalive 64;
                    }
                %s
                    server {
                        # loopback only (and the address of a kernel link's server side, in its own namespace)
                        listen 127.0.0.1:%d;%s
                        add_header X-Cache $edgelab_cache always;

                        location = %s {
                            stub_status;
                        }

                %s
                    }
                }
                """.formatted(user, workers, scratch.resolve("nginx.pid"), scratch.resolve("client_body"),
                files() ? storeTemp() : scratch.resolve("proxy"), scratch.resolve("fastcgi"), scratch.resolve("uwsgi"),
                scratch.resolve("scgi"), indent(files() ? FILES_LABEL : CACHE_LABEL, 4), originPort,
                files() ? "" : "\n" + indent(cachePath(), 4) + "\n", port,
                listenHost.equals("127.0.0.1") ? "" : "\n        listen " + listenHost + ":" + port + ";", STATUS_PATH, indent(files() ? filesLocations() : cacheLocation(), 8));
    }

    private static final String CACHE_LABEL = """
            map $upstream_cache_status $edgelab_cache {
                HIT HIT;
                STALE HIT-STALE;
                UPDATING HIT-STALE;
                REVALIDATED HIT-REVALIDATED;
                MISS MISS;
                EXPIRED MISS;
                default PASS;
            }""";

    private static final String FILES_LABEL = """
            # served from a file: HIT; fetched from the origin to create the file: MISS
            map $upstream_addr $edgelab_cache {
                "" HIT;
                default MISS;
            }""";

    private String cachePath() {
        return "# two directory levels (the docs' example); keys in shared memory (1 MB holds about 8,000);\n"
                + "# max_size from the build; inactive=7d: no object is dropped for being idle (default 10m);\n"
                + "# use_temp_path=off: a miss is written in the cache directory, so storing it is a rename\n"
                + "proxy_cache_path %s levels=1:2 keys_zone=edgelab:%d max_size=%d inactive=7d use_temp_path=off;\n"
                .formatted(cacheDir(), settings.bytes("keys_zone", 0), settings.bytes("size", 0));
    }

    private String cacheLocation() {
        String slice = settings.string("slice", "");
        String ranges = slice.isEmpty() ? """
                # whole objects: on a miss nginx fetches the whole object and serves the range from it
                proxy_cache_key $uri;""" : """
                # slices: each slice of %d bytes is fetched and cached on its own
                slice %d;
                proxy_cache_key $uri$slice_range;
                proxy_set_header Range $slice_range;""".formatted(settings.bytes("slice", 0), settings.bytes("slice", 0));
        return """
                location / {
                    # the counters' source; unbuffered so that they are current when read
                    access_log %s edgelab;
                    proxy_pass http://origin;
                    # HTTP/1.1 without "Connection: close": what upstream keepalive needs (default 1.0)
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    proxy_cache edgelab;
                    # concurrent misses for one object wait for the first fetch (as Varnish and EdgeLab coalesce)
                    proxy_cache_lock on;
                    # a 50 MB fill under load takes longer than the default 5 s, after which waiters would
                    # fetch from the origin themselves, uncached
                    proxy_cache_lock_timeout 60s;
                    proxy_cache_lock_age 60s;
                %s
                }""".formatted(accessLog(), indent(ranges, 4));
    }

    private String filesLocations() {
        return """
                root %s;

                location / {
                    # the counters' source; unbuffered so that they are current when read
                    access_log %s edgelab;
                    try_files $uri @origin;
                }

                # a file not there yet: fetch the whole object once and store it as the file (then a plain file read)
                location @origin {
                    access_log %s edgelab;
                    proxy_pass http://origin;
                    # HTTP/1.1 without "Connection: close": what upstream keepalive needs (default 1.0)
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    # always the whole object, so that the stored file is complete; nginx cuts the range
                    proxy_set_header Range "";
                    proxy_set_header If-Range "";
                    # answer the client's range from the whole response
                    proxy_force_ranges on;
                    # the response becomes the file (written under proxy_temp_path, then renamed)
                    proxy_store on;
                    proxy_store_access user:rw group:r all:r;
                    # a client that goes away does not leave the file unwritten
                    proxy_ignore_client_abort on;
                }""".formatted(root(), accessLog(), accessLog());
    }

    private static String indent(String text, int spaces) {
        return text.indent(spaces).stripTrailing();
    }

    private static boolean runningAsRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }
}
