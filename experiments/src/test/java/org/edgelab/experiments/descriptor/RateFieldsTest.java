package org.edgelab.experiments.descriptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import org.edgelab.experiments.descriptor.yaml.DescriptorException;
import org.edgelab.experiments.descriptor.yaml.DescriptorFiles;
import org.edgelab.experiments.workload.VideoWorkload;
import org.edgelab.plugin.PluginSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every rate field of a descriptor reads its unit with the one parser the flags use (DataRate). */
class RateFieldsTest {

    @TempDir
    Path dir;

    private Descriptor load(String text) throws IOException {
        return new DescriptorFiles(dir).load("rates.yaml", text);
    }

    @Test
    void linkBandwidthsAndBitratesTakeBitsOrBytesPerSecond() throws IOException {
        Descriptor d = load("""
                name: rates
                servers: [{engine: memory}]
                load:
                  links: [{bandwidth: 1Gbit/s, latency: 40ms}, {bandwidth: 125MB/s}, {bandwidth: 1gbit}]
                  workload: {kind: video, settings: {bitrate: 560Mbit/s, fps: 30}}
                """);
        assertThat(d.load().links()).extracting(Descriptor.Link::bitsPerSecond)
                .containsExactly(1_000_000_000L, 1_000_000_000L, 1_000_000_000L);
        assertThat(d.load().links().get(0).name()).isEqualTo("1Gbit/s+40ms");
        assertThat(VideoWorkload.playback(PluginSettings.of(d.load().workloadSettings())).bitrateBytesPerSecond())
                .isEqualTo(70_000_000L);
    }

    @Test
    void aRateWithoutAUnitIsRefusedAtItsLine() {
        assertThatThrownBy(() -> load("""
                name: rates
                servers: [{engine: memory}]
                load:
                  links: [{bandwidth: 1000000}]
                """)).isInstanceOf(DescriptorException.class).hasMessageContaining("rates.yaml:4:")
                .hasMessageContaining("no unit");
    }
}
