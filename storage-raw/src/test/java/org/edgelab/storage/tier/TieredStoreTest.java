package org.edgelab.storage.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each switch of the memory tier, seen through its stats. */
class TieredStoreTest {

    @TempDir
    Path dir;

    private TieredStore open(String... settings) throws IOException {
        PluginSettings s = PluginSettings.of("disk-engine", "raw-files", "disk.dir", dir.resolve("disk").toString(),
                "disk.capacity", "256MiB", "memory-capacity", "32MiB", "memory.chunk-size", "16k");
        for (int i = 0; i < settings.length; i += 2) {
            s = s.with(settings[i], settings[i + 1]);
        }
        return (TieredStore) StorageEngines.open("tiered", s);
    }

    private static long seed(String key) {
        return TestContent.seed(key);
    }

    private static void put(ObjectStore store, String key, long size) throws IOException {
        StoreFixtures.put(store, CacheKey.of(key), seed(key), size, 32_768);
    }

    /** Reads the whole object sequentially in reads of {@code chunk} bytes, verifying every byte. */
    private static void readAll(ObjectStore store, String key, long size, int chunk) throws IOException {
        try (StoredObject o = store.lookup(CacheKey.of(key)).orElseThrow()) {
            StoreFixtures.verifyRead(o, seed(key), 0, size, chunk);
        }
    }

    private static long stat(ObjectStore store, String name) {
        Object v = store.stats().extra().get(name);
        assertThat(v).as("stats extra '" + name + "'").isNotNull();
        return ((Number) v).longValue();
    }

    @Test
    void writesGoThroughToDiskAndIntoMemoryAndHitsComeFromMemory() throws Exception {
        try (TieredStore store = open()) {
            put(store, "a", 300_000);
            assertThat(stat(store, "writesToMemory")).isEqualTo(1);
            assertThat(stat(store, "disk.committedBytes")).isGreaterThanOrEqualTo(300_000);
            readAll(store, "a", 300_000, 65_536);
            assertThat(stat(store, "memoryHits")).isEqualTo(1);
            assertThat(stat(store, "diskHits")).isZero();
        }
        try (TieredStore store = open()) {
            readAll(store, "a", 300_000, 65_536);
            assertThat(stat(store, "diskHits")).as("after a restart the object comes from disk").isEqualTo(1);
            store.awaitPromotions();
            assertThat(stat(store, "promotions")).isEqualTo(1);
            readAll(store, "a", 300_000, 65_536);
            assertThat(stat(store, "memoryHits")).as("then from memory").isEqualTo(1);
        }
    }

    @Test
    void bypassAboveKeepsBigObjectsOutOfMemory() throws Exception {
        try (TieredStore store = open("bypass-above", "1MiB")) {
            put(store, "big", 3_000_000);
            put(store, "small", 100_000);
            assertThat(stat(store, "writesToMemory")).isEqualTo(1);
            assertThat(stat(store, "bypassedAbove")).isEqualTo(1);
            readAll(store, "big", 3_000_000, 65_536);
            readAll(store, "small", 100_000, 65_536);
            store.awaitPromotions();
            readAll(store, "big", 3_000_000, 65_536);
            assertThat(stat(store, "diskHits")).as("big is always read from disk").isEqualTo(2);
            assertThat(stat(store, "memoryHits")).isEqualTo(1);
            assertThat(stat(store, "promotions")).isZero();
            assertThat(stat(store, "memoryUsedBytes")).isLessThan(1_000_000);
        }
    }

    @Test
    void secondHitAdmissionTakesAnObjectInOnItsSecondAccess() throws Exception {
        try (TieredStore store = open()) {
            put(store, "once", 200_000);
            put(store, "twice", 200_000);
        }
        try (TieredStore store = open("admit", "second-hit")) {
            readAll(store, "twice", 200_000, 65_536);
            store.awaitPromotions();
            assertThat(stat(store, "admissionsDeferred")).isEqualTo(1);
            assertThat(stat(store, "memoryObjects")).isZero();
            readAll(store, "twice", 200_000, 65_536);
            store.awaitPromotions();
            assertThat(stat(store, "promotions")).isEqualTo(1);
            readAll(store, "twice", 200_000, 65_536);
            assertThat(stat(store, "memoryHits")).isEqualTo(1);
            readAll(store, "once", 200_000, 65_536);
            store.awaitPromotions();
            assertThat(stat(store, "memoryObjects")).as("'once' was seen once").isEqualTo(1);

            put(store, "written", 100_000);
            assertThat(stat(store, "writesToMemory")).as("a first write is not admitted").isZero();
            readAll(store, "written", 100_000, 65_536);
            store.awaitPromotions();
            assertThat(stat(store, "promotions")).as("the write counted as the first access").isEqualTo(2);
        }
    }

