package org.edgelab.storage.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.edgelab.storage.contract.StoreFixtures.put;

import java.nio.ByteBuffer;
import java.util.Optional;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.UnknownPluginException;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;

/** What the memory engine promises beyond the contract: settings, pooled chunks, views, eviction order. */
class MemoryStoreTest {

    private static final int CHUNK = 64 * 1024;

    private static ObjectStore open(String... settings) throws Exception {
        return StorageEngines.open("memory", PluginSettings.of(settings));
    }

    private static CacheKey key(String k) {
        return CacheKey.of(k);
    }

    private static void putChunks(ObjectStore s, String k, int chunks) throws Exception {
        put(s, key(k), TestContent.seed(k), (long) chunks * CHUNK, CHUNK);
    }

    private static long stat(ObjectStore s, String name) {
        return ((Number) s.stats().extra().get(name)).longValue();
    }

    @Test
    void defaultsAllocateNothingUpFront() throws Exception {
        try (ObjectStore s = open()) {
            assertThat(s.usage().capacityBytes()).isEqualTo(256L << 20);
            assertThat(s.usage().usedBytes()).isZero();
            assertThat(stat(s, "allocatedChunkBytes")).isZero();
            assertThat(stat(s, "chunkSizeBytes")).isEqualTo(CHUNK);
            assertThat(s.stats().extra()).containsEntry("policy", "lru");
        }
    }

