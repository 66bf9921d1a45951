package org.edgelab.storage.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.CrashCheck;
import org.edgelab.storage.contract.CrashHarness;
import org.edgelab.storage.contract.CrashRun;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIGKILL mid-write, twice on one directory, then reopen: every object present is byte-exact, and
 * every object whose commit returned is present (a killed process loses nothing LMDB committed,
 * whatever the sync mode: committed pages are in the page cache).
 */
class LmdbCrashTest {

    // The harness stops the child at a quarter of it, so the run never evicts; the LMDB map is sparse, so the
    // file only grows by what is written.
    private static final long CAPACITY = 4L << 30;

    @ParameterizedTest(name = "sync={0}")
    @ValueSource(strings = {"full", "nosync"})
    void committedObjectsSurviveSigkillByteExact(String sync, @TempDir Path work) throws Exception {
        Path storeDir = work.resolve("store");
        PluginSettings settings = PluginSettings.of(
                "path", storeDir.toString(),
                "capacity", Long.toString(CAPACITY),
                "chunk-size", "64KiB",
                "sync", sync);
        int rounds = sync.equals("full") ? 2 : 1; // the second round also recovers what the first kill left
        for (int round = 0; round < rounds; round++) {
            CrashRun run = CrashHarness.writeAndKill("lmdb", settings, Duration.ofMillis(1200), CAPACITY / 4,
                    work.resolve("run-" + round));
            assertThat(run.killed()).as("child killed by SIGKILL; its errors: %s", run.childErrors()).isTrue();
            assertThat(run.committedCount()).as("objects committed before the kill").isPositive();
            long committedBytes = run.committedBytes();
            assertThat(committedBytes).as("the run must not evict, or committed objects could be absent legitimately")
                    .isLessThan(CAPACITY / 2);
            try (ObjectStore reopened = StorageEngines.open("lmdb", settings)) {
                CrashCheck check = CrashHarness.verify(reopened, run);
                assertThat(check.corruptDetected()).as("objects found damaged").isZero();
                assertThat(check.committedButAbsentKeys()).as("committed objects lost").isEmpty();
                assertThat(check.present()).isGreaterThanOrEqualTo(run.committedCount());
            }
        }
    }
}
