package org.edgelab.loadgen;

import java.net.URI;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The servers one load is spread over by request path, as a CDN's clients reach the edge that a consistent-hash ring
 * names for each object: every request goes to {@code servers.get(router.applyAsInt(path))}, where {@code path} is the
 * request target the workload made ({@code /objects/...?...}). Every server gets the same Host header (the load's),
 * so the servers share one cache key space. Immutable and thread-safe; {@code router} must be pure and must not block
 * (it runs on the load's event loops for every request).
 *
 * @param servers the servers' base URIs ({@code http://host:port}), at least two
 * @param router  the index in {@code servers} of the server that gets a request target
 */
public record Shards(List<URI> servers, ToIntFunction<String> router) {
    /** Copies the list; checks there are at least two servers, each http with a host. */
    public Shards {
        servers = List.copyOf(servers);
        if (servers.size() < 2) {
            throw new IllegalArgumentException("shards need at least two servers (one server is a plain URL), got " + servers);
        }
        for (URI s : servers) {
            if (!"http".equals(s.getScheme()) || s.getHost() == null) {
                throw new IllegalArgumentException("a shard must be http://host[:port], got " + s);
            }
        }
    }
}
