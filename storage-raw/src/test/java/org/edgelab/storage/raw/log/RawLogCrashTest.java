package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.CrashCheck;
import org.edgelab.storage.contract.CrashHarness;
import org.edgelab.storage.contract.CrashRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL in the middle of writes (a child JVM through {@link CrashHarness}), then reopen: every
 * object present is byte-exact, none is corrupt, and every committed object survives (the process
 * died, the page cache did not; with sync=commit this holds even for a machine crash). The
 * harness stops the child at half the 2 GiB capacity, so nothing is evicted during the run.
 */
class RawLogCrashTest {

    @TempDir
    Path work;

    private CrashCheck crashAndVerify(String sync, String checkpointInterval) throws Exception {
        PluginSettings settings = PluginSettings.of(
                "disks", work.resolve("d0") + "," + work.resolve("d1"),
                "capacity", "2g", "segment-size", "16m", "sync", sync, "checkpoint-interval", checkpointInterval);
        CrashRun run = CrashHarness.writeAndKill("raw-log", settings, Duration.ofMillis(1500), 1L << 30, work);
        assertThat(run.killed()).as("child killed by SIGKILL; its errors: %s", run.childErrors()).isTrue();
        assertThat(run.committedCount()).as("objects committed before the kill").isPositive();
        long committedBytes = run.committedBytes();
        assertThat(committedBytes).as("the run must not evict, or committed objects could be absent legitimately")
                .isLessThan(3L << 29);
        try (ObjectStore reopened = StorageEngines.open("raw-log", settings)) {
            CrashCheck check = CrashHarness.verify(reopened, run);
            System.out.printf("raw-log crash (sync=%s, checkpoint-interval=%s): %d committed (%d MiB) before SIGKILL;"
                            + " after reopen %s; %s%n", sync, checkpointInterval, run.committedCount(),
                    committedBytes >> 20, check, reopened.stats().extra().get("recovery"));
            assertThat(check.corruptDetected()).as("corrupt objects after the crash").isZero();
            assertThat(check.committedButAbsent()).as("committed objects lost: %s", check.committedButAbsentKeys())
                    .isZero();
            assertThat(check.present()).isGreaterThanOrEqualTo(run.committedCount());
            return check;
        }
    }

    @Test
    void sigkillWithSyncCommitLosesNoCommittedObject() throws Exception {
        crashAndVerify("commit", "0");
    }

    @Test
    void sigkillWithDefaultSyncAndPeriodicCheckpointsLosesNoCommittedObject() throws Exception {
        crashAndVerify("none", "200ms");
    }
}
