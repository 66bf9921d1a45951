package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The poisoning and Host cases sent, in the same order, to this cache and to nginx 1.22
 * ({@code proxy_cache} keyed on {@code $scheme$host$request_uri}, forwarding {@code $host} in
 * X-Forwarded-Host) in front of one origin that answers per host: every case gets nginx's status
 * and body, and both keep serving. Where this cache is stricter than nginx on purpose (RFC 3986's
 * grammar for Host, which nginx checks only for "/", "..", whitespace and controls) the case is
 * listed with nginx's answer, so a change on either side shows. Needs nginx: skipped without it,
 * failing instead when {@code EDGELAB_REQUIRE_PEERS=1}.
 */
class HostCasesAsNginxTest {

    private static ScriptedOrigin origin;
    private static ObjectStore store;
    private static CacheServer cache;
    private static Path nginxDir;
    private static Process nginx;
    private static int nginxPort;

    /** A request, and (when this cache answers otherwise on purpose) nginx's status. */
    private record Case(String name, String head, int nginxStatusWhereStricter) {
        Case(String name, String head) {
            this(name, head, 0);
        }
    }

    /** In order: the attacks, then their victims, then the Host validation cases. */
    private static final List<Case> CASES = List.of(
            new Case("poisoning across paths", "GET /a.txt HTTP/1.1\r\nHost: v.example/x"),
            new Case("its victim", "GET /x/a.txt HTTP/1.1\r\nHost: v.example"),
            new Case("poisoning across hosts", "GET http://b.example/k HTTP/1.1\r\nHost: a.example"),
            new Case("its victim b", "GET /k HTTP/1.1\r\nHost: b.example"),
            new Case("its victim a", "GET /k HTTP/1.1\r\nHost: a.example"),
            new Case("HTTP/1.1 without Host", "GET /k HTTP/1.1"),
            new Case("absolute form without Host", "GET http://b.example/k HTTP/1.1"),
            new Case("two Host fields", "GET /k HTTP/1.1\r\nHost: a.example\r\nHost: b.example"),
            new Case("two equal Host fields", "GET /k HTTP/1.1\r\nHost: a.example\r\nHost: a.example"),
            new Case("empty Host", "GET /k HTTP/1.1\r\nHost: "),
            new Case("HTTP/1.0 with a path in Host", "GET /a.txt HTTP/1.0\r\nHost: v.example/x"),
            new Case("a double dot", "GET /k HTTP/1.1\r\nHost: a..example"),
            new Case("a space", "GET /k HTTP/1.1\r\nHost: a example"),
            new Case("a tab", "GET /k HTTP/1.1\r\nHost: a.example\tx"),
            new Case("only a port", "GET /k HTTP/1.1\r\nHost: :80"),
            new Case("userinfo in the target", "GET http://u@b.example/k HTTP/1.1\r\nHost: b.example"),
            new Case("an empty host in the target", "GET http:///k HTTP/1.1\r\nHost: b.example"),
            new Case("asterisk form for GET", "GET * HTTP/1.1\r\nHost: b.example"),
            new Case("authority form for GET", "GET b.example:80 HTTP/1.1\r\nHost: b.example"),
            new Case("upper case", "GET /k HTTP/1.1\r\nHost: A.EXAMPLE"),
            new Case("a trailing dot", "GET /k HTTP/1.1\r\nHost: a.example."),
            new Case("the default port", "GET /k HTTP/1.1\r\nHost: a.example:80"),
            new Case("an empty port", "GET /k HTTP/1.1\r\nHost: a.example:"),
            new Case("an absolute target in upper case", "GET HTTP://B.EXAMPLE:80/k HTTP/1.1\r\nHost: x.example"),
            new Case("a backslash", "GET /k2 HTTP/1.1\r\nHost: a.example\\x", 200),
            new Case("userinfo in Host", "GET /k2 HTTP/1.1\r\nHost: u@a.example", 200),
            new Case("a query in Host", "GET /k2 HTTP/1.1\r\nHost: a.example?x", 200),
            new Case("a fragment in Host", "GET /k2 HTTP/1.1\r\nHost: a.example#x", 200),
            new Case("a port that is no number", "GET /k2 HTTP/1.1\r\nHost: a.example:abc", 200),
            new Case("an unclosed IPv6 literal", "GET /k2 HTTP/1.1\r\nHost: [::1", 200),
            new Case("the server still serving", "GET /k HTTP/1.1\r\nHost: a.example"));

