package org.edgelab.storage.raw.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index rebuild copes with a directory that changes under it. Regression: a lookup during the
 * scan dropped a misplaced file the scan had listed but not read yet; the scan then failed as a
 * whole with NoSuchFileException and every later write and {@code usage()} threw (seen once in
 * {@code RawFilesCorruptionTest}, by chance). The hook makes the file vanish every time.
 */
class IndexRebuilderTest {

    private static final long SIZE = 50_000;

    @TempDir
    Path dir;

    private FileLayout layout;

    @BeforeEach
    void writeObjects() throws IOException {
        layout = new FileLayout(dir, FileLayout.parseLevels("1:2"));
        try (ObjectStore store = StorageEngines.open("raw-files", PluginSettings.of("dir", dir.toString(), "capacity", "16MiB"))) {
            for (int i = 0; i < 20; i++) {
                StoreFixtures.put(store, CacheKey.of("k" + i), TestContent.seed("k" + i), SIZE, 16_384);
            }
        }
    }

    @Test
    void aFileThatVanishesBetweenListingAndReadingIsSkippedAndTheRestIsFound() throws IOException {
        Path gone = layout.pathOf(CacheKey.of("k7"));
        IndexRebuilder.Result result = new IndexRebuilder(layout, file -> {
            if (file.equals(gone)) {
                Files.delete(file);
            }
        }).scan(2);
        List<String> keys = result.found().stream().map(f -> f.header().key().toString()).toList();
        assertThat(keys).hasSize(19).doesNotContain("k7");
        assertThat(result.vanishedFiles()).isEqualTo(1);
        assertThat(result.corruptFilesDeleted()).isZero();
    }

    @Test
    void aDirectoryThatVanishesMidScanIsSkipped() throws IOException {
        Path first = layout.pathOf(CacheKey.of("k0"));
        Path other = layout.pathOf(CacheKey.of("k1")).getParent();
        IndexRebuilder.Result result = new IndexRebuilder(layout, file -> {
            if (file.equals(first) && !other.equals(first.getParent()) && Files.exists(other)) {
                try (var files = Files.list(other)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
                Files.delete(other);
            }
        }).scan(1);
        assertThat(result.found()).isNotEmpty().allSatisfy(f -> assertThat(f.path().getParent()).isNotEqualTo(other));
    }

    @Test
    void aStoreWhoseScanMetAVanishedFileStillWritesAndCounts() throws IOException {
        // the store-level symptom: usage() and begin() wait for the scan and threw once it had failed
        Files.move(layout.pathOf(CacheKey.of("k3")), layout.pathOf(CacheKey.of("k4")),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (ObjectStore store = StorageEngines.open("raw-files", PluginSettings.of("dir", dir.toString(), "capacity", "16MiB"))) {
            assertThat(store.lookup(CacheKey.of("k4"))).isEmpty();
            assertThat(store.usage().objectCount()).isEqualTo(18);
            StoreFixtures.put(store, CacheKey.of("new"), TestContent.seed("new"), SIZE, 16_384);
            assertThat(store.usage().objectCount()).isEqualTo(19);
        }
    }
}
