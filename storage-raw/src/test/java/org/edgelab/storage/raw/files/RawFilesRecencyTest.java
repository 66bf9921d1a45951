package org.edgelab.storage.raw.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.edgelab.storage.spi.RecencyFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restarted raw-files store evicts what was used least recently before it stopped, not what was written first. Ten
 * objects fill the store; the five written first are read again; after a restart five new objects evict five: the
 * five not read. Before the recency file the rebuilt index ordered objects by when their files were written, so the
 * five read were evicted (the restart experiment lost 27 % of its hot set at 1 MB that way, 2026-12-06).
 */
class RawFilesRecencyTest {

    private static final long SIZE = 50_000;
    private static final int FIT = 10;

    @TempDir
    Path dir;

    private ObjectStore open(Path at, String recencyInterval) throws Exception {
        long file = ObjectFileHeader.lengthFor(key("w", 0), StoreFixtures.metadata(SIZE)) + SIZE;
        return StorageEngines.open("raw-files", PluginSettings.of("dir", at.toString(), "capacity",
                String.valueOf(FIT * file + file / 2), "recency-interval", recencyInterval));
    }

    private static CacheKey key(String prefix, int i) {
        return CacheKey.of(prefix + "-" + i);
    }

    private static void put(ObjectStore store, String prefix, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            StoreFixtures.put(store, key(prefix, i), TestContent.seed(prefix + i), SIZE, 16_384);
        }
    }

    /**
     * Fills the store, then after a pause (so that reads and writes differ in time) reads the five written first;
     * returns the time just before the reads.
     */
    private static long fillAndReadTheFirstFive(ObjectStore store) throws Exception {
        put(store, "w", FIT);
        Thread.sleep(20); // the reads' times must be later than every write's (millisecond clock)
        long readsFrom = System.currentTimeMillis();
        for (int i = 0; i < 5; i++) {
            try (StoredObject o = store.lookup(key("w", i)).orElseThrow()) {
                assertThat(o.availableLength()).isEqualTo(SIZE);
            }
        }
        return readsFrom;
    }

    /** After five new objects, which of the first ten are left. */
    private static List<Integer> survivorsAfterFiveNew(ObjectStore store) throws Exception {
        put(store, "n", 5);
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < FIT; i++) {
            if (store.lookup(key("w", i)).map(o -> {
                o.close();
                return true;
            }).orElse(false)) {
                left.add(i);
            }
        }
        return left;
    }

    @Test
    void afterACloseAndReopenTheObjectsReadLastAreKept() throws Exception {
        try (ObjectStore store = open(dir, "0")) {
            fillAndReadTheFirstFive(store);
        }
        assertThat(dir.resolve(RawFilesStore.RECENCY_FILE)).as("written at close").isRegularFile();
        try (ObjectStore store = open(dir, "0")) {
            assertThat(survivorsAfterFiveNew(store)).containsExactly(0, 1, 2, 3, 4);
        }
    }

    @Test
    void afterACrashTheOrderIsAsOfTheLastPeriodicWrite() throws Exception {
        Path copy = dir.resolve("copy");
        Path live = dir.resolve("live");
        try (ObjectStore store = open(live, "50ms")) {
            long readsFrom = fillAndReadTheFirstFive(store);
            // until a periodic write holds the five reads (the writer runs every 50 ms, and only after a use)
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!holdsReadsSince(live, readsFrom)) {
                assertThat(System.nanoTime() < deadline).as("a periodic recency write of the reads within 10 s").isTrue();
                Thread.sleep(10);
            }
            // what a SIGKILL now would leave on disk: the directory as it is, the store never closed
            copyTree(live, copy);
        }
        try (ObjectStore store = open(copy, "50ms")) {
            assertThat(survivorsAfterFiveNew(store)).containsExactly(0, 1, 2, 3, 4);
        }
    }

    /** Whether the recency file in {@code at} says the five objects read were used at {@code since} or later. */
    private static boolean holdsReadsSince(Path at, long since) {
        java.util.Map<Long, Long> used = RecencyFile.read(at, RawFilesStore.RECENCY_FILE, "test");
        for (int i = 0; i < 5; i++) {
            if (used.getOrDefault(key("w", i).hash64(), 0L) < since) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aDamagedRecencyFileIsIgnoredAndTheStoreOpens() throws Exception {
        try (ObjectStore store = open(dir, "0")) {
            fillAndReadTheFirstFive(store);
        }
        Files.write(dir.resolve(RawFilesStore.RECENCY_FILE), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
        assertThat(RecencyFile.read(dir, RawFilesStore.RECENCY_FILE, "test")).as("a damaged file gives no times").isEmpty();
        try (ObjectStore store = open(dir, "0")) {
            // the order falls back on the files' modification times (too coarse here to assert which go first)
            assertThat(store.usage().objectCount()).isEqualTo(FIT);
            try (StoredObject o = store.lookup(key("w", 7)).orElseThrow()) {
                assertThat(o.availableLength()).isEqualTo(SIZE);
            }
        }
        assertThat(RecencyFile.read(dir, RawFilesStore.RECENCY_FILE, "test")).as("rewritten whole at close").hasSize(FIT);
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals("raw-files.lock")) {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
