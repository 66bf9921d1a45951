package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Configuration defaults and the errors bad settings get. */
class CacheServerConfigTest {

    @Test
    void defaultsMatchTheAgreedApi() {
        CacheServerConfig c = CacheServerConfig.builder().origin("http://127.0.0.1:8081").build();
        assertThat(c.bindHost()).isEqualTo("127.0.0.1");
        assertThat(c.storeThreads()).isEqualTo(16);
        assertThat(c.storeQueue()).isEqualTo(1024);
        assertThat(c.storeWriteThreads()).as("the write lane: fewer threads than reads").isEqualTo(8);
        assertThat(c.storeWriteShedAfter()).as("every storable fill waits for the store unless asked").isZero();
        assertThat(c.clock().millis()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(5_000L));
        assertThat(c.port()).isZero();
        assertThat(c.adminPort()).isEqualTo(-1);
        assertThat(c.maxInitialLineLength()).isEqualTo(8192);
        assertThat(c.maxHeaderSize()).isEqualTo(16384);
        assertThat(c.idleTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.originConnectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.originResponseTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.maxRanges()).isEqualTo(16);
        assertThat(c.originAuthority()).isEqualTo("127.0.0.1:8081");
        assertThat(CacheServerConfig.builder().origin("http://origin.test").build().originPort()).isEqualTo(80);
    }

    @Test
    void badSettingsAreRejectedWithTheirName() {
        assertThatThrownBy(() -> CacheServerConfig.builder().build()).hasMessageContaining("origin");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://127.0.0.1:1").storeThreads(0).build())
                .hasMessageContaining("storeThreads");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://127.0.0.1:1").storeWriteThreads(0).build())
                .hasMessageContaining("storeWriteThreads");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://127.0.0.1:1").storeWriteThreads(1025).build())
                .hasMessageContaining("storeWriteThreads");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://127.0.0.1:1").storeWriteShedAfter(Duration.ofMillis(-1))
                .build()).hasMessageContaining("storeWriteShedAfter");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("https://x:1").build())
                .hasMessageContaining("http://host");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://x:1").maxRanges(0).build())
                .hasMessageContaining("maxRanges");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://x:1").idleTimeout(Duration.ZERO).build())
                .hasMessageContaining("idleTimeout");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://x:1").port(70000).build())
                .hasMessageContaining("port");
    }

    @Test
    void oneOriginIsAListOfOneUpstream() {
        CacheServerConfig c = CacheServerConfig.builder().origin("http://127.0.0.1:8081").build();
        assertThat(c.upstreams()).containsExactly(java.net.URI.create("http://127.0.0.1:8081"));
        assertThat(c.origin()).isEqualTo(java.net.URI.create("http://127.0.0.1:8081"));
        assertThat(c.upstreamVirtualNodes()).isEqualTo(160);
        assertThat(c.upstreamProbeInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.preserveHost()).as("Host is the upstream's unless asked").isFalse();
        assertThat(c.upstreamHost()).isEqualTo(c.originAuthority());
        CacheServerConfig two = CacheServerConfig.builder().upstreams("http://127.0.0.1:8081", "http://127.0.0.1:8082/").build();
        assertThat(two.upstreams()).hasSize(2);
        assertThat(two.originAuthority()).isEqualTo("127.0.0.1:8081");
    }

    @Test
    void badUpstreamsFailNamingWhichAndWhy() {
        assertThatThrownBy(() -> CacheServerConfig.builder().upstreams(java.util.List.of()).build())
                .hasMessageContaining("no origin").hasMessageContaining("upstreams");
        assertThatThrownBy(() -> CacheServerConfig.builder().upstreams("http://127.0.0.1:8081", "http://127.0.0.1:8081").build())
                .hasMessageContaining("listed twice");
        assertThatThrownBy(() -> CacheServerConfig.builder().upstreams("http://Parent:80", "http://parent").build())
                .hasMessageContaining("listed twice").hasMessageContaining("parent:80");
        assertThatThrownBy(() -> CacheServerConfig.builder().upstreams("http://a:1", "https://b:2").build())
                .hasMessageContaining("upstream 2 of 2").hasMessageContaining("http://host[:port]");
        assertThatThrownBy(() -> CacheServerConfig.builder().upstreams("http://a:1", "http://b:2/cache").build())
                .hasMessageContaining("upstream 2 of 2").hasMessageContaining("no user, path or query");
        assertThatThrownBy(() -> CacheServerConfig.builder().upstreams("http://a:1", "http://u@b:2").build())
                .hasMessageContaining("upstream 2 of 2");
        assertThatThrownBy(() -> CacheServerConfig.builder().upstreams("http://a:1", "b:2").build())
                .hasMessageContaining("upstream 2 of 2");
        assertThatThrownBy(() -> CacheServerConfig.builder().upstreams("http://a:1", "http://b c").build())
                .hasMessageContaining("not a URI: 'http://b c'");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://a:1").upstreamVirtualNodes(0).build())
                .hasMessageContaining("upstreamVirtualNodes");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://a:1").upstreamProbeInterval(Duration.ZERO).build())
                .hasMessageContaining("upstreamProbeInterval");
    }
}
