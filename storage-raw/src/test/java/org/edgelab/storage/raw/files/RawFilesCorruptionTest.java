package org.edgelab.storage.raw.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged files on disk are dropped, never served; leftovers are cleaned at open. */
class RawFilesCorruptionTest {

    private static final long SIZE = 200_000;

    @TempDir
    Path dir;

    private final CacheKey victim = CacheKey.of("victim");
    private final CacheKey bystander = CacheKey.of("bystander");

    private ObjectStore open() throws IOException {
        return StorageEngines.open("raw-files", PluginSettings.of("dir", dir.toString(), "capacity", "16MiB"));
    }

    @BeforeEach
    void writeTwoObjects() throws IOException {
        try (ObjectStore store = open()) {
            StoreFixtures.put(store, victim, TestContent.seed("victim"), SIZE, 32_768);
            StoreFixtures.put(store, bystander, TestContent.seed("bystander"), SIZE, 32_768);
        }
    }

    private Path fileOf(CacheKey key) {
        return new FileLayout(dir, FileLayout.parseLevels("1:2")).pathOf(key);
    }

    private void overwrite(Path file, long position, byte[] garbage) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(garbage), position);
        }
    }

    private void assertBystanderIntact(ObjectStore store) throws IOException {
        try (StoredObject o = store.lookup(bystander).orElseThrow()) {
            StoreFixtures.verifyRead(o, TestContent.seed("bystander"), 0, SIZE, 65_536);
        }
    }

    @Test
    void garbageInTheBodyIsDetectedOnFirstLookupAndTheFileDropped() throws IOException {
        Path file = fileOf(victim);
        overwrite(file, Files.size(file) - 5000, new byte[] {1, 2, 3, 4, 5, 6, 7});
        try (ObjectStore store = open()) {
            assertThat(store.usage().objectCount()).as("the header is intact: indexed at open").isEqualTo(2);
            assertThat(store.lookup(victim)).isEmpty();
            assertThat(store.stats().corruptObjectsDropped()).isEqualTo(1);
            assertThat(file).doesNotExist();
            assertThat(store.lookup(victim)).isEmpty();
            assertThat(store.usage().objectCount()).isEqualTo(1);
            assertBystanderIntact(store);
        }
    }

    @Test
    void garbageInTheHeaderDropsTheFileAtOpen() throws IOException {
        Path file = fileOf(victim);
        overwrite(file, 40, "garbage".getBytes());
        try (ObjectStore store = open()) {
            assertThat(store.usage().objectCount()).as("usage waits for the scan at open").isEqualTo(1);
            assertThat(store.lookup(victim)).isEmpty();
            assertThat(store.stats().extra()).containsEntry("damagedFilesDeletedAtOpen", 1L);
            assertThat(file).doesNotExist();
            assertBystanderIntact(store);
        }
    }

    @Test
    void aTruncatedFileIsDroppedAtOpen() throws IOException {
        Path file = fileOf(victim);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 1);
        }
        try (ObjectStore store = open()) {
            assertThat(store.usage().objectCount()).isEqualTo(1);
            assertThat(store.lookup(victim)).isEmpty();
            assertThat(store.stats().extra()).containsEntry("damagedFilesDeletedAtOpen", 1L);
            assertBystanderIntact(store);
        }
    }

    @Test
    void aDamagedFileIsNotServedEvenBeforeTheScanAtOpenReachesIt() throws IOException {
        Path file = fileOf(victim);
        overwrite(file, 40, "garbage".getBytes());
        try (ObjectStore store = open()) {
            assertThat(store.lookup(victim)).as("found by the scan or by the lookup's probe: dropped either way").isEmpty();
            assertBystanderIntact(store);
            assertThat(store.usage().objectCount()).isEqualTo(1);
            assertThat(file).doesNotExist();
        }
    }

    @Test
    void aFileTruncatedWhileOpenIsNotServed() throws IOException {
        try (ObjectStore store = open()) {
            store.usage();
            try (FileChannel ch = FileChannel.open(fileOf(victim), StandardOpenOption.WRITE)) {
                ch.truncate(1000);
            }
            assertThat(store.lookup(victim)).isEmpty();
            assertThat(store.stats().corruptObjectsDropped()).isEqualTo(1);
            assertBystanderIntact(store);
        }
    }

    @Test
    void strayTemporaryFilesAreDeletedAndUnknownFilesLeftAlone() throws IOException {
        Path leftover = FileLayout.tempPathFor(fileOf(victim), 12345);
        Files.write(leftover, new byte[4096]);
        Path unknown = dir.resolve("README.txt");
        Files.writeString(unknown, "not ours");
        try (ObjectStore store = open()) {
            assertThat(store.usage().objectCount()).isEqualTo(2);
            assertThat(leftover).doesNotExist();
            assertThat(unknown).exists();
            assertThat(store.stats().extra()).containsEntry("tempFilesDeletedAtOpen", 1L);
            assertThat(store.usage().objectCount()).isEqualTo(2);
            try (StoredObject o = store.lookup(victim).orElseThrow()) {
                StoreFixtures.verifyRead(o, TestContent.seed("victim"), 0, SIZE, 65_536);
            }
        }
    }

    @Test
    void aFileMovedUnderAnotherNameIsDropped() throws IOException {
        Path file = fileOf(victim);
        Path other = fileOf(bystander);
        Files.move(file, other, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (ObjectStore store = open()) {
            assertThat(store.lookup(victim)).isEmpty();
            assertThat(store.lookup(bystander)).isEmpty();
            assertThat(store.usage().objectCount()).isZero();
        }
    }
}
