package org.edgelab.experiments.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.edgelab.loadgen.video.VideoConfig;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.SettingException;
import org.junit.jupiter.api.Test;

/** The video workload's library ({@code working_set}): its size in objects, and how streams move through it. */
class VideoLibraryTest {

    @Test
    void workingSetIsCutIntoObjectsThatStreamsPlayInTurnFromSpreadStarts() {
        VideoWorkload.Playback p = VideoWorkload.playback(PluginSettings.of(Map.of("bitrate", "1MB", "fps", "30",
                "frames_per_object", "150", "working_set", "1800MiB")));
        assertThat(p.objectBytes()).isEqualTo(33_333L * 150);
        assertThat(p.objects()).isEqualTo((int) Math.ceil((1800.0 * (1 << 20)) / (33_333L * 150)));
        VideoConfig config = p.apply(VideoConfig.builder()).url("http://127.0.0.1:1/").build();
        int objects = p.objects();
        // a stream moves to the next object at each object's end, around the library
        long start = config.objectOf(7, 0);
        assertThat(config.objectOf(7, 149)).isEqualTo(start);
        assertThat(config.objectOf(7, 150)).isEqualTo((start + 1) % objects);
        assertThat(config.objectOf(7, 150L * objects)).isEqualTo(start);
        // any number of streams start spread over the library: 32 streams, 32 distinct objects, none closer than 1/64 of it
        Set<Long> starts = new HashSet<>();
        for (int i = 0; i < 32; i++) {
            starts.add(config.objectOf(i, 0));
        }
        assertThat(starts).hasSize(32).allSatisfy(o -> assertThat(o).isBetween(0L, objects - 1L));
        long[] sorted = starts.stream().mapToLong(Long::longValue).sorted().toArray();
        for (int i = 1; i < sorted.length; i++) {
            assertThat(sorted[i] - sorted[i - 1]).isGreaterThanOrEqualTo(objects / 64);
        }
    }

    @Test
    void withoutALibraryEachStreamLoopsOverItsOwnObject() {
        VideoWorkload.Playback p = VideoWorkload.playback(PluginSettings.of(Map.of("frames_per_object", "10")));
        assertThat(p.objects()).isZero();
        VideoConfig config = p.apply(VideoConfig.builder()).url("http://127.0.0.1:1/").build();
        assertThat(config.objectOf(5, 0)).isEqualTo(5);
        assertThat(config.objectOf(5, 12345)).isEqualTo(5);
    }

    @Test
    void aLibrarySmallerThanOneObjectIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> VideoWorkload.playback(PluginSettings.of(Map.of("bitrate", "1MB", "frames_per_object", "150",
                "working_set", "1MB")))).isInstanceOf(SettingException.class).hasMessageContaining("4999950")
                .satisfies(e -> assertThat(((SettingException) e).key()).isEqualTo("working_set"));
    }
}
