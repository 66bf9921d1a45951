package org.edgelab.storage.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.edgelab.storage.contract.StoreFixtures.metadata;
import static org.edgelab.storage.contract.StoreFixtures.put;
import static org.edgelab.storage.contract.StoreFixtures.verifyRead;
import static org.edgelab.storage.contract.StoreFixtures.verifyViews;
import static org.edgelab.storage.contract.StoreFixtures.writeBody;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.UnknownPluginException;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.Txn;

/** LMDB-specific behaviour: settings, restart and recovery, a full map, damaged or missing files. */
class LmdbStoreTest {

    @TempDir
    Path dir;

    private ObjectStore open(String... extra) throws IOException {
        PluginSettings s = PluginSettings.of("path", dir.toString()).withAll(PluginSettings.of(extra));
        return StorageEngines.open("lmdb", s);
    }

    private static long seed(CacheKey k) {
        return TestContent.seed(k.value());
    }

    private static void assertReadsBack(ObjectStore store, CacheKey k, long size) throws IOException {
        try (StoredObject o = store.lookup(k).orElseThrow(() -> new AssertionError(k + " is absent"))) {
            assertThat(o.isComplete()).isTrue();
            assertThat(o.availableLength()).isEqualTo(size);
            verifyRead(o, seed(k), 0, size, 100_000);
            assertThat(o.read(size, ByteBuffer.allocate(1))).isEqualTo(-1);
        }
    }

    @Test
    void opensByNameWithOnlyPathAndCapacityOrMapSize() throws IOException {
        try (ObjectStore s = open("capacity", "30MiB")) {
            assertThat(s.engineName()).isEqualTo("lmdb");
            assertThat(s.usage().capacityBytes()).isEqualTo(30L << 20);
            assertThat(s.stats().extra()).containsEntry("mapSizeBytes", 40L << 20).containsEntry("syncMode", "full");
        }
        try (ObjectStore s = open("map-size", "64MiB")) {
            assertThat(s.usage().capacityBytes()).isEqualTo(48L << 20);
            assertThat(s.stats().extra()).containsEntry("chunkPayloadBytes", 256 * 1024 - 16 - Layout.CHUNK_TRAILER_BYTES);
        }
    }

