package org.edgelab.cache.origin;

import org.edgelab.hashing.HashRing;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.edgelab.cache.admin.UpstreamStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Several upstreams: a request goes to its path's first upstream on the ring while it is up, and walks the path's
 * preference only when that one is down or fails, trying each next upstream that is up, in ring order.
 */
class OriginClientRingTest {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final EventLoop loop = group.next();
    private final List<RawOrigin> origins = new ArrayList<>();
    private OriginClient client;

    @AfterEach
    void close() throws Exception {
        if (client != null) {
            client.close();
        }
        for (RawOrigin o : origins) {
            o.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static String authority(URI u) {
        return u.getHost() + ":" + u.getPort();
    }

    /** The first of {@code /k/0, /k/1, ...} whose preference begins with {@code want}. */
    private static String pathPreferring(HashRing ring, int... want) {
        for (int i = 0; ; i++) {
            String path = "/k/" + i;
            int[] pref = ring.preference(path);
            boolean match = true;
            for (int k = 0; k < want.length; k++) {
                match &= pref[k] == want[k];
            }
            if (match) {
                return path;
            }
        }
    }

    @Test
    void aFailedFirstUpstreamMovesTheRequestAlongItsPreferenceAndADownOneIsSkippedFromTheStart() throws Exception {
        List<URI> uris = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RawOrigin o = new RawOrigin();
            origins.add(o);
            uris.add(o.uri());
            names.add(authority(o.uri()));
        }
        // probes far apart: an upstream marked down here stays down for the test
        client = new OriginClient(uris, HashRing.DEFAULT_VIRTUAL_NODES, Duration.ofMinutes(1), false,
                NioSocketChannel.class, Duration.ofSeconds(2), Duration.ofSeconds(5));
        HashRing ring = new HashRing(names, HashRing.DEFAULT_VIRTUAL_NODES);

        String onZero = pathPreferring(ring, 0, 1, 2);
        RecordingListener up = RecordingListener.get(client, loop, onZero);
        assertThat(up.body.toString()).isEqualTo("hello");
        assertThat(origins.get(0).requests).containsExactly("GET " + onZero + " " + names.get(0));

        origins.get(0).close();
        origins.get(1).close();
        RecordingListener moved = RecordingListener.get(client, loop, onZero + "?again");
        assertThat(moved.body.toString()).as("the third of its preference answers").isEqualTo("hello");
        assertThat(origins.get(2).requests).as("with its own Host (requests at the three: %s, %s, %s)",
                        origins.get(0).requests, origins.get(1).requests, origins.get(2).requests)
                .containsExactly("GET " + onZero + "?again " + names.get(2));
        List<UpstreamStats> stats = client.stats();
        assertThat(stats.get(0)).isEqualTo(new UpstreamStats(names.get(0), "down", 2, 1, 1, 0, 0));
        assertThat(stats.get(1)).isEqualTo(new UpstreamStats(names.get(1), "down", 1, 1, 1, 0, 0));
        assertThat(stats.get(2)).isEqualTo(new UpstreamStats(names.get(2), "up", 1, 0, 0, 0, 0));

        // a path whose first upstream is already down goes straight to the next one up of its preference
        String onOne = pathPreferring(ring, 1);
        RecordingListener skipped = RecordingListener.get(client, loop, onOne);
        assertThat(skipped.body.toString()).isEqualTo("hello");
        assertThat(origins.get(2).requests).hasSize(2).last().isEqualTo("GET " + onOne + " " + names.get(2));
        stats = client.stats();
        assertThat(stats.get(0).requests()).isEqualTo(2);
        assertThat(stats.get(1).requests()).as("not tried while down").isEqualTo(1);
        assertThat(stats.get(2)).isEqualTo(new UpstreamStats(names.get(2), "up", 2, 0, 0, 0, 0));
    }
}
