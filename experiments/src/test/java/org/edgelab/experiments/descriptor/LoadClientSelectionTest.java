package org.edgelab.experiments.descriptor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.edgelab.experiments.client.ClientChoice;
import org.edgelab.experiments.descriptor.yaml.DescriptorException;
import org.edgelab.experiments.descriptor.yaml.DescriptorFiles;
import org.edgelab.experiments.matrix.MatrixExpander;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A descriptor's {@code load.client}: a name or a list that fans out; what a client cannot send fails at load
 * with file:line and the field; a client whose tool is missing is left out with a note. Needs no wrk: every
 * check here runs before anything starts.
 */
class LoadClientSelectionTest {

    private static final String BASE = "name: x\nservers: [{engine: memory}]\n";

    @TempDir
    Path dir;

    private Descriptor load(String text) throws IOException {
        return new DescriptorFiles(dir).load("clients.yaml", text);
    }

    private DescriptorException failure(String text) throws IOException {
        return new DescriptorFiles(dir).failure("clients.yaml", text);
    }

    @Test
    void loadgenIsTheDefaultAndAListOfClientsIsAMatrixDimension() throws IOException {
        assertThat(load(BASE).load().clients()).containsExactly(ClientChoice.LOADGEN);
        // wrk's binary given as a stand-in that exists on every machine: a wrk the machine lacks would be left out
        Path wrk = Files.writeString(dir.resolve("wrk"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(wrk, PosixFilePermissions.fromString("rwxr-xr-x"));
        Descriptor two = load(BASE + """
                load:
                  client: [loadgen, {kind: wrk, name: wrk-hits, settings: {x_cache: true, binary: %s}}]
                matrix: [server, client]
                """.formatted(wrk));
        assertThat(two.load().clients()).extracting(ClientChoice::name).containsExactly("loadgen", "wrk-hits");
        assertThat(two.load().clients().get(1).settings()).containsEntry("x_cache", "true");
        assertThat(MatrixExpander.expand(two)).extracting(c -> c.id())
                .containsExactly("server=memory,client=loadgen", "server=memory,client=wrk-hits");
        DescriptorException notInMatrix = failure(BASE + "load: {client: [loadgen, wrk]}\nmatrix: [server]\n");
        assertThat(notInMatrix.field()).isEqualTo("load.client");
        assertThat(notInMatrix.getMessage()).contains("'client' is not in matrix");
    }

    @Test
    void anUnknownClientOrSettingListsTheKnownOnes() throws IOException {
        DescriptorException unknown = failure(BASE + "load:\n  client: curl\n");
        assertThat(unknown.line()).isEqualTo(4);
        assertThat(unknown.getMessage()).contains("unknown load client 'curl'").contains("loadgen, wrk, wrk2");
        DescriptorException setting = failure(BASE + "load:\n  client:\n    - kind: wrk\n      settings: {script: my.lua}\n");
        assertThat(setting.field()).isEqualTo("load.client[0].settings.script");
        assertThat(setting.getMessage()).contains("has no setting 'script'").contains("binary, x_cache");
        DescriptorException field = failure(BASE + "load:\n  client: [{kind: wrk, rate: 10}]\n");
        assertThat(field.getMessage()).contains("unknown field 'rate'").contains("kind, name, settings");
        assertThat(failure(BASE + "load:\n  client: [wrk, wrk]\nmatrix: [server, client]\n").getMessage())
                .contains("two load clients are named 'wrk'");
    }

    @Test
    void wrkRefusesWhatItCannotSend() throws IOException {
        DescriptorException rate = failure(BASE + "load:\n  client: wrk\n  rate: 1000\n");
        assertThat(rate.field()).isEqualTo("load.rate");
        assertThat(rate.line()).isEqualTo(5);
        assertThat(rate.getMessage()).contains("wrk runs closed loop").contains("wrk2");
        assertThat(failure(BASE + "load:\n  client: wrk\n  links: [{bandwidth: 1gbit, emulation: user-space}]\n").getMessage())
                .contains("wrk cannot emulate a user-space link");
        assertThat(failure(BASE + "load:\n  client: wrk\n  links: [{bandwidth: 1gbit, fallback: user-space}]\n").getMessage())
                .contains("wrk cannot emulate a user-space link").contains("nor one a kernel link may fall back to");
        assertThat(failure(BASE + "load:\n  client: wrk\n  workload: {kind: video}\n").getMessage())
                .contains("objects workload only");
        assertThat(failure(BASE + "load:\n  client: wrk\n  duration: 1500ms\n").getMessage())
                .contains("wrk takes whole seconds");
        assertThat(failure(BASE + "load:\n  client: wrk\n  connections: 10\n  threads: 3\n").getMessage())
                .contains("connections (10) must be a multiple of threads (3)");
    }

    @Test
    void wrk2NeedsOneFixedRateAndSaysWhereItIsMissing() throws IOException {
        DescriptorException none = failure(BASE + "load:\n  client: wrk2\n");
        assertThat(none.line()).isEqualTo(4);
        assertThat(none.getMessage()).contains("load.rate").contains("fixed rate");
        assertThat(failure(BASE + "load:\n  client: wrk2\n  rate: 100..1000\n").getMessage())
                .contains("one fixed rate, a whole number");
    }

    @Test
    void aClientWhoseToolIsMissingIsSkippedWithANoteAndAloneItFails() throws IOException {
        Descriptor d = load(BASE + """
                load:
                  client: [loadgen, {kind: wrk2, settings: {binary: /nonexistent/wrk2}}]
                  rate: 100
                matrix: [server, client]
                """);
        assertThat(d.load().clients()).containsExactly(ClientChoice.LOADGEN);
        assertThat(d.notes()).singleElement().asString().contains("load client 'wrk2' skipped")
                .contains("/nonexistent/wrk2 not found").contains("github.com/giltene/wrk2");
        // whether the descriptor is valid does not depend on what this machine has: two clients need the dimension
        assertThat(failure(BASE + "load:\n  client: [loadgen, {kind: wrk, settings: {binary: /nonexistent/wrk}}]\nmatrix: [server]\n")
                .getMessage()).contains("'client' is not in matrix");
        DescriptorException alone = failure(BASE + "load:\n  client: {kind: wrk, settings: {binary: /nonexistent/wrk}}\n");
        assertThat(alone.getMessage()).contains("no load client can run here").contains("apt-get install wrk");
    }

    @Test
    void theVideoStreamsExperimentDrivesLoadgenOnly() throws IOException {
        DescriptorException e = failure("""
                name: x
                kind: video-streams
                servers: [{engine: memory}]
                load:
                  client: wrk
                  workload: {kind: video}
                matrix: [server]
                """);
        assertThat(e.getMessage()).contains("objects workload only");
    }
}
