package org.edgelab.storage.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
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

    /**
     * A batch fails on the full file system before anyone follows the write, and the writer has not
     * learnt of it yet (it does at its next call): a follower that comes now is still owed every
     * published byte. The failed chunk's buffer used to be recycled at once, so such a follower met
     * "aborted" below the published length; in the cache, whose pass-through tail starts at what the
     * store took, that cuts a 200 MISS short.
     */
    @Test
    void aFollowerComingAfterABatchFailedOnAFullFileSystemStillReadsEveryPublishedByte() throws Exception {
        try (ScratchMount fs = ScratchMount.tmpfs(8L << 20);
             ObjectStore store = FULL_DISK.open(fs.dir().resolve("store"))) {
            CacheKey marker = CacheKey.of("marker");
            StoreFixtures.put(store, marker, TestContent.seed(marker.value()), 1024, 1024);
            try (FileChannel filler = FileChannel.open(fs.dir().resolve("filler"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                ByteBuffer block = ByteBuffer.allocate(64 * 1024);
                try {
                    while (true) {
                        filler.write(block.clear());
                    }
                } catch (IOException full) {
                    // the file system is full now
                }
            }
            CacheKey k = CacheKey.of("refused-unfollowed");
            long seed = TestContent.seed(k.value());
            try (ObjectWriter w = store.begin(k, StoreFixtures.metadata(1L << 20))) {
                for (long pos = 0; pos < 300_000; pos += 50_000) {
                    w.write(TestContent.chunk(seed, pos, 50_000)); // the first 256 KiB chunk goes to the writer thread
                }
                try {
                    store.remove(marker); // a later batch: once it is done, the chunk's batch has failed
                } catch (IOException alsoRefused) {
                    // as well
                }
                assertThat((Long) store.stats().extra().get("fileSystemFullRefusals")).as("the chunk's batch failed")
                        .isPositive();
                try (StoredObject follower = w.follow()) {
                    assertThat(follower.availableLength()).isEqualTo(300_000);
                    StoreFixtures.verifyRead(follower, seed, 0, follower.availableLength(), 64 * 1024);
                }
            }
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
