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
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("https://x:1").build())
                .hasMessageContaining("http://host");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://x:1").maxRanges(0).build())
                .hasMessageContaining("maxRanges");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://x:1").idleTimeout(Duration.ZERO).build())
                .hasMessageContaining("idleTimeout");
        assertThatThrownBy(() -> CacheServerConfig.builder().origin("http://x:1").port(70000).build())
                .hasMessageContaining("port");
    }
}