    @Test
    void sequentialReadersBypassMemoryButShortReadsPromote() throws Exception {
        try (TieredStore store = open()) {
            put(store, "movie", 4_000_000);
            put(store, "peeked", 4_000_000);
        }
        try (TieredStore store = open("bypass-sequential", "true", "sequential-after", "512KiB")) {
            readAll(store, "movie", 4_000_000, 65_536);
            store.awaitPromotions();
            assertThat(stat(store, "bypassedSequential")).isEqualTo(1);
            assertThat(stat(store, "promotions")).isZero();
            try (StoredObject o = store.lookup(CacheKey.of("peeked")).orElseThrow()) {
                StoreFixtures.verifyRead(o, seed("peeked"), 1_000_000, 100_000, 65_536);
            }
            store.awaitPromotions();
            assertThat(stat(store, "promotions")).as("a reader that never turned sequential promotes on close").isEqualTo(1);
            assertThat(stat(store, "memoryObjects")).isEqualTo(1);
        }
    }

    @Test
    void readAheadFillsMemoryAheadOfASequentialReader() throws Exception {
        long size = 6_000_000;
        try (TieredStore store = open()) {
            put(store, "stream", size);
        }
        try (TieredStore store = open("read-ahead", "1MiB", "sequential-after", "256KiB", "bypass-sequential", "true")) {
            try (StoredObject o = store.lookup(CacheKey.of("stream")).orElseThrow()) {
                StoreFixtures.verifyRead(o, seed("stream"), 0, 300_000, 50_000);
                assertThat(((TieredDiskObject) o).isSequential()).isTrue();
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (stat(store, "readAheadBytes") < 1_000_000 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertThat(stat(store, "readAheadBytes")).as("fetched ahead before the reader asked")
                        .isGreaterThanOrEqualTo(1_000_000);
                StoreFixtures.verifyRead(o, seed("stream"), 300_000, size - 300_000, 50_000);
                // a jump backwards restarts the window and still reads the right bytes
                StoreFixtures.verifyRead(o, seed("stream"), 10_000, 500_000, 40_000);
            }
            Map<String, Object> extra = store.stats().extra();
            assertThat((Long) extra.get("readAheadServedBytes")).isGreaterThanOrEqualTo(size - 300_000);
            assertThat((Long) extra.get("readAheadBytes")).isGreaterThanOrEqualTo(size - 300_000);
        }
    }

    @Test
    void aNewerWriteReplacesTheMemoryCopyAndAnUnadmittedOneDropsIt() throws Exception {
        try (TieredStore store = open("bypass-above", "150000")) {
            CacheKey k = CacheKey.of("versioned");
            long v1 = TestContent.seed("versioned", 1);
            long v2 = TestContent.seed("versioned", 2);
            StoreFixtures.put(store, k, v1, 100_000, 8192);
            StoreFixtures.put(store, k, v2, 200_000, 8192);
            try (StoredObject o = store.lookup(k).orElseThrow()) {
                assertThat(o.availableLength()).isEqualTo(200_000);
                StoreFixtures.verifyRead(o, v2, 0, 200_000, 65_536);
            }
            assertThat(stat(store, "memoryObjects")).as("the stale small copy was dropped").isZero();
        }
    }

    @Test
    void aMemoryCopyIsNotServedOnceTheDiskDroppedTheObject() throws Exception {
        try (TieredStore store = open("disk.capacity", "1MiB", "memory-capacity", "8MiB")) {
            for (int i = 0; i < 10; i++) {
                put(store, "k" + i, 200_000);
            }
            assertThat(stat(store, "memoryObjects")).isEqualTo(10);
            assertThat(store.lookup(CacheKey.of("k0"))).as("evicted from disk").isEmpty();
            assertThat(stat(store, "staleMemoryCopiesDropped")).isEqualTo(1);
            assertThat(stat(store, "memoryObjects")).isEqualTo(9);
        }
    }

    @Test
    void settingsArePassedThroughAndCheckedByName() throws Exception {
        assertThatThrownBy(() -> open("admit", "third-hit")).hasMessageContaining("'admit'");
        assertThatThrownBy(() -> open("disk.colour", "blue")).hasMessageContaining("disk.colour");
        assertThatThrownBy(() -> open("disk-engine", "no-such-engine")).hasMessageContaining("no-such-engine");
        assertThatThrownBy(() -> open("memory.capacity", "1m")).hasMessageContaining("memory-capacity");
        assertThatThrownBy(() -> open("read-ahead", "lots")).hasMessageContaining("'read-ahead'");
        try (TieredStore store = open("disk.levels", "2", "memory.policy", "lru")) {
            put(store, "x", 10);
            assertThat(store.stats().extra()).containsEntry("disk.levels", "2");
        }
        ByteBuffer unused = ByteBuffer.allocate(1);
        assertThat(unused.remaining()).isOne();
    }
}
