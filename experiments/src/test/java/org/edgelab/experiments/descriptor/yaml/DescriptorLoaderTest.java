package org.edgelab.experiments.descriptor.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import org.edgelab.experiments.descriptor.ByteSizeValue;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DescriptorLoaderTest {

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        return new DescriptorFiles(dir).write(name, text);
    }

    private DescriptorException failure(String text) throws IOException {
        return new DescriptorFiles(dir).failure(text);
    }

    @Test
    void badYamlNamesFileAndLine() throws IOException {
        DescriptorException e = failure("name: x\nservers:\n  - engine: memory\n   bad: [unclosed\n");
        assertThat(e.line()).isBetween(3, 5);
        assertThat(e.getMessage()).contains("not valid YAML");
    }

    @Test
    void duplicateKeyIsAnError() throws IOException {
        DescriptorException e = failure("name: x\nname: y\nservers: [{engine: memory}]\n");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.getMessage()).contains("name");
    }

    @Test
    void unknownFieldNamesPathLineAndKnownFields() throws IOException {
        DescriptorException e = failure("""
                name: x
                servers: [{engine: memory}]
                load:
                  workload:
                    object_size: 10KB
                """);
        assertThat(e.line()).isEqualTo(5);
        assertThat(e.field()).isEqualTo("load.workload.object_size");
        assertThat(e.getMessage()).contains("unknown field 'object_size'").contains("object_sizes", "target_hit_ratio");
    }

    @Test
    void unknownEngineListsKnownEngines() throws IOException {
        DescriptorException e = failure("""
                name: x
                servers:
                  - engine: memory
                  - name: fancy
                    engine: no-such-engine
                """);
        assertThat(e.line()).isEqualTo(5);
        assertThat(e.field()).isEqualTo("servers[1].engine");
        assertThat(e.getMessage()).contains("unknown storage engine 'no-such-engine'").contains("memory", "raw-log", "lmdb");
    }

    @Test
    void unknownEngineSettingNamesTheEngineSettings() throws IOException {
        DescriptorException e = failure("""
                name: x
                servers:
                  - engine: memory
                    settings:
                      capacty: 1GB
                """);
        assertThat(e.field()).isEqualTo("servers[0].settings");
        assertThat(e.line()).isBetween(4, 5);
        assertThat(e.getMessage()).contains("capacty").contains("capacity");
    }

    @Test
    void badByteUnitNamesTheListElement() throws IOException {
        DescriptorException e = failure("""
                name: x
                servers: [{engine: memory}]
                load:
                  workload:
                    object_sizes: [100KB, 10 MX]
                """);
        assertThat(e.line()).isEqualTo(5);
        assertThat(e.field()).isEqualTo("load.workload.object_sizes[1]");
        assertThat(e.getMessage()).contains("'10 MX' has an unknown unit 'MX'").contains("KiB");
    }

    @Test
    void durationWithoutUnitIsRejected() throws IOException {
        DescriptorException e = failure("name: x\nservers: [{engine: memory}]\nload:\n  duration: 10\n");
        assertThat(e.line()).isEqualTo(4);
        assertThat(e.field()).isEqualTo("load.duration");
        assertThat(e.getMessage()).contains("not a duration");
    }

    @Test
    void settleDefaultsToNoneAndRejectsADurationWithoutUnit() throws IOException {
        Path plain = write("plain.yaml", "name: x\nservers: [{engine: memory}]\n");
        assertThat(DescriptorLoader.load(plain.toString(), false).load().settle().isNone()).isTrue();
        DescriptorException e = failure("name: x\nservers: [{engine: memory}]\nload:\n  settle: 5\n");
        assertThat(e.line()).isEqualTo(4);
        assertThat(e.field()).isEqualTo("load.settle");
    }

    @Test
    void wrongTypeSaysWhatWasExpected() throws IOException {
        DescriptorException e = failure("name: x\nservers: [{engine: memory}]\nrepetitions: many\n");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.field()).isEqualTo("repetitions");
        assertThat(e.getMessage()).contains("expected a whole number");
    }

    @Test
    void listedDimensionOutsideMatrixIsAnError() throws IOException {
        DescriptorException e = failure("""
                name: x
                servers: [{engine: memory}]
                load:
                  connections: [1, 2]
                matrix: [server]
                """);
        assertThat(e.line()).isEqualTo(4);
        assertThat(e.field()).isEqualTo("load.connections");
        assertThat(e.getMessage()).contains("has 2 values but 'connections' is not in matrix");
    }

    @Test
    void unknownDimensionAndTargetAreErrors() throws IOException {
        assertThat(failure("name: x\nservers: [{engine: memory}]\nmatrix: [server, colour]\n").getMessage())
                .contains("matrix[1]").contains("unknown dimension 'colour'");
        DescriptorException target = failure("name: x\ntarget: no-such-target\nservers: [{engine: memory}]\n");
        assertThat(target.line()).isEqualTo(2);
        assertThat(target.getMessage()).contains("unknown target 'no-such-target'").contains("embedded");
    }

    @Test
    void missingNameAndServersAreReported() throws IOException {
        assertThat(failure("servers: [{engine: memory}]\n").field()).isEqualTo("name");
        assertThat(failure("name: x\n").field()).isEqualTo("servers");
    }

    @Test
    void optionalBuildWithAbsentEngineIsSkippedWithANote() throws IOException {
        Path file = write("opt.yaml", """
                name: x
                servers:
                  - engine: memory
                  - name: future
                    engine: not-built-yet
                    optional: true
                """);
        Descriptor d = DescriptorLoader.load(file.toString(), false);
        assertThat(d.servers()).extracting(ServerBuild::name).containsExactly("memory");
        assertThat(d.notes()).singleElement().asString().contains("future").contains("not-built-yet");
    }

    @Test
    void includesMergeAndQuickOverlays() throws IOException {
        write("base.yaml", """
                name: base
                description: the base
                servers: [{engine: memory, settings: {capacity: 64MB}}]
                load:
                  connections: 8
                  duration: 20s
                  workload:
                    object_sizes: [1KB, 2KB]
                    target_hit_ratio: 0.9
                quick:
                  load:
                    duration: 1s
                """);
        Path variant = write("variant.yaml", """
                name: variant
                includes: [base, hardware/local]
                load:
                  workload:
                    object_sizes: [4KB]
                quick:
                  repetitions: 1
                """);
        Descriptor full = DescriptorLoader.load(variant.toString(), false);
        assertThat(full.name()).isEqualTo("variant");
        assertThat(full.description()).isEqualTo("the base");
        assertThat(full.load().objectSizes()).extracting(ByteSizeValue::bytes).containsExactly(4000L);
        assertThat(full.load().targetHitRatio()).isEqualTo(0.9);
        assertThat(full.load().connections()).containsExactly(8);
        assertThat(full.load().duration()).hasSeconds(20);
        assertThat(full.hardware().name()).isEqualTo("local");
        assertThat(full.hardware().power().model()).isEqualTo("linear");
        assertThat(Double.parseDouble(full.hardware().power().settings().get("idle_w"))).isPositive();
        Descriptor quick = DescriptorLoader.load(variant.toString(), true);
        assertThat(quick.load().duration()).hasSeconds(1);
        assertThat(quick.quick()).isTrue();
        assertThat(quick.sourceText()).contains("includes: [base, hardware/local]");
    }

    @Test
    void errorInIncludedFileNamesThatFile() throws IOException {
        Path base = write("base.yaml", "name: base\nservers: [{engine: memory}]\nload:\n  timeout: 5 parsecs\n");
        Path variant = write("variant.yaml", "name: variant\nincludes: [base.yaml]\n");
        assertThatThrownBy(() -> DescriptorLoader.load(variant.toString(), false))
                .isInstanceOfSatisfying(DescriptorException.class, e -> {
                    assertThat(e.file()).isEqualTo(base.toString());
                    assertThat(e.line()).isEqualTo(4);
                    assertThat(e.field()).isEqualTo("load.timeout");
                });
    }

    @Test
    void includeCycleAndMissingIncludeAreErrors() throws IOException {
        write("a.yaml", "name: a\nincludes: [b.yaml]\n");
        Path b = write("b.yaml", "name: b\nincludes: [a.yaml]\n");
        assertThatThrownBy(() -> DescriptorLoader.load(b.toString(), false)).hasMessageContaining("cycle");
        DescriptorException missing = failure("name: x\nincludes: [nowhere]\nservers: [{engine: memory}]\n");
        assertThat(missing.line()).isEqualTo(2);
        assertThat(missing.field()).isEqualTo("includes[0]");
        assertThat(missing.getMessage()).contains("cannot find include 'nowhere'").contains("varnish-edge");
    }

    @Test
    void unknownNameListsBuiltins() {
        assertThatThrownBy(() -> DescriptorLoader.load("no-such-experiment", false))
                .hasMessageContaining("built-in experiments: varnish-edge");
    }

    @Test
    void builtinVarnishEdgeComparesEveryEngineAndHasAQuickVariant() {
        Descriptor full = DescriptorLoader.load("varnish-edge", false);
        assertThat(full.servers()).extracting(ServerBuild::engine)
                .containsExactly("memory", "raw-log", "raw-files", "tiered", "lmdb");
        assertThat(full.load().objectSizes()).extracting(ByteSizeValue::bytes)
                .containsExactly(100_000L, 500_000L, 1_000_000L, 10_000_000L, 16_000_000L, 50_000_000L);
        assertThat(full.load().connections()).containsExactly(100);
        assertThat(full.load().targetHitRatio()).isBetween(0.9, 0.95);
        Descriptor quick = DescriptorLoader.load("varnish-edge", true);
        assertThat(quick.servers().size() * quick.load().objectSizes().size() * quick.repetitions()).isLessThanOrEqualTo(6);
        assertThat(quick.load().duration()).isLessThanOrEqualTo(java.time.Duration.ofSeconds(5));
        assertThat(BuiltinExperiments.descriptions()).containsKey("varnish-edge");
    }

    @Test
    void builtinStorageBoundBoundsEveryEngineByOneLimitOverASetFourTimesLargerAndItsQuickVariantSettlesUntilSteady() {
        for (boolean quick : new boolean[] {false, true}) {
            Descriptor d = DescriptorLoader.load("storage-bound", quick);
            long limit = d.hardware().memoryBytes();
            assertThat(limit).isPositive();
            assertThat(d.load().workingSet()).as("the set at least 4x the memory").isGreaterThanOrEqualTo(4 * limit);
            assertThat(d.servers()).extracting(ServerBuild::engine).contains("memory", "raw-log", "raw-files", "tiered", "lmdb");
            assertThat(d.servers()).allSatisfy(build -> {
                assertThat(ServerMemory.limit(build, limit)).as(build.name()).hasValue(limit);
                assertThat(org.edgelab.experiments.target.Targets.get(build.target()).runsServerInCgroup()).as(build.name()).isTrue();
            });
            for (ByteSizeValue size : d.load().objectSizes()) {
                assertThat(Math.min(d.load().workingSet() / size.bytes(), d.load().maxObjects()) * size.bytes())
                        .as("the warmed set at " + size.text()).isGreaterThanOrEqualTo(4 * limit);
            }
            assertThat(d.load().settle().auto()).isTrue();
        }
        assertThat(DescriptorLoader.load("storage-bound", false).load().objectSizes()).extracting(ByteSizeValue::bytes)
                .containsExactly(100_000L, 1_000_000L, 10_000_000L);
        assertThat(DescriptorLoader.load("varnish-edge", true).load().settle().auto()).isTrue();
    }

    @Test
    void referenceHardwareProfilesLoad() throws IOException {
        for (String profile : new String[] {"hardware/varnish-node", "hardware/booster-cpu-host"}) {
            Path file = write("hw.yaml", "name: x\nincludes: [" + profile + "]\nservers: [{engine: memory}]\n");
            Descriptor d = DescriptorLoader.load(file.toString(), false);
            assertThat(d.hardware().cores()).isIn(8, 32);
            assertThat(d.hardware().power().settings().get("source")).contains("assumed");
        }
    }

    @Test
    void builtinBoosterHttpHasReportBsRangesFetchesAndKernelLinks() {
        Descriptor ranges = DescriptorLoader.load("booster-http", false);
        assertThat(ranges.servers().get(0).engine()).isEqualTo(ServerBuild.NO_CACHE);
        assertThat(ranges.load().rangeSizes()).extracting(ByteSizeValue::bytes).containsExactly(1L << 20, 10L << 20, 100L << 20);
        assertThat(ranges.load().connections()).containsExactly(10, 100, 1000);
        assertThat(ranges.load().links()).extracting(Descriptor.Link::bitsPerSecond).containsExactly(1_000_000_000L, 10_000_000_000L);
        assertThat(ranges.load().links()).allSatisfy(l -> {
            assertThat(l.oneWayLatency()).hasMillis(40);
            assertThat(l.emulation()).isEqualTo("kernel");
            assertThat(l.fallback()).isTrue();
        });
        Descriptor fetch = DescriptorLoader.load("booster-http-fetch", false);
        assertThat(fetch.load().connections()).containsExactly(1, 8, 16, 32, 64);
        assertThat(fetch.load().rangeSizes()).extracting(ByteSizeValue::bytes).containsExactly(0L);
        assertThat(fetch.servers()).hasSameSizeAs(ranges.servers());
        // nginx-files is optional: without the peers module or nginx it is left out with a note
        assertThat(DescriptorLoader.load("booster-http-reduced", false).servers()).extracting(ServerBuild::name)
                .contains("no-cache", "memory").doesNotContain("raw-log", "raw-files", "lmdb");
        assertThat(DescriptorLoader.load("booster-http", true).servers()).hasSize(2);
    }

    @Test
    void aLinkIsKernelWithoutFallbackUnlessItSaysOtherwise() throws IOException {
        Path file = write("l.yaml", "name: x\nservers:\n  - engine: memory\nload:\n  links:\n    - {bandwidth: 1gbit, latency: 5ms}\n"
                + "    - {bandwidth: 1gbit, emulation: user-space}\n    - {latency: 5ms, fallback: user-space, buffer: 4MiB}\n");
        var links = DescriptorLoader.load(file.toString(), false).load().links();
        assertThat(links).extracting(Descriptor.Link::emulation).containsExactly("kernel", "user-space", "kernel");
        assertThat(links).extracting(Descriptor.Link::fallback).containsExactly(false, false, true);
        assertThat(links.get(2).bufferBytes()).isEqualTo(4L << 20);
    }

    @Test
    void anUnknownLinkEmulationOrFallbackNamesTheField() throws IOException {
        DescriptorException e = failure("name: x\nservers:\n  - engine: memory\nload:\n  links:\n    - {bandwidth: 1gbit, emulation: netem}\n");
        assertThat(e.field()).isEqualTo("load.links[0].emulation");
        assertThat(e.line()).isEqualTo(6);
        assertThat(e.getMessage()).contains("unknown link emulation 'netem'").contains("kernel", "user-space");
        DescriptorException f = failure("name: x\nservers:\n  - engine: memory\nload:\n  links:\n    - {bandwidth: 1gbit, fallback: yes}\n");
        assertThat(f.field()).isEqualTo("load.links[0].fallback");
        assertThat(f.getMessage()).contains("'user-space'");
    }

    @Test
    void noCacheBaselineTakesNoSettings() throws IOException {
        DescriptorException e = failure("name: x\nservers:\n  - engine: none\n    settings: {capacity: 1GB}\n");
        assertThat(e.field()).isEqualTo("servers[0].settings");
        assertThat(e.getMessage()).contains("takes no settings");
    }

    @Test
    void besidePeersEdgeLabsBuildsRunInAProcessOfTheirOwnUnlessTheDescriptorSaysOtherwise() throws IOException {
        String servers = "servers:\n  - {name: mine, engine: memory}\n"
                + "  - {name: peer, target: varnish, engine: malloc, optional: true}\n  - {name: other, target: process, engine: memory}\n";
        Descriptor beside = DescriptorLoader.load(write("b.yaml", "name: x\n" + servers).toString(), false);
        assertThat(beside.servers()).filteredOn(b -> b.name().equals("mine")).extracting(ServerBuild::target).containsExactly("process");
        assertThat(beside.notes()).anySatisfy(n -> assertThat(n).contains("'process' target").contains("target: embedded"));

        Descriptor asked = DescriptorLoader.load(write("e.yaml", "name: x\ntarget: embedded\n" + servers).toString(), false);
        assertThat(asked.servers()).filteredOn(b -> b.name().equals("mine")).extracting(ServerBuild::target).containsExactly("embedded");
        Descriptor flag = DescriptorLoader.load(write("f.yaml", "name: x\n" + servers).toString(), false, "embedded");
        assertThat(flag.servers()).filteredOn(b -> b.name().equals("mine")).extracting(ServerBuild::target).containsExactly("embedded");

        Descriptor alone = DescriptorLoader.load(write("a.yaml", "name: x\nservers: [{engine: memory}]\n").toString(), false);
        assertThat(alone.servers()).extracting(ServerBuild::target).containsExactly("embedded");
    }
}
