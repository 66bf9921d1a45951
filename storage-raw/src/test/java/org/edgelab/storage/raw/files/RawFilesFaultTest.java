package org.edgelab.storage.raw.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.contract.DamagedFileScenario;
import org.edgelab.storage.contract.FullDiskScenario;
import org.edgelab.storage.contract.ScratchMount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * raw-files under real faults: a full file system (a 64 MiB tmpfs under a 256 MB store, mounted by
 * the test as root; skipped without root unless EDGELAB_REQUIRE_ROOT=1) and bytes flipped in an
 * object file while the store is stopped.
 */
class RawFilesFaultTest {

    private static final FullDiskScenario FULL_DISK = new FullDiskScenario(RawFilesEngine.NAME,
            (dir, capacity) -> PluginSettings.of("dir", dir.toString(), "capacity", Long.toString(capacity)));

    @Test
    void aFullFileSystemRefusesWritesCleanlyAndKeepsEveryObject() throws Exception {
        try (ScratchMount fs = ScratchMount.tmpfs(FullDiskScenario.FILE_SYSTEM);
             ObjectStore store = FULL_DISK.open(fs.dir().resolve("store"))) {
            FullDiskScenario.Outcome outcome = FULL_DISK.fill(store, fs);
            System.out.println("raw-files on a full file system: " + outcome + ", " + store.stats().extra());
            assertThat((Long) store.stats().extra().get("fileSystemFullRefusals")).isPositive();
            assertThat(store.usage().objectCount()).isEqualTo(outcome.committed() + 1);
        }
    }

    @Test
    void afterASigkillOnAFullFileSystemEveryCommittedObjectIsBack(@TempDir Path work) throws Exception {
        try (ScratchMount fs = ScratchMount.tmpfs(FullDiskScenario.FILE_SYSTEM)) {
            System.out.println("raw-files, SIGKILL on a full file system: " + FULL_DISK.killWhileFullAndRestart(fs, work));
        }
    }

    @Test
    void aDamagedObjectIsAMissOnItsFirstLookupAfterARestart(@TempDir Path dir) throws Exception {
        DamagedFileScenario.run(d -> RawFilesStore.open(d, 64L << 20, "lru", SyncMode.NONE, "1:2"), dir);
    }
}
