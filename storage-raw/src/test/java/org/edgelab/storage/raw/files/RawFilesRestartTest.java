package org.edgelab.storage.raw.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.edgelab.storage.eviction.EvictionPolicies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Restart, layout, zero-copy and settings behaviour of raw-files beyond the contract suite. */
class RawFilesRestartTest {

    @TempDir
    Path dir;

    private ObjectStore open(String... extra) throws Exception {
        PluginSettings s = PluginSettings.of("dir", dir.toString(), "capacity", "64MiB");
        for (int i = 0; i < extra.length; i += 2) {
            s = s.with(extra[i], extra[i + 1]);
        }
        return StorageEngines.open("raw-files", s);
    }

    private static long seed(int i) {
        return TestContent.seed("obj-" + i);
    }

    @Test
    void indexIsRebuiltAtOpenAndObjectsReadBackByteExact() throws Exception {
        int count = 300;
        try (ObjectStore store = open("sync", "data")) {
            for (int i = 0; i < count; i++) {
                StoreFixtures.put(store, CacheKey.of("obj-" + i), seed(i), 1 + (i * 9973L) % 200_000, 16_384);
            }
        }
        try (ObjectStore store = open("sync", "data")) {
            assertThat(store.usage().objectCount()).isEqualTo(count);
            assertThat(store.stats().extra()).containsEntry("rebuiltObjects", count);
            for (int i = 0; i < count; i++) {
                long size = 1 + (i * 9973L) % 200_000;
                try (StoredObject o = store.lookup(CacheKey.of("obj-" + i)).orElseThrow()) {
                    assertThat(o.metadata()).isEqualTo(StoreFixtures.metadata(size));
                    StoreFixtures.verifyRead(o, seed(i), 0, size, 65_536);
                }
            }
            assertThat(store.stats().extra()).containsEntry("bodyVerifications", (long) count);
            try (StoredObject o = store.lookup(CacheKey.of("obj-7")).orElseThrow()) {
                assertThat(o.availableLength()).isPositive();
            }
            assertThat(store.stats().extra()).as("a verified body is not verified again")
                    .containsEntry("bodyVerifications", (long) count);
        }
    }

