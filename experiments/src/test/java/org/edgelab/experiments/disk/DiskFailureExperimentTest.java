package org.edgelab.experiments.disk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.runner.DescriptorFixture;
import org.edgelab.experiments.runner.ResultRow;
import org.edgelab.experiments.runner.ResultsCsv;
import org.edgelab.experiments.runner.RunResult;
import org.edgelab.experiments.runner.SeriesCsv;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.storage.contract.ScratchMount;
import org.edgelab.storage.disk.ScratchFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk-failure kind end to end on the embedded target, on real loop devices (root; skipped with the reason
 * without it, failing instead with EDGELAB_REQUIRE_ROOT=1): raw-log over two ext4 disks, one shut down under load
 * and healed, then each build on a file system smaller than its store; every mount and loop device is gone after.
 */
class DiskFailureExperimentTest {

    @TempDir
    Path dir;

    @Test
    void settingsThatCannotMakeTheEventAreRefusedWithTheirPlace() throws Exception {
        String base = """
                name: bad-disk-failure
                kind: disk-failure
                includes: [hardware/local]
                settings: {%s}
                servers:
                  - {name: raw-log, engine: raw-log, settings: {disks: "${store}", capacity: 48MB}}
                load: {duration: 6s, workload: {object_sizes: [100KB], working_set: 8MB}}
                matrix: [server]
                """;
        assertThatThrownBy(() -> DescriptorFixture.load(dir, "bad.yaml", base.formatted("fail_disk: 2"))).hasMessageContaining("bad.yaml:4")
                .hasMessageContaining("fail_disk: must name one of the 2 disks");
        assertThatThrownBy(() -> DescriptorFixture.load(dir, "bad.yaml", base.formatted("fail_at: 4s, heal_at: 3s"))).hasMessageContaining("heal_at: must be after fail_at");
        assertThatThrownBy(() -> DescriptorFixture.load(dir, "bad.yaml", base.formatted("fail_at: 6s"))).hasMessageContaining("before the end of load.duration");
        assertThatThrownBy(() -> DescriptorFixture.load(dir, "bad.yaml", base.formatted("phases: crash"))).hasMessageContaining("unknown phase 'crash'");
        assertThatThrownBy(() -> DescriptorFixture.load(dir, "bad.yaml", base.formatted("fail_at: 2s, heal_at: 4s, full_fs_size: 64MiB, full_working_set: 32MB"))).hasMessageContaining("so that the file system fills");
        assertThat(DescriptorFixture.load(dir, "bad.yaml", base.formatted("phases: full-fs, fail_at: 60s")).kind()).as("fail_at matters only to the disk-failure phase")
                .isEqualTo("disk-failure");
    }

    @Test
    void theBuiltInsLoadFullAndQuick() throws Exception {
        for (boolean quick : new boolean[] {false, true}) {
            Descriptor d = DescriptorLoader.load("disk-failure", quick);
            assertThat(d.kind()).isEqualTo("disk-failure");
            assertThat(d.servers()).extracting(ServerBuild::name).contains("raw-log", "tiered", "raw-files", "lmdb");
            assertThat(d.servers().stream().filter(b -> DiskFailureExperiment.disksSetting(b).isPresent()))
                    .extracting(ServerBuild::name).containsExactly("raw-log", "tiered");
        }
    }