    @Test
    void badSettingsFailNamingTheSetting() {
        assertThatThrownBy(() -> open("chunk-size", "0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'chunk-size'");
        assertThatThrownBy(() -> open("chunk-size", "2g")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'chunk-size'");
        assertThatThrownBy(() -> open("capacity", "10k")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'capacity'").hasMessageContaining("at least one chunk");
        assertThatThrownBy(() -> open("capacity", "10 MX")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'capacity'").hasMessageContaining("'10 MX'");
        assertThatThrownBy(() -> open("policy", "clock")).isInstanceOf(UnknownPluginException.class)
                .hasMessageContaining("'clock'").hasMessageContaining("lru");
    }

    @Test
    void usageCountsWholeChunks() throws Exception {
        try (ObjectStore s = open("capacity", "1m")) {
            put(s, key("one-byte"), 1, 1, 1);
            assertThat(s.usage().usedBytes()).isEqualTo(CHUNK);
            put(s, key("a-chunk-and-a-byte"), 2, CHUNK + 1, 4096);
            assertThat(s.usage().usedBytes()).isEqualTo(3L * CHUNK);
            assertThat(s.usage().objectCount()).isEqualTo(2);
        }
    }

    @Test
    void chunksArePooledAndRecycledNotAllocatedPerWrite() throws Exception {
        try (ObjectStore s = open("capacity", "1m")) {
            for (int i = 0; i < 100; i++) {
                put(s, key("o" + i), i, 3L * CHUNK + 5, 10_000);
                assertThat(stat(s, "allocatedChunkBytes")).isLessThanOrEqualTo(1L << 20);
            }
            assertThat(stat(s, "allocatedChunkBytes")).isEqualTo(1L << 20);
            assertThat(s.stats().evictions()).isPositive();
            for (int i = 0; i < 100; i++) {
                s.remove(key("o" + i));
            }
            assertThat(s.usage().usedBytes()).isZero();
            assertThat(stat(s, "freeChunkBytes")).isEqualTo(1L << 20);
        }
    }

    @Test
    void viewsAreReadOnlyOffHeapSlicesOfOneChunk() throws Exception {
        try (ObjectStore s = open("capacity", "1m")) {
            put(s, key("v"), 9, 3L * CHUNK, 30_000);
            try (StoredObject o = s.lookup(key("v")).orElseThrow()) {
                ByteBuffer v = o.view(CHUNK - 10, 1000).orElseThrow();
                assertThat(v.isDirect()).isTrue();
                assertThat(v.isReadOnly()).isTrue();
                assertThat(v.remaining()).as("a view ends at its chunk's end").isEqualTo(10);
                TestContent.assertMatches("view", 9, CHUNK - 10, v);
                assertThat(o.view(3L * CHUNK, 10)).isEmpty();
            }
        }
    }

    @Test
    void lruSkipsPinnedObjectsAndKeepsThemStored() throws Exception {
        try (ObjectStore s = open("capacity", "256k")) {
            putChunks(s, "a", 1);
            putChunks(s, "b", 1);
            putChunks(s, "c", 1);
            putChunks(s, "d", 1);
            try (StoredObject pinned = s.lookup(key("a")).orElseThrow()) {
                s.lookup(key("b")).orElseThrow().close(); // b is now more recent than c and d
                putChunks(s, "e", 1);
                assertThat(s.lookup(key("a"))).as("pinned, skipped by eviction").isPresent().get()
                        .satisfies(StoredObject::close);
                assertThat(s.lookup(key("c"))).as("least recently used unpinned").isEmpty();
                assertThat(s.lookup(key("b"))).isPresent().get().satisfies(StoredObject::close);
                assertThat(pinned.availableLength()).isEqualTo(CHUNK);
            }
        }
    }

    @Test
    void fifoPolicyIgnoresReads() throws Exception {
        try (ObjectStore s = open("capacity", "256k", "policy", "fifo")) {
            putChunks(s, "a", 1);
            putChunks(s, "b", 1);
            putChunks(s, "c", 1);
            putChunks(s, "d", 1);
            s.lookup(key("a")).orElseThrow().close();
            putChunks(s, "e", 1);
            Optional<StoredObject> a = s.lookup(key("a"));
            assertThat(a).as("first in, first out despite the read").isEmpty();
            assertThat(s.stats().extra()).containsEntry("policy", "fifo");
        }
    }

    @Test
    void abortFromAnotherThreadWhileWritingFreesEverythingOnce() throws Exception {
        try (ObjectStore s = open("capacity", "4m", "chunk-size", "4k")) {
            for (int round = 0; round < 20; round++) {
                org.edgelab.storage.api.ObjectWriter w = s.begin(key("racing"), StoreFixtures.metadata(-1));
                StoredObject follower = w.follow();
                Thread writer = new Thread(() -> {
                    ByteBuffer chunk = ByteBuffer.allocate(10_000);
                    try {
                        for (long pos = 0; pos < (3L << 20); pos += chunk.capacity()) {
                            chunk.clear();
                            TestContent.fill(7, pos, chunk);
                            w.write(chunk.flip());
                        }
                    } catch (IllegalStateException | java.io.IOException aborted) {
                        // the abort won the race
                    }
                });
                writer.start();
                follower.awaitLength(1 + round * 50_000L).get(10, java.util.concurrent.TimeUnit.SECONDS);
                w.abort();
                writer.join();
                long written = follower.availableLength();
                StoreFixtures.verifyRead(follower, 7, 0, written, 64 * 1024);
                assertThatThrownBy(() -> follower.read(written, ByteBuffer.allocate(10)))
                        .isInstanceOf(org.edgelab.storage.api.WriteAbortedException.class);
                assertThat(s.usage().usedBytes()).as("the follower still pins the aborted chunks").isPositive();
                follower.close();
                assertThat(s.usage().usedBytes()).isZero();
                assertThat(s.lookup(key("racing"))).isEmpty();
            }
            assertThat(stat(s, "freeChunkBytes")).isEqualTo(stat(s, "allocatedChunkBytes"));
        }
    }

    /**
     * A capacity beyond the JVM's direct memory limit opens (a store refuses objects past the limit, it does not fail)
     * but says so: a warning at open, and {@code capacityFitsDirectMemory} false in its stats.
     */
    @Test
    void aCapacityBeyondTheDirectMemoryLimitIsShownInTheStats() throws Exception {
        long limit = MemoryEngine.directMemoryLimit();
        assertThat(limit).isPositive();
        try (ObjectStore fits = StorageEngines.open("memory", PluginSettings.of("capacity", "1m"));
             ObjectStore beyond = StorageEngines.open("memory",
                     PluginSettings.of("capacity", Long.toString(limit + (1L << 30))))) {
            assertThat(fits.stats().extra()).containsEntry("capacityFitsDirectMemory", true)
                    .containsEntry("directMemoryLimitBytes", limit);
            assertThat(beyond.stats().extra()).containsEntry("capacityFitsDirectMemory", false);
        }
    }
}
