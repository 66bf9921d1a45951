package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two tiers of EdgeLab caches on loopback, two edges in front of one parent in front of an origin
 * that answers per host (from X-Forwarded-Host, as HostPoisoningTest's): with {@code preserveHost}
 * on the edges, the parent keys each client host's objects apart. Without it every edge request
 * reached the parent with the parent's own authority as Host, so one path of two hosts was one
 * object there, and the second host got the first one's (poisoning across hosts, a tier up).
 */
class ParentTierHostTest {

    private ScriptedOrigin origin;
    private final List<ObjectStore> stores = new java.util.ArrayList<>();
    private CacheServer parent;
    private CacheServer edge1;
    private CacheServer edge2;

    @BeforeEach
    void start() throws Exception {
        origin = new ScriptedOrigin(HostPoisoningTest::answer);
        parent = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).ioThreads(1).build(), store());
        String parentUri = "http://127.0.0.1:" + parent.port();
        edge1 = CacheServer.start(CacheServerConfig.builder().origin(parentUri).preserveHost(true).ioThreads(1).build(),
                store());
        edge2 = CacheServer.start(CacheServerConfig.builder().upstreams(parentUri).preserveHost(true).ioThreads(1)
                .build(), store());
    }

    private ObjectStore store() throws Exception {
        ObjectStore s = StorageEngines.open("memory", PluginSettings.of("capacity", "8m"));
        stores.add(s);
        return s;
    }

    @AfterEach
    void stop() throws Exception {
        for (CacheServer c : new CacheServer[] {edge1, edge2, parent}) {
            if (c != null) {
                c.close();
            }
        }
        origin.close();
        for (ObjectStore s : stores) {
            s.close();
        }
    }

    @Test
    void aParentKeepsEachHostsObjectApartAndSharesItAcrossEdges() throws Exception {
        RawHttp.Response a = get(edge1, "/shared.txt", "a.example");
        RawHttp.Response b = get(edge2, "/shared.txt", "b.example");
        assertThat(body(a)).isEqualTo("host=a.example path=/shared.txt");
        assertThat(body(b)).as("b.example's own object, not a.example's from the parent")
                .isEqualTo("host=b.example path=/shared.txt");
        RawHttp.Response aFromEdge2 = get(edge2, "/shared.txt", "a.example");
        assertThat(body(aFromEdge2)).isEqualTo("host=a.example path=/shared.txt");
        assertThat(aFromEdge2.header("x-cache")).as("a miss at edge 2").startsWith("MISS");
        assertThat(origin.count("GET /shared.txt")).as("the parent fetched each host's object once").isEqualTo(2);
        assertThat(body(get(edge1, "/shared.txt", "b.example"))).isEqualTo("host=b.example path=/shared.txt");
        assertThat(origin.count("GET /shared.txt")).isEqualTo(2);
    }

    private static RawHttp.Response get(CacheServer cache, String path, String host) throws Exception {
        try (RawHttp raw = new RawHttp(cache.port())) {
            raw.send("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
            RawHttp.Response r = raw.read(false);
            assertThat(r.status()).isEqualTo(200);
            return r;
        }
    }

    private static String body(RawHttp.Response r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }
}
