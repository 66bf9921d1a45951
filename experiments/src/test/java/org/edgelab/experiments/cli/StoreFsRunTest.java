package org.edgelab.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.edgelab.storage.contract.ScratchMount;
import org.edgelab.storage.disk.ScratchFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code edgelab run --store-fs SIZE}: the stores of the run live on a fresh ext4 on a loop device that the run makes and
 * removes (root; skipped with the reason without it, failing instead with EDGELAB_REQUIRE_ROOT=1).
 */
class StoreFsRunTest {

    @TempDir
    Path dir;

    private static int execute(StringWriter out, String... args) {
        CommandLine cli = new CommandLine(new RunCommand());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(out));
        return cli.execute(args);
    }

    @Test
    void aRunsStoresLiveOnItsOwnLoopDeviceWhichIsGoneAfterTheRun() throws Exception {
        ScratchMount.require(ScratchFileSystems.loopUnavailableReason());
        Path file = dir.resolve("fs.yaml");
        Files.writeString(file, """
                name: fs
                includes: [hardware/local]
                servers: [{engine: raw-files, settings: {dir: "${store}", capacity: 16MB}}]
                load: {connections: 2, duration: 500ms, workload: {object_sizes: 4KB, working_set: 64KB, target_hit_ratio: 0.5}}
                """);
        StringWriter out = new StringWriter();
        int status = execute(out, file.toString(), "--target", "embedded", "--out", dir.resolve("r").toString(),
                "--store-fs", "64MiB");
        assertThat(status).as(out.toString()).isZero();
        Path run;
        try (Stream<Path> runs = Files.list(dir.resolve("r").resolve("fs"))) {
            run = runs.findFirst().orElseThrow();
        }
        JsonNode cell = new ObjectMapper().readTree(run.resolve("manifest.json").toFile()).path("cells").get(0);
        assertThat(cell.path("memory").path("diskstats_device").asText()).as("the cell's device I/O is the loop device's")
                .startsWith("loop");
        String mine = ScratchFileSystems.PREFIX + ProcessHandle.current().pid() + "-";
        assertThat(Files.readAllLines(Path.of("/proc/self/mounts"))).as("no scratch mount of this run is left")
                .noneMatch(line -> line.contains(mine));
    }

    @Test
    void storeDirAndStoreFsTogetherAreRefused() {
        StringWriter out = new StringWriter();
        assertThat(execute(out, "varnish-edge", "--store-dir", dir.toString(), "--store-fs", "1GiB")).isEqualTo(2);
        assertThat(out.toString()).contains("--store-dir and --store-fs");
    }
}
