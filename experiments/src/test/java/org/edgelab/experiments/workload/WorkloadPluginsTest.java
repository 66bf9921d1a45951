package org.edgelab.experiments.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.descriptor.yaml.DescriptorSource;
import org.edgelab.experiments.matrix.MatrixExpander;
import org.edgelab.experiments.runner.ExperimentRunner;
import org.edgelab.loadgen.workload.RequestSlot;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.SettingException;
import org.edgelab.plugin.UnknownPluginException;
import org.junit.jupiter.api.Test;

class WorkloadPluginsTest {

    private static WorkloadRequest request(String yaml) {
        Descriptor d = DescriptorLoader.load(new DescriptorSource("inline.yaml", yaml, null), false);
        return ExperimentRunner.workloadRequest(d.load(), PluginSettings.of(d.load().workloadSettings()), MatrixExpander.expand(d).get(0));
    }

    @Test
    void registryFindsTheBuiltInKindsAndFailsLoudlyOnOthers() {
        assertThat(WorkloadPlugins.registry().names()).containsExactly("objects", "trace", "video");
        assertThatThrownBy(() -> WorkloadPlugins.get("replay"))
                .isInstanceOf(UnknownPluginException.class).hasMessage("unknown workload 'replay'; known workloads: objects, trace, video");
    }

    @Test
    void objectsWorkloadWarmsTheWholeSetOnce() {
        Workload w = WorkloadPlugins.get("objects").create(request("""
                name: x
                servers: [{engine: memory}]
                load: {workload: {object_sizes: 10KB, working_set: 100KB, target_hit_ratio: 0.5}}
                """));
        assertThat(w.warmUp().size()).isEqualTo(10);
        assertThat(w.describe()).contains("target hit ratio 0.500");
    }

    @Test
    void videoFramesAreConsecutiveRangesDueOnTheFrameClock() {
        Workload w = WorkloadPlugins.get("video").create(request("""
                name: x
                servers: [{engine: memory}]
                load: {workload: {kind: video, settings: {bitrate: 3MB, fps: 30, frames_per_object: 4, streams: 2}}}
                """));
        RequestSlot slot = new RequestSlot();
        var generator = w.newGenerator(1);
        generator.next(0, slot);
        assertThat(slot.path).isEqualTo("/objects/400000/c0-v0");
        assertThat(slot.rangeStart).isZero();
        assertThat(slot.rangeEnd).isEqualTo(99_999);
        generator.next(1, slot);
        assertThat(slot.syntheticId).isEqualTo("c0-v1");
        generator.next(2 * 5 + 1, slot); // frame 5 of stream 1 wraps to frame 1 of its 4-frame object
        assertThat(slot.rangeStart).isEqualTo(100_000);
        assertThat(w.schedule().offsetNanos(0)).isZero();
        assertThat(w.schedule().offsetNanos(1)).isEqualTo(1_000_000_000L / 60);
        assertThat(w.schedule().offsetNanos(2 * 30)).isEqualTo(1_000_000_000L);
        assertThat(w.warmUp()).isNull();
    }

    @Test
    void videoHealthRuleMustBeReachable() {
        assertThatThrownBy(() -> VideoWorkload.playback(PluginSettings.of(Map.of("look_ahead_frames", "100", "min_look_ahead_frames", "300"))))
                .isInstanceOf(SettingException.class).hasMessageContaining("cannot exceed look_ahead_frames")
                .extracting(e -> ((SettingException) e).key()).isEqualTo("min_look_ahead_frames");
    }
}
