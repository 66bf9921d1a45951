package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.contract.DamagedFileScenario;
import org.edgelab.storage.contract.FullDiskScenario;
import org.edgelab.storage.contract.ScratchMount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * raw-log under real faults: a full file system (a 64 MiB tmpfs, or ext4 on a loop device, under a 256 MB store, mounted by
 * the test as root; skipped without root unless EDGELAB_REQUIRE_ROOT=1) and bytes flipped in a
 * segment file while the store is stopped.
 */
class RawLogFaultTest {

    private static final FullDiskScenario FULL_DISK = new FullDiskScenario(RawLogEngine.NAME,
            (dir, capacity) -> PluginSettings.of("disks", dir.toString(), "capacity", Long.toString(capacity)));

    /** On a tmpfs and on ext4 over a loop device (block allocation and a journal, as on a real disk). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tmpfs", "ext4"})
    void aFullFileSystemRefusesWritesAndKeepsItsDiskOnlineAndEveryObject(String kind) throws Exception {
        try (ScratchMount fs = kind.equals("tmpfs") ? ScratchMount.tmpfs(FullDiskScenario.FILE_SYSTEM)
                : ScratchMount.loopExt4(FullDiskScenario.FILE_SYSTEM);
             ObjectStore store = FULL_DISK.open(fs.dir().resolve("store"))) {
            FullDiskScenario.Outcome outcome = FULL_DISK.fill(store, fs);
            System.out.println("raw-log on a full " + kind + ": " + outcome + ", " + store.stats().extra());
            assertThat(store.stats().extra())
                    .containsEntry("disk.0.state", "ONLINE")
                    .containsEntry("objectsLostToDiskFailure", 0L);
            assertThat((Long) store.stats().extra().get("fileSystemFullRefusals")).isPositive();
            assertThat(store.usage().objectCount()).isEqualTo(outcome.committed() + 1);
        }
    }

    @Test
    void afterASigkillOnAFullFileSystemEveryCommittedObjectIsBack(@TempDir Path work) throws Exception {
        try (ScratchMount fs = ScratchMount.tmpfs(FullDiskScenario.FILE_SYSTEM)) {
            System.out.println("raw-log, SIGKILL on a full file system: " + FULL_DISK.killWhileFullAndRestart(fs, work));
        }
    }

    @Test
    void aDamagedObjectIsAMissOnItsFirstLookupAfterARestart(@TempDir Path dir) throws Exception {
        RawLogConfig config = RawLogFixtures.config(dir, 1, 64L << 20, 1L << 20, RawLogConfig.Policy.FIFO);
        DamagedFileScenario.run(d -> RawLogFixtures.open(config), dir);
    }
}