    @Test
    void badSettingsFailNamingTheSetting() {
        assertThatThrownBy(() -> StorageEngines.open("lmdb", PluginSettings.of("capacity", "1g")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'path'");
        assertThatThrownBy(() -> open("sync", "sometimes"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sync").hasMessageContaining("nosync");
        assertThatThrownBy(() -> open("chunk-size", "100"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunk-size");
        assertThatThrownBy(() -> open("policy", "no-such-policy"))
                .isInstanceOf(UnknownPluginException.class).hasMessageContaining("lru");
        assertThatThrownBy(() -> open("colour", "blue"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("colour").hasMessageContaining("map-size");
        assertThatThrownBy(() -> open("map-size", "100KB"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("map-size");
    }

    @Test
    void restartKeepsObjectsIncludingHashedLongKeysAndDeletesChunksOfUnfinishedWrites() throws IOException {
        CacheKey small = CacheKey.of("small");
        CacheKey big = CacheKey.of("big");
        CacheKey longKey = CacheKey.of("https://example.com/" + "x".repeat(1500) + "?q=é");
        CacheKey unfinished = CacheKey.of("unfinished");
        ObjectStore first = open("capacity", "64MiB", "chunk-size", "16KiB");
        ObjectWriter w;
        try {
            put(first, small, seed(small), 10, 10);
            put(first, big, seed(big), 1_000_000, 70_000);
            put(first, longKey, seed(longKey), 50_000, 4096);
            // A write left open when the store closes: its chunks reach LMDB but no record does.
            w = first.begin(unfinished, metadata(ObjectMetadata.UNKNOWN_LENGTH));
            writeBody(w, seed(unfinished), 0, 200_000, 65_536);
        } finally {
            first.close();
        }
        w.close();
        try (ObjectStore s = open("capacity", "64MiB", "chunk-size", "64KiB")) {
            assertReadsBack(s, small, 10);
            assertReadsBack(s, big, 1_000_000);
            assertReadsBack(s, longKey, 50_000);
            assertThat(s.lookup(unfinished)).isEmpty();
            assertThat(s.usage().objectCount()).isEqualTo(3);
            assertThat((Long) s.stats().extra().get("orphanChunksDeletedAtOpen")).isPositive();
            // Objects written with the old chunk size and the new one live side by side.
            CacheKey fresh = CacheKey.of("fresh");
            put(s, fresh, seed(fresh), 300_000, 65_536);
            assertReadsBack(s, fresh, 300_000);
        }
        try (ObjectStore s = open("capacity", "64MiB")) {
            assertThat(s.usage().objectCount()).isEqualTo(4);
            assertThat(s.stats().extra()).containsEntry("orphanChunksDeletedAtOpen", 0L);
        }
    }

    @Test
    void capacityAboveTheMapIsCutToTheMapAndEvictionKeepsWritesGoing() throws IOException {
        try (ObjectStore s = open("map-size", "4MiB", "capacity", "1GiB", "chunk-size", "64KiB")) {
            long budget = s.usage().capacityBytes();
            assertThat(budget).isLessThanOrEqualTo(3L << 20);
            List<CacheKey> keys = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                CacheKey k = CacheKey.of("obj-" + i);
                put(s, k, seed(k), 200_000 + i * 1000L, 65_536);
                keys.add(k);
                assertThat(s.usage().usedBytes()).isLessThanOrEqualTo(budget);
            }
            assertThat(s.stats().evictions()).isPositive();
            assertReadsBack(s, keys.get(59), 259_000);
            CacheKey huge = CacheKey.of("huge");
            assertThatThrownBy(() -> put(s, huge, seed(huge), 5L << 20, 65_536))
                    .isInstanceOf(StorageFullException.class).hasMessageContaining("budget");
            CacheKey after = CacheKey.of("after");
            put(s, after, seed(after), 500_000, 65_536);
            assertReadsBack(s, after, 500_000);
        }
    }

    /**
     * A follower's read that spans two chunks of a write in progress, where the writer thread
     * commits the second chunk (and so takes it out of its buffer) after the read's transaction
     * for the first one began: that transaction does not see it. Such a read used to fail as if
     * the write were aborted; in the cache, a MISS then stopped mid-body, waiting for a
     * pass-through tail that a healthy fill never hands over.
     */
    @Test
    void aReadSpanningAChunkCommittedDuringTheReadGetsEveryByte() throws Exception {
        readAcrossAChunkCommittedMidRead(false);
    }

    /** The same, where the object's own commit comes in between: the miss made the store drop a good object as damaged. */
    @Test
    void aReadSpanningAChunkCommittedWithTheObjectDuringTheReadGetsEveryByte() throws Exception {
        readAcrossAChunkCommittedMidRead(true);
    }

    private void readAcrossAChunkCommittedMidRead(boolean commitObject) throws Exception {
        int chunk = 64 * 1024;
        LmdbSettings settings = new LmdbSettings(dir, 64L << 20, 32L << 20, chunk, "lru", SyncMode.NOSYNC, 16);
        try (LmdbStore s = LmdbStore.open(settings)) {
            CacheKey key = CacheKey.of("spanning");
            long seed = seed(key);
            int size = 2 * chunk + 10;
            try (ObjectWriter w = s.begin(key, metadata(size))) {
                writeBody(w, seed, 0, chunk + chunk / 2, 8192); // chunk 0 queued, chunk 1 half in its buffer
                CacheKey barrier = CacheKey.of("barrier-0");
                put(s, barrier, seed(barrier), 100, 100); // its commit waits for the batch holding chunk 0
                try (StoredObject follower = w.follow()) {
                    int[] calls = {0};
                    s.beforeNextChunk(() -> {
                        if (calls[0]++ > 0) {
                            return;
                        }
                        try {
                            // After chunk 0 was read in a transaction: chunk 1 fills, and its batch commits.
                            writeBody(w, seed, chunk + chunk / 2, size, 8192);
                            if (commitObject) {
                                w.commit();
                            } else {
                                CacheKey b = CacheKey.of("barrier-1");
                                put(s, b, seed(b), 100, 100);
                            }
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
                    ByteBuffer dst = ByteBuffer.allocate(64);
                    int n;
                    try {
                        n = follower.read(chunk - 32, dst);
                    } finally {
                        s.beforeNextChunk(null);
                    }
                    assertThat(calls[0]).as("the read spanned the chunks").isEqualTo(1);
                    assertThat(n).isEqualTo(64);
                    TestContent.assertMatches("the read across chunks 0 and 1", seed, chunk - 32, dst.flip());
                    verifyRead(follower, seed, 0, size, 8192);
                }
                if (!commitObject) {
                    w.commit();
                }
            }
            assertThat(s.stats().corruptObjectsDropped()).as("no good object taken for damage").isZero();
            try (StoredObject o = s.lookup(key).orElseThrow()) {
                verifyRead(o, seed, 0, size, 8192);
            }
        }
    }

    @Test
    void aFullMapEvictsAndRetriesOrRefusesCleanly() throws Exception {
        // A budget above the map (which settings never allow) makes LMDB itself report MDB_MAP_FULL.
        LmdbSettings settings = new LmdbSettings(dir, 4L << 20, 64L << 20, 64 * 1024, "lru", SyncMode.NOSYNC, 16);
        try (LmdbStore s = LmdbStore.open(settings, 64L << 20)) {
            List<CacheKey> committed = new ArrayList<>();
            int refused = 0;
            for (int i = 0; i < 40; i++) {
                CacheKey k = CacheKey.of("m-" + i);
                try {
                    put(s, k, seed(k), 300_000, 65_536);
                    committed.add(k);
                } catch (StorageFullException e) {
                    refused++;
                }
            }
            assertThat((Long) s.stats().extra().get("mapFullRetries")).as("MDB_MAP_FULL met").isPositive();
            assertThat(committed.size()).as("writes committed after evicting (%d refused)", refused).isGreaterThan(20);
            assertReadsBack(s, committed.get(committed.size() - 1), 300_000);
            // A reader pinning the only object left, and a write too big for the map: refused, not crashed.
            CacheKey pinnedKey = committed.get(committed.size() - 1);
            try (StoredObject pinned = s.lookup(pinnedKey).orElseThrow()) {
                CacheKey tooBig = CacheKey.of("too-big");
                assertThatThrownBy(() -> put(s, tooBig, seed(tooBig), 6L << 20, 65_536))
                        .isInstanceOf(StorageFullException.class).hasMessageContaining("map");
                assertThat(s.lookup(tooBig)).isEmpty();
                verifyRead(pinned, seed(pinnedKey), 0, 300_000, 65_536);
            }
            CacheKey after = CacheKey.of("after");
            try {
                put(s, after, seed(after), 300_000, 65_536);
            } catch (StorageFullException e) {
                // the refusal is made on the writer thread: say where this thread was and what the store held
                throw new AssertionError("'after' was refused once the reader let go; stats " + s.stats(), e);
            }
            assertReadsBack(s, after, 300_000);
        }
    }

    /**
     * The cause of the occasional "'after' was refused" above: when the deletions that emptied the
     * map are the last transaction to commit (there, the refused write's chunks and the pinned
     * object's chunks landed in one when the writer thread fell behind), LMDB may not reuse their
     * pages in the very next transaction, and with nothing left to evict the write was refused.
     * Here that order is forced: a 4 MiB map with 1 MiB chunks, one per transaction, filled to its
     * end by a write that is refused; its chunks are deleted alone, and the next write needs them.
     */
    @Test
    void aWriteThatNeedsThePagesTheLastCommitFreedIsAcceptedInAnEmptiedMap() throws Exception {
        LmdbSettings settings = new LmdbSettings(dir, 4L << 20, 64L << 20, 1 << 20, "lru", SyncMode.NOSYNC, 1);
        try (LmdbStore s = LmdbStore.open(settings, 64L << 20)) {
            int payload = (Integer) s.stats().extra().get("chunkPayloadBytes");
            CacheKey filler = CacheKey.of("filler");
            // Three chunks fit; the fourth finds fewer free pages at the end of the map than it needs.
            assertThatThrownBy(() -> put(s, filler, seed(filler), 6L * payload, 65_536))
                    .isInstanceOf(StorageFullException.class).hasMessageContaining("map");
            assertThat(s.lookup(filler)).isEmpty();
            // The abort queues the deletion of its chunks; wait (reading only) until it committed.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while ((Long) s.stats().extra().get("lmdbPagesInUseBytes") > payload) {
                assertThat(System.nanoTime()).as("the refused write's chunks are deleted").isLessThan(deadline);
                Thread.sleep(5);
            }
            CacheKey after = CacheKey.of("after");
            try {
                put(s, after, seed(after), payload, 65_536);
            } catch (StorageFullException e) {
                throw new AssertionError("a one-chunk write was refused by an empty store; stats " + s.stats(), e);
            }
            assertReadsBack(s, after, payload);
            assertThat(s.stats().evictions()).as("nothing was there to evict").isZero();
        }
    }

    @Test
    void damagedDataFileFailsToOpenWithAClearError() throws IOException {
        try (ObjectStore s = open("capacity", "16MiB")) {
            CacheKey k = CacheKey.of("k");
            put(s, k, seed(k), 100_000, 65_536);
        }
        try (FileChannel ch = FileChannel.open(dir.resolve("data.mdb"), StandardOpenOption.WRITE)) {
            ByteBuffer garbage = ByteBuffer.allocate(8192);
            for (int i = 0; i < garbage.capacity(); i++) {
                garbage.put((byte) (i * 31 + 7));
            }
            ch.write(garbage.flip(), 0);
        }
        assertThatThrownBy(() -> open("capacity", "16MiB"))
                .isInstanceOf(CorruptObjectException.class)
                .hasMessageContaining("damaged").hasMessageContaining("delete the store's directory");
    }

    @Test
    void missingDataFileOrAFileAsPathFailsWithAClearError() throws IOException {
        try (ObjectStore s = open("capacity", "16MiB")) {
            CacheKey k = CacheKey.of("k");
            put(s, k, seed(k), 1000, 1000);
        }
        Files.delete(dir.resolve("data.mdb"));
        assertThatThrownBy(() -> open("capacity", "16MiB"))
                .isInstanceOf(StorageException.class).hasMessageContaining("data.mdb").hasMessageContaining("missing");
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        assertThatThrownBy(() -> StorageEngines.open("lmdb", PluginSettings.of("path", file.toString())))
                .isInstanceOf(StorageException.class).hasMessageContaining("is a file");
    }

    @Test
    void budgetEstimateMatchesTheMapPagesActuallyInUse() throws IOException {
        try (ObjectStore s = open("capacity", "256MiB", "sync", "nosync")) {
            Random r = new Random(11);
            for (int i = 0; i < 60; i++) {
                CacheKey k = CacheKey.of("est-" + i);
                put(s, k, seed(k), i % 10 == 0 ? r.nextInt(2000) : r.nextInt(1_500_000), 65_536);
            }
            long estimated = s.usage().usedBytes();
            long measured = (Long) s.stats().extra().get("lmdbPagesInUseBytes");
            System.out.println("budget estimate " + estimated + " B, LMDB pages in use " + measured + " B");
            // Within a few pages (the B-trees' roots and branch pages) below, and 5 % above.
            assertThat(estimated).as("estimate %d against pages in use %d", estimated, measured)
                    .isGreaterThanOrEqualTo(measured - 16 * 4096)
                    .isLessThanOrEqualTo(measured + measured / 20);
        }
    }

    @Test
    void damagedRecordsAndMissingChunksAreDroppedAtOpen() throws IOException {
        CacheKey good = CacheKey.of("good");
        CacheKey badRecord = CacheKey.of("bad-record");
        CacheKey lostChunk = CacheKey.of("lost-chunk");
        try (ObjectStore s = open("capacity", "16MiB", "chunk-size", "16KiB")) {
            put(s, good, seed(good), 100_000, 65_536);
            put(s, badRecord, seed(badRecord), 100_000, 65_536);
            put(s, lostChunk, seed(lostChunk), 100_000, 65_536);
        }
        // Damage the files the way a bug or a bad disk might, below the engine.
        try (Env<ByteBuffer> env = Env.create().setMaxDbs(2).setMapSize(16L << 20)
                .open(dir.toFile())) {
            Dbi<ByteBuffer> meta = env.openDbi("meta");
            Dbi<ByteBuffer> chunks = env.openDbi("chunks");
            try (Txn<ByteBuffer> txn = env.txnWrite()) {
                meta.put(txn, direct(badRecord.toBytes()), direct(new byte[] {1, 2, 3}));
                ByteBuffer v = meta.get(txn, direct(lostChunk.toBytes()));
                long id = v.getLong(v.position() + 1);
                assertThat(chunks.delete(txn, Layout.chunkKey(ByteBuffer.allocateDirect(12), id, 2))).isTrue();
                txn.commit();
            }
        }
        try (ObjectStore s = open("capacity", "16MiB")) {
            assertReadsBack(s, good, 100_000);
            assertThat(s.lookup(badRecord)).isEmpty();
            assertThat(s.lookup(lostChunk)).isEmpty();
            assertThat(s.stats().corruptObjectsDropped()).isEqualTo(1);
            assertThat(s.usage().objectCount()).isEqualTo(1);
            put(s, lostChunk, seed(lostChunk), 50_000, 65_536);
            assertReadsBack(s, lostChunk, 50_000);
        }
    }

    private static ByteBuffer direct(byte[] b) {
        return ByteBuffer.allocateDirect(b.length).put(b).flip();
    }

    @Test
    void viewsLendMapMemoryOfCommittedObjectsUntilClose() throws IOException {
        try (ObjectStore s = open("capacity", "16MiB", "chunk-size", "16KiB")) {
            CacheKey k = CacheKey.of("viewed");
            put(s, k, seed(k), 100_000, 65_536);
            try (StoredObject o = s.lookup(k).orElseThrow()) {
                assertThat(verifyViews(o, seed(k), 0, 100_000, 40_000)).isTrue();
                assertThat(o.view(100_000, 10)).isEmpty();
                assertThat(s.stats().extra()).containsEntry("readTxnsInUse", 0).containsEntry("viewLeases", 1);
            }
            assertThat(s.stats().extra()).containsEntry("readTxnsInUse", 0).containsEntry("viewLeases", 0);
        }
    }
}
