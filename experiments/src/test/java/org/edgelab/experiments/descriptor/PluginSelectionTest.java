package org.edgelab.experiments.descriptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import org.edgelab.experiments.descriptor.yaml.DescriptorException;
import org.edgelab.experiments.descriptor.yaml.DescriptorFiles;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.video.VideoStreamsExperiment;
import org.edgelab.plugin.UnknownPluginException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Descriptors select plugins by name; a bad name or setting fails at load with file:line:col and what is known. */
class PluginSelectionTest {

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        return new DescriptorFiles(dir).write(name, text);
    }

    private DescriptorException failure(String text) throws IOException {
        return new DescriptorFiles(dir).failure(text);
    }

    @Test
    void defaultsAreTheMatrixKindTheObjectsWorkloadAndTheLinearPowerModel() throws IOException {
        Descriptor d = DescriptorLoader.load(write("ok.yaml", """
                name: ok
                includes: [hardware/local]
                servers: [{engine: memory}]
                """).toString(), false);
        assertThat(d.kind()).isEqualTo("matrix");
        assertThat(d.load().workloadKind()).isEqualTo("objects");
        assertThat(d.hardware().power().model()).isEqualTo("linear");
    }

    @Test
    void unknownExperimentKindListsTheKnownKinds() throws IOException {
        DescriptorException e = failure("name: x\nkind: grid-search\nservers: [{engine: memory}]\n");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(1);
        assertThat(e.field()).isEqualTo("kind");
        assertThat(e.getMessage()).contains("unknown experiment kind 'grid-search'").contains("matrix", "video-streams");
    }

    @Test
    void unknownWorkloadKindListsTheKnownWorkloads() throws IOException {
        DescriptorException e = failure("""
                name: x
                servers: [{engine: memory}]
                load:
                  workload:
                    kind: zipfian-video
                """);
        assertThat(e.line()).isEqualTo(5);
        assertThat(e.column()).isEqualTo(5);
        assertThat(e.field()).isEqualTo("load.workload.kind");
        assertThat(e.getMessage()).contains("unknown workload 'zipfian-video'").contains("objects", "trace", "video");
    }

    @Test
    void unknownPowerModelListsTheKnownModels() throws IOException {
        DescriptorException e = failure("""
                name: x
                servers: [{engine: memory}]
                hardware:
                  power:
                    model: wall-meter
                """);
        assertThat(e.line()).isEqualTo(5);
        assertThat(e.field()).isEqualTo("hardware.power.model");
        assertThat(e.getMessage()).contains("unknown power model 'wall-meter'").contains("linear", "rapl");
    }

    @Test
    void badWorkloadSettingPointsAtItsLine() throws IOException {
        DescriptorException e = failure("""
                name: x
                servers: [{engine: memory}]
                load:
                  workload:
                    kind: video
                    settings:
                      fps: 30
                      bitrate: 10 MX
                """);
        assertThat(e.line()).isEqualTo(8);
        assertThat(e.field()).isEqualTo("load.workload.settings.bitrate");
        assertThat(e.getMessage()).contains("unknown unit 'MX'");
        DescriptorException unknown = failure("""
                name: x
                servers: [{engine: memory}]
                load:
                  workload:
                    kind: video
                    settings: {frame_rate: 30}
                """);
        assertThat(unknown.line()).isEqualTo(6);
        assertThat(unknown.getMessage()).contains("has no setting 'frame_rate'").contains("fps", "look_ahead_frames");
    }

    @Test
    void objectsWorkloadTakesNoSettingsAndTraceNeedsAReadableFile() throws IOException {
        assertThat(failure("name: x\nservers: [{engine: memory}]\nload: {workload: {settings: {speed: 2}}}\n").getMessage())
                .contains("workload 'objects'").contains("has no setting 'speed'");
        DescriptorException trace = failure("name: x\nservers: [{engine: memory}]\nload:\n  workload:\n    kind: trace\n"
                + "    settings: {file: missing.csv}\n");
        assertThat(trace.line()).isEqualTo(6);
        assertThat(trace.getMessage()).contains("missing.csv").contains("does not exist");
        write("bad.csv", "0,a,100\n0.5,b,ten\n");
        DescriptorException badLine = failure("name: x\nservers: [{engine: memory}]\nload:\n  workload:\n    kind: trace\n"
                + "    settings: {file: bad.csv}\n");
        assertThat(badLine.getMessage()).contains("bad.csv:2");
    }

    @Test
    void linearPowerModelNeedsItsCoefficients() throws IOException {
        DescriptorException e = failure("""
                name: x
                servers: [{engine: memory}]
                hardware:
                  power:
                    idle_w: 40
                    w_per_busy_kore: 10
                """);
        assertThat(e.line()).isEqualTo(6);
        assertThat(e.field()).isEqualTo("hardware.power.w_per_busy_kore");
        assertThat(e.getMessage()).contains("power model 'linear' has no setting").contains("w_per_busy_core");
        DescriptorException negative = failure("name: x\nservers: [{engine: memory}]\nhardware:\n  power: {idle_w: -3, w_per_busy_core: 1}\n");
        assertThat(negative.field()).isEqualTo("hardware.power.idle_w");
    }

    @Test
    void experimentKindChecksItsSettingsAndWorkload() throws IOException {
        DescriptorException workload = failure("name: x\nkind: video-streams\nservers: [{engine: memory}]\n");
        assertThat(workload.line()).isEqualTo(2);
        assertThat(workload.field()).isEqualTo("kind");
        assertThat(workload.getMessage()).contains("load.workload.kind: the video-streams experiment needs workload kind 'video'");
        DescriptorException setting = failure("""
                name: x
                kind: video-streams
                settings:
                  initial_streams: 5
                  max_streams: 2
                servers: [{engine: memory}]
                load: {workload: {kind: video}}
                """);
        assertThat(setting.line()).isEqualTo(5);
        assertThat(setting.field()).isEqualTo("settings.max_streams");
        DescriptorException matrixTakesNone = failure("name: x\nsettings: {max_streams: 3}\nservers: [{engine: memory}]\n");
        assertThat(matrixTakesNone.line()).isEqualTo(2);
        assertThat(matrixTakesNone.getMessage()).contains("experiment kind 'matrix' has no setting 'max_streams'");
    }

    @Test
    void targetOverrideAppliesToBuildsWithoutTheirOwnTarget() throws IOException {
        Path file = write("t.yaml", """
                name: t
                servers:
                  - {name: a, engine: memory}
                  - {name: b, engine: memory, target: embedded}
                """);
        assertThat(DescriptorLoader.load(file.toString(), false, "embedded").target()).isEqualTo("embedded");
        assertThatThrownBy(() -> DescriptorLoader.load(file.toString(), false, "mars"))
                .isInstanceOf(UnknownPluginException.class).hasMessageContaining("unknown target 'mars'").hasMessageContaining("embedded");
    }

    @Test
    void builtinVideoStreamsIsStorageBoundVariesBypassAndReadAheadAndItsQuickVariantSaysItIsScaled() {
        for (boolean quickVariant : new boolean[] {false, true}) {
            Descriptor d = DescriptorLoader.load("video-streams", quickVariant);
            assertThat(d.kind()).isEqualTo("video-streams");
            assertThat(d.target()).as("a target that bounds the server's memory").isEqualTo("process");
            long memory = d.hardware().memoryBytes();
            assertThat(memory).isPositive();
            assertThat(org.edgelab.units.ByteSize.parse(d.load().workloadSettings().get("working_set")))
                    .as("a library at least 4x the server's memory").isGreaterThanOrEqualTo(4 * memory);
            assertThat(d.settings()).containsEntry("search", "bracket").containsEntry("max_streams", "1024");
            assertThat(d.load().workloadSettings()).containsEntry("bitrate", "1MB").containsEntry("min_look_ahead_frames", "300")
                    .containsEntry("max_prefetch_p99", "30ms").containsEntry("look_ahead_frames", "600");
            ServerBuild baseline = d.servers().get(0);
            assertThat(baseline.settings()).doesNotContainKeys("bypass-sequential", "disk.read-ahead");
            assertThat(d.servers()).anySatisfy(b -> assertThat(b.settings()).containsEntry("bypass-sequential", "true")
                    .doesNotContainKey("disk.read-ahead"));
            assertThat(d.servers()).anySatisfy(b -> assertThat(b.settings()).containsEntry("disk.read-ahead", "kernel")
                    .doesNotContainKey("bypass-sequential"));
        }
        Descriptor full = DescriptorLoader.load("video-streams", false);
        assertThat(full.servers()).extracting(ServerBuild::name)
                .containsExactly("tiered", "tiered-bypass", "tiered-readahead", "tiered-bypass-readahead", "raw-log", "raw-log-readahead");
        Descriptor quick = DescriptorLoader.load("video-streams", true);
        assertThat(quick.servers()).extracting(ServerBuild::name).containsExactly("tiered", "tiered-bypass", "tiered-readahead");
        assertThat(quick.sourceText()).contains("SCALED");
        assertThat(VideoStreamsExperiment.scalingNote(1_000_000)).contains("SCALED").contains("1/70");
    }
}
