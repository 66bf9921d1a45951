package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.process.cgroup.CgroupRequirement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: with its data larger than its memory, a disk engine read several times more from the device than
 * it served, because the kernel read ahead into pages that memory pressure evicted before anyone asked for them
 * (raw-log 2.96 and lmdb 173 device bytes per byte served in a 320 MiB cgroup over 1.2 GB, Varnish {@code file}
 * 0.82; 2026-12-01). Each engine runs here for real in the process target under a memory cgroup, over a set of
 * 1 MB objects several times what its page cache can hold, every request a hit, and must read from the device at
 * most {@link #BOUND} bytes per body byte served (the store's {@code read-ahead=off} default).
 */
class ReadAmplificationBoundTest {

    /**
     * Device bytes read per body byte served. Measured here on 2026-12-01 (2 loaded cores): with read-ahead off
     * raw-log 0.62 and lmdb 0.70 (some hits find their pages cached; nothing reads ahead, so it cannot pass ~1.0);
     * with {@code read-ahead=kernel}, the engines' old behaviour, raw-log 1.74 and lmdb 8.9, failing this bound.
     */
    private static final double BOUND = 1.2;
    private static final long LIMIT = 256L << 20;

    @TempDir
    Path dir;

    @Test
    void diskEnginesLargerThanMemoryReadFromTheDeviceAboutWhatTheyServe() throws IOException {
        CgroupRequirement.require();
        Path file = dir.resolve("larger-than-memory.yaml");
        Files.writeString(file, """
                name: read-amplification
                target: process
                repetitions: 1
                servers:
                  - name: raw-log
                    engine: raw-log
                    settings: {disks: "${store}", capacity: 800MB}
                    target_settings: {heap: 64m, io_threads: 4, memory: %1$d}
                  - name: lmdb
                    engine: lmdb
                    settings: {path: "${store}", capacity: 800MB, map-size: 1200MB, sync: nosync}
                    target_settings: {heap: 64m, io_threads: 4, memory: %1$d}
                load:
                  connections: 8
                  threads: 1
                  duration: 60s
                  requests: 600
                  timeout: 30s
                  workload:
                    object_sizes: [1MB]
                    working_set: 400MB
                    max_objects: 400
                    popularity: uniform
                    target_hit_ratio: 1.0
                matrix: [server]
                """.formatted(LIMIT));
        RunResult result = ExperimentRunner.run(DescriptorLoader.load(file.toString(), false),
                RunOptions.defaults().withOutputRoot(dir.resolve("results")).withProgress(null));

        assertThat(result.complete()).isTrue();
        List<ResultRow> rows = result.rows();
        assertThat(rows).hasSize(2);
        for (ResultRow row : rows) {
            System.out.printf("%s: %.3f device bytes read per byte served (%.0f read, %.0f served), %.0f req/s%n",
                    row.get("server"), row.measured("read_amplification"), row.measured("device_read_bytes"),
                    row.measured("server_bytes_to_clients"), row.measured("req_per_s"));
        }
        for (ResultRow row : rows) {
            String server = row.get("server");
            // 600 requests of 1 MB (60 s only the cap): a 3-s run on a loaded machine served less than the
            // 256 MiB its memory holds, so the set fit in what it had read and the bound measured nothing
            assertThat(row.measured("requests")).as(server).isEqualTo(600);
            assertThat(row.measured("memory_limit_bytes")).as(server).isEqualTo(LIMIT);
            assertThat(row.measured("server_bytes_to_clients")).as(server + ": served more than its memory holds")
                    .isGreaterThan(LIMIT);
            assertThat(row.measured("device_read_bytes")).as(server + ": the set does not fit, so hits read the device")
                    .isPositive();
            assertThat(row.measured("read_amplification")).as(server + ": device bytes read per byte served")
                    .isLessThanOrEqualTo(BOUND);
        }
    }
}