    @BeforeAll
    static void start() throws Exception {
        Path binary = Stream.of("/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx").map(Path::of)
                .filter(Files::isExecutable).findFirst().orElse(null);
        if (binary == null) {
            String why = "nginx is not installed (apt-get install nginx-light)";
            if ("1".equals(System.getenv("EDGELAB_REQUIRE_PEERS"))) {
                throw new AssertionError("EDGELAB_REQUIRE_PEERS=1 but " + why);
            }
            Assumptions.abort(why);
        }
        origin = new ScriptedOrigin(HostPoisoningTest::answer);
        store = StorageEngines.open("memory", PluginSettings.of("capacity", "8m"));
        cache = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).ioThreads(1).build(), store);
        nginxDir = Files.createTempDirectory("edgelab-nginx-host-");
        nginxPort = freePort();
        Files.createDirectories(nginxDir.resolve("cache"));
        Files.writeString(nginxDir.resolve("nginx.conf"), """
                %sdaemon off;
                master_process off;
                worker_processes 1;
                pid %s/nginx.pid;
                error_log stderr crit;
                events { worker_connections 64; }
                http {
                    access_log off;
                    client_body_temp_path %2$s/body;
                    proxy_temp_path %2$s/proxy;
                    fastcgi_temp_path %2$s/fastcgi;
                    uwsgi_temp_path %2$s/uwsgi;
                    scgi_temp_path %2$s/scgi;
                    proxy_cache_path %2$s/cache keys_zone=hosts:1m;
                    server {
                        listen 127.0.0.1:%d;
                        location / {
                            proxy_pass http://127.0.0.1:%d;
                            proxy_http_version 1.1;
                            proxy_cache hosts;
                            proxy_cache_key "$scheme$host$request_uri";
                            proxy_set_header X-Forwarded-Host $host;
                        }
                    }
                }
                """.formatted(isRoot() ? "user root root;\n" : "", nginxDir, nginxPort, origin.baseUri().getPort()));
        nginx = new ProcessBuilder(binary.toString(), "-p", nginxDir.toString(), "-c",
                nginxDir.resolve("nginx.conf").toString()).redirectErrorStream(true)
                .redirectOutput(nginxDir.resolve("nginx.out").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (Socket s = new Socket("127.0.0.1", nginxPort)) {
                break;
            } catch (IOException notYet) {
                if (!nginx.isAlive() || System.nanoTime() > deadline) {
                    throw new AssertionError("nginx did not start: " + Files.readString(nginxDir.resolve("nginx.out")));
                }
                Thread.sleep(50);
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (nginx != null) {
            nginx.destroy();
            if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                nginx.destroyForcibly().waitFor();
            }
        }
        if (cache != null) {
            cache.close();
            origin.close();
            store.close();
        }
        if (nginxDir != null) {
            try (Stream<Path> paths = Files.walk(nginxDir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static boolean isRoot() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .anyMatch(l -> l.startsWith("Uid:") && l.substring(4).trim().split("\\s+")[1].equals("0"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Status and, for a 200, the body: what a client of either server learns. */
    private static String answerOf(int port, String head) throws IOException {
        try (RawHttp raw = new RawHttp(port)) {
            raw.send(head + "\r\n\r\n");
            RawHttp.Response r = raw.read(false);
            if (r == null) {
                return "(empty reply)";
            }
            return r.status() + (r.status() == 200 ? " " + new String(r.body(), StandardCharsets.UTF_8) : "");
        }
    }

    @Test
    void everyPoisoningAndHostCaseIsAnsweredAsNginxAnswersIt() throws Exception {
        List<String> differences = new ArrayList<>();
        for (Case c : CASES) {
            String ours = answerOf(cache.port(), c.head());
            String theirs = answerOf(nginxPort, c.head());
            System.out.printf("%-36s edgelab %-40s nginx %s%n", c.name(), ours, theirs);
            if (c.nginxStatusWhereStricter() == 0) {
                if (!ours.equals(theirs)) {
                    differences.add(c.name() + ": edgelab '" + ours + "', nginx '" + theirs + "'");
                }
            } else {
                assertThat(ours).as("%s: this cache refuses it (RFC 3986 grammar)", c.name()).isEqualTo("400");
                assertThat(theirs).as("%s: nginx's answer", c.name()).startsWith(c.nginxStatusWhereStricter() + "");
            }
        }
        assertThat(differences).isEmpty();
    }
}
