package org.edgelab.storage.raw.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.CrashCheck;
import org.edgelab.storage.contract.CrashHarness;
import org.edgelab.storage.contract.CrashRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM writing through raw-files is killed with SIGKILL; the reopened store serves only whole
 * objects and keeps every committed one. The child commits at most half the capacity before the kill
 * (the harness's budget): without it, a fast machine wrote more than the capacity in the 1.5 s window,
 * the store evicted its oldest objects, and the test read them as lost commits.
 */
class RawFilesCrashTest {

    /** Twice the harness's commit budget: the child's writes never make the store evict. */
    private static final long CAPACITY = 1L << 30;

    @TempDir
    Path work;

    @Test
    void everyCommittedObjectSurvivesASigkillByteExactAndNothingCorruptIsServed() throws Exception {
        Path cacheDir = work.resolve("cache");
        PluginSettings settings = PluginSettings.of("dir", cacheDir.toString(), "capacity", Long.toString(CAPACITY));
        CrashRun run = CrashHarness.writeAndKill("raw-files", settings, Duration.ofMillis(1500), CAPACITY / 2,
                work.resolve("run"));
        assertThat(run.killed()).as("child was killed by SIGKILL").isTrue();
        assertThat(run.committedCount()).as("objects committed before the kill").isPositive();
        assertThat(run.committedBytes()).as("the run must not evict, or committed objects could be absent legitimately")
                .isLessThan(CAPACITY * 3 / 4);
        try (ObjectStore reopened = StorageEngines.open("raw-files", settings)) {
            CrashCheck check = CrashHarness.verify(reopened, run);
            assertThat(check.corruptDetected()).as("corrupt objects served").isZero();
            assertThat(check.committedButAbsent()).as("objects whose commit returned but are gone").isZero();
        }
        try (Stream<Path> files = Files.walk(cacheDir)) {
            assertThat(files.filter(p -> p.toString().endsWith(".tmp")).count()).as("temp files after reopen").isZero();
        }
    }
}