    @Test
    void filesLiveUnderNginxStyleLevelsAndTheLevelsCannotChange() throws Exception {
        CacheKey k = CacheKey.of("http://example/a");
        try (ObjectStore store = open("levels", "1:2")) {
            StoreFixtures.put(store, k, 1, 1000, 1000);
        }
        String name = FileLayout.fileName(k);
        Path expected = dir.resolve(name.substring(31)).resolve(name.substring(29, 31)).resolve(name);
        assertThat(expected).isRegularFile();
        assertThat(Files.size(expected)).isEqualTo(ObjectFileHeader.lengthFor(k, StoreFixtures.metadata(1000)) + 1000L);
        assertThatThrownBy(() -> open("levels", "2")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("levels=1:2");
    }

    @Test
    void fileSlicesPointAtTheBodyInTheFile() throws Exception {
        CacheKey k = CacheKey.of("sliced");
        long size = 3_000_000;
        try (ObjectStore store = open()) {
            StoreFixtures.put(store, k, 42, size, 100_000);
        }
        try (ObjectStore store = open(); StoredObject o = store.lookup(k).orElseThrow()) {
            assertThat(StoreFixtures.verifyFileSlices(o, 42, 0, size, 1 << 20)).isTrue();
            Optional<FileSlice> tail = o.fileSlice(size - 10, 1000);
            assertThat(tail).get().extracting(FileSlice::length).isEqualTo(10L);
            assertThat(o.fileSlice(size, 10)).isEmpty();
        }
    }

    @Test
    void metadataUpdateThatOutgrowsTheHeaderRewritesTheObjectAndSurvivesRestart() throws Exception {
        CacheKey k = CacheKey.of("grown-headers");
        ObjectMetadata big = new ObjectMetadata(200,
                List.of(new HeaderField("X-Padding", "p".repeat(3000)), new HeaderField("ETag", "\"v2\"")),
                50_000, 1, 2, 3);
        try (ObjectStore store = open()) {
            StoreFixtures.put(store, k, 5, 50_000, 8192);
            assertThat(store.updateMetadata(k, big)).isTrue();
            try (StoredObject o = store.lookup(k).orElseThrow()) {
                assertThat(o.metadata()).isEqualTo(big);
                StoreFixtures.verifyRead(o, 5, 0, 50_000, 7000);
            }
            assertThat(store.usage().objectCount()).isEqualTo(1);
        }
        try (ObjectStore store = open(); StoredObject o = store.lookup(k).orElseThrow()) {
            assertThat(o.metadata()).isEqualTo(big);
            StoreFixtures.verifyRead(o, 5, 0, 50_000, 7000);
        }
    }

    @Test
    void finalMetadataLargerThanTheReservedHeaderIsCommitted() throws Exception {
        CacheKey k = CacheKey.of("trailer-headers");
        ObjectMetadata grown = new ObjectMetadata(200, List.of(new HeaderField("X-Late", "x".repeat(2000))),
                30_000, 1, 2, ObjectMetadata.NEVER);
        try (ObjectStore store = open()) {
            try (ObjectWriter w = store.begin(k, StoreFixtures.metadata(ObjectMetadata.UNKNOWN_LENGTH))) {
                StoreFixtures.writeBody(w, 9, 0, 30_000, 4096);
                w.commit(grown);
            }
            try (StoredObject o = store.lookup(k).orElseThrow()) {
                assertThat(o.metadata()).isEqualTo(grown);
                StoreFixtures.verifyRead(o, 9, 0, 30_000, 30_000);
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(p -> p.toString().endsWith(".tmp")).count()).as("temporary files left").isZero();
        }
    }

    @Test
    void everyRegisteredEvictionPolicyKeepsTheBudget() throws Exception {
        for (String policy : EvictionPolicies.registry().names()) {
            Path policyDir = dir.resolve(policy);
            try (ObjectStore store = StorageEngines.open("raw-files", PluginSettings.of("dir", policyDir.toString(),
                    "capacity", "2MiB", "policy", policy))) {
                for (int i = 0; i < 40; i++) {
                    StoreFixtures.put(store, CacheKey.of("p-" + i), seed(i), 100_000, 32_768);
                    if (i % 3 == 0) {
                        store.lookup(CacheKey.of("p-0")).ifPresent(StoredObject::close);
                    }
                    assertThat(store.usage().usedBytes()).as(policy).isLessThanOrEqualTo(2L << 20);
                }
                assertThat(store.stats().evictions()).as(policy).isPositive();
                assertThat(store.stats().extra()).containsEntry("policy", policy);
                try (StoredObject o = store.lookup(CacheKey.of("p-39")).orElseThrow()) {
                    StoreFixtures.verifyRead(o, seed(39), 0, 100_000, 65_536);
                }
            }
        }
    }

    @Test
    void aSecondStoreOnTheSameDirectoryIsRefused() throws Exception {
        try (ObjectStore store = open()) {
            assertThatThrownBy(this::open).hasMessageContaining("already open");
        }
    }

    @Test
    void badSettingsFailNamingTheSetting() {
        assertThatThrownBy(() -> open("sync", "sometimes")).hasMessageContaining("'sync'");
        assertThatThrownBy(() -> open("levels", "3:1")).hasMessageContaining("'levels'");
        assertThatThrownBy(() -> open("policy", "no-such-policy")).hasMessageContaining("no-such-policy");
        assertThatThrownBy(() -> open("capacity", "0")).hasMessageContaining("'capacity'");
        assertThatThrownBy(() -> StorageEngines.open("raw-files", PluginSettings.of("capacity", "1g")))
                .hasMessageContaining("'dir' is required");
        assertThatThrownBy(() -> open("colour", "blue")).hasMessageContaining("colour");
    }
}
