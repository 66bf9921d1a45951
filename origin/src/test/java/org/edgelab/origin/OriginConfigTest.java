package org.edgelab.origin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.Map;
import org.edgelab.origin.fault.FaultRules;
import org.junit.jupiter.api.Test;

class OriginConfigTest {

    @Test
    void builderDefaults() {
        OriginConfig config = OriginConfig.builder().build();
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isZero();
        assertThat(config.filesRoot()).isNull();
        assertThat(config.servesFiles()).isFalse();
        assertThat(config.cacheControl()).isEqualTo("public, max-age=3600");
        assertThat(config.firstByteLatency()).isEqualTo(Duration.ZERO);
        assertThat(config.bandwidthBytesPerSecond()).isZero();
        assertThat(config.ioThreads()).isZero();
        assertThat(config.faults()).isEqualTo(FaultRules.none());
    }

    @Test
    void everySetterIsKeptAndSurvivesToBuilder() {
        FaultRules faults = FaultRules.parse("every=2&status=503");
        InstantSource clock = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);
        OriginConfig config = OriginConfig.builder().host("::1").port(8081).filesRoot(Path.of("/srv")).cacheControl("no-cache")
                .firstByteLatency(Duration.ofMillis(5)).bandwidthBytesPerSecond(1000).ioThreads(2).faults(faults).clock(clock).build();
        assertThat(config).isEqualTo(new OriginConfig("::1", 8081, Path.of("/srv"), "no-cache", Duration.ofMillis(5), 1000, 2, faults,
                clock));
        assertThat(config.toBuilder().build()).isEqualTo(config);
    }

    @Test
    void invalidFieldsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> OriginConfig.builder().port(70000).build()).hasMessageContaining("70000");
        assertThatThrownBy(() -> OriginConfig.builder().bandwidthBytesPerSecond(-1).build()).hasMessageContaining("-1");
        assertThatThrownBy(() -> OriginConfig.builder().firstByteLatency(Duration.ofMillis(-1)).build())
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> OriginConfig.builder().cacheControl("a\r\nX-Injected: 1").build())
                .hasMessageContaining("line breaks");
    }

    @Test
    void aMissingFilesRootFailsAtStart(@org.junit.jupiter.api.io.TempDir Path temp) {
        assertThatThrownBy(() -> OriginServer.start(OriginConfig.builder().filesRoot(temp.resolve("absent")).build()))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("absent");
    }

    @Test
    void aTakenPortFailsAtStartNamingIt() {
        try (OriginServer first = OriginServer.start(OriginConfig.builder().build())) {
            assertThatThrownBy(() -> OriginServer.start(OriginConfig.builder().port(first.port()).build()))
                    .isInstanceOf(UncheckedIOException.class).hasMessageContaining(":" + first.port());
            assertThat(first.baseUri().toString()).isEqualTo("http://127.0.0.1:" + first.port());
        }
    }

    @Test
    void statsJsonListsStatusesInOrder() {
        OriginStats stats = new OriginStats(3, 1234, Map.of(503, 1L, 200, 2L));
        assertThat(stats.toJson()).isEqualTo("{\"requests\":3,\"bytes_sent\":1234,\"by_status\":{\"200\":2,\"503\":1}}");
        assertThat(new OriginStats(0, 0, Map.of()).toJson()).isEqualTo("{\"requests\":0,\"bytes_sent\":0,\"by_status\":{}}");
        assertThat(stats.responses(404)).isZero();
    }
}
