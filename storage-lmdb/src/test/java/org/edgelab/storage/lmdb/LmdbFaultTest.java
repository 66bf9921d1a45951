package org.edgelab.storage.lmdb;

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
 * lmdb under real faults: a full file system (a 64 MiB tmpfs under a 256 MB store, mounted by the
 * test as root; skipped without root unless EDGELAB_REQUIRE_ROOT=1) and bytes flipped inside an
 * object in {@code data.mdb} while the store is stopped.
 */
class LmdbFaultTest {

    private static final FullDiskScenario FULL_DISK = new FullDiskScenario(LmdbEngine.NAME,
            (dir, capacity) -> PluginSettings.of("path", dir.toString(), "capacity", Long.toString(capacity),
                    "sync", "nosync"));

    @Test
    void aFullFileSystemRefusesWritesCleanlyAndFollowersGetEveryByteWrittenBeforeIt() throws Exception {
        try (ScratchMount fs = ScratchMount.tmpfs(FullDiskScenario.FILE_SYSTEM);
             ObjectStore store = FULL_DISK.open(fs.dir().resolve("store"))) {
            FullDiskScenario.Outcome outcome = FULL_DISK.fill(store, fs);
            System.out.println("lmdb on a full file system: " + outcome + ", " + store.stats().extra());
            assertThat((Long) store.stats().extra().get("fileSystemFullRefusals")).isPositive();
            assertThat(store.stats().corruptObjectsDropped()).as("no follower took a failed write for damage").isZero();
        }
    }

    @Test
    void afterASigkillOnAFullFileSystemEveryCommittedObjectIsBack(@TempDir Path work) throws Exception {
        try (ScratchMount fs = ScratchMount.tmpfs(FullDiskScenario.FILE_SYSTEM)) {
            System.out.println("lmdb, SIGKILL on a full file system: " + FULL_DISK.killWhileFullAndRestart(fs, work));
        }
    }

    @Test
    void aDamagedObjectIsAMissOnItsFirstLookupAfterARestartAndNoWrongByteIsServed(@TempDir Path dir) throws Exception {
        Path damaged = DamagedFileScenario.run(d -> LmdbStore.open(new LmdbSettings(d, 64L << 20, 32L << 20,
                LmdbSettings.DEFAULT_CHUNK_SIZE, "lru", SyncMode.NOSYNC, 16)), dir);
        assertThat(damaged.getFileName().toString()).isEqualTo(LmdbStore.DATA_FILE);
    }
}
