package org.edgelab.storage.raw.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.edgelab.storage.api.EngineSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.CrashCheck;
import org.edgelab.storage.contract.CrashHarness;
import org.edgelab.storage.contract.CrashRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A child JVM writing through raw-files is killed with SIGKILL; the reopened store serves only whole objects. */
class RawFilesCrashTest {

    @TempDir
    Path work;

    @Test
    void everyCommittedObjectSurvivesASigkillByteExactAndNothingCorruptIsServed() throws Exception {
        Path cacheDir = work.resolve("cache");
        EngineSettings settings = EngineSettings.of("dir", cacheDir.toString(), "capacity", "1GiB");
        CrashRun run = CrashHarness.writeAndKill("raw-files", settings, Duration.ofMillis(1500), work.resolve("run"));
        assertThat(run.killed()).as("child was killed by SIGKILL").isTrue();
        assertThat(run.committedCount()).as("objects committed before the kill").isPositive();
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