    @Test
    void aDiskShutDownUnderLoadCostsItsObjectsButNoResponseAndAFullFileSystemLosesNothing() throws Exception {
        ScratchMount.require(ScratchFileSystems.loopUnavailableReason());
        // raw-log takes a healed disk back by re-opening and forcing each of its segment files: 2 MiB segments make
        // 12 a disk rather than the auto 64 (whose take-back took 2.5-3.5 s of the 5-s bound), and a 0.25-s probe
        // finds the disk sooner, so the load ends 3 s after the heal instead of 5 s (the seconds before and after
        // the failure, whose rates carry_on_s compares, are as many as before). The full file systems hold
        // 14 MiB of the 24 MB set, so each build still fills its own and passes the rest through.
        RunResult result = DescriptorFixture.run(dir, "tiny-disk-failure.yaml", """
                name: tiny-disk-failure
                kind: disk-failure
                includes: [hardware/local]
                settings: {disks: 2, disk_size: 32MiB, fail_at: 3s, heal_at: 5s, full_fs_size: 16MiB,
                           full_working_set: 24MB, full_duration: 60s}
                servers:
                  - {name: raw-log, engine: raw-log, settings: {disks: "${store}", capacity: 48MB, segment-size: 2MiB,
                                                                disk-probe-interval: 250ms}}
                  - {name: raw-files, engine: raw-files, settings: {dir: "${store}", capacity: 48MB}}
                  - {name: lmdb, engine: lmdb, settings: {path: "${store}", capacity: 48MB, sync: nometasync}}
                load:
                  connections: 4
                  threads: 1
                  duration: 8s
                  timeout: 10s
                  workload: {object_sizes: [100KB], working_set: 8MB, popularity: uniform, target_hit_ratio: 0.9}
                matrix: [server]
                """, System.out);

        assertThat(result.complete()).isTrue();
        List<ResultRow> rows = ResultsCsv.read(result.directory().resolve("results.csv"));
        assertThat(rows).extracting(r -> r.get("cell") + " " + r.get("phase"))
                .containsExactly("server=raw-log disk-failure", "server=raw-log full-fs", "server=raw-files full-fs",
                        "server=lmdb full-fs");

        ResultRow failure = rows.get(0);
        assertThat(failure.get("file_systems")).isEqualTo("2 x ext4 on loop devices of 32 MiB");
        // In about 2 of 5 runs before 2026-12-01's fix one response had a wrong byte here: bytes sent with sendfile
        // from a segment that was reused before the client read them (RawLogSentBytesTest).
        assertThat(failure.measured("errors_integrity")).as("every byte the clients read was right").isZero();
        assertThat(failure.measured("errors_status_5xx")).as("its objects become misses, not errors").isZero();
        assertThat(failure.get("failed_disk_state")).isIn("FAILING", "OFFLINE");
        assertThat(failure.measured("objects_lost_with_disk")).as("the objects on the failed disk").isPositive();
        assertThat(failure.measured("failed_disk_share")).isBetween(0.05, 0.95);
        assertThat(failure.measured("hit_ratio_before")).isGreaterThan(0.5);
        // Once (CI, 2026-12-07, at 1,609 req/s with 2 responses cut at the failure) no second after the failure reached
        // 90 % of the rate before it; the seconds are in the message, so that a failure says which way it went.
        List<String> series = Files.readAllLines(result.directory().resolve("series.csv"));
        List<String> failureSeconds = series.stream().filter(line -> line.contains(",disk-failure,")).toList();
        assertThat(failure.get("carry_on_s")).as("the load carried on on the other disk: a second after the failure (%s) with"
                        + " req/s at least 90 %% of the %s before it and no error; the client's seconds:%n%s", failure.get("fault"),
                failure.get("req_per_s_before"), String.join("\n", failureSeconds)).isNotEmpty();
        assertThat(failure.get("disk_healed")).isEqualTo("yes");
        assertThat(failure.get("disk_back")).as("the running store took the healed disk back").isEqualTo("true");
        assertThat(failure.measured("heal_to_online_s")).as("seconds from the mount to ONLINE").isBetween(0.0, 5.0);
        assertThat(failure.measured("heal_to_first_store_s")).as("seconds from the mount to an object stored on it")
                .isBetween(failure.measured("heal_to_online_s"), 5.0);
        assertThat(failure.measured("disks_online_at_end")).isGreaterThanOrEqualTo(1.0);

        for (ResultRow full : rows.subList(1, 4)) {
            assertThat(full.measured("errors")).as("%s: a full file system loses no response", full.get("cell")).isZero();
            assertThat(full.measured("stored_objects_lost")).as("%s: nor a stored object", full.get("cell")).isZero();
            assertThat(full.measured("objects_stored_max")).isPositive();
            assertThat(full.measured("store_pass_throughs")).as("%s: the objects it could not store were passed through",
                    full.get("cell")).isPositive();
            assertThat(full.measured("disks_online_at_end")).isEqualTo(1.0);
        }

        assertThat(series.get(0)).as("written through SeriesCsv, as restart and churn write theirs")
                .isEqualTo(String.join(",", SeriesCsv.COLUMNS));
        for (String event : List.of("disk-fails", "disk-heals", "disk-mounted", "disk-online", "disk-first-store")) {
            assertThat(series).anyMatch(l -> l.startsWith("server=raw-log,1,disk-failure,") && l.endsWith("," + event));
        }
        assertThat(series).as("loadgen's seconds of the phase, no event on them")
                .anyMatch(l -> l.startsWith("server=raw-log,1,disk-failure,") && l.endsWith(","));
        assertThat(series).anyMatch(l -> l.startsWith("server=lmdb,1,full-fs,"));

        String self = ScratchFileSystems.PREFIX + ProcessHandle.current().pid() + "-";
        assertThat(Files.readString(Path.of("/proc/self/mounts"))).as("every mount removed").doesNotContain(self);
        try (var loops = Files.list(Path.of("/sys/block"))) {
            for (Path loop : (Iterable<Path>) loops::iterator) {
                Path backing = loop.resolve("loop/backing_file");
                if (Files.isReadable(backing)) {
                    assertThat(Files.readString(backing)).as("loop device %s detached", loop).doesNotContain(self);
                }
            }
        }
    }
}
