package org.edgelab.storage.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.spi.RecencyFile;

/** Reopened, a store evicts by its {@link RecencyFile}, least recently used first; stateless, not thread-safe. */
public final class RecencyScenario {

    /** The size of each object. */
    public static final long SIZE = 50_000;
    /** How many objects the engine's store must hold: {@link Opener} gives it room for this many and a half. */
    public static final int FIT = 10;
    /** How many objects are read again after the fill: {@code w-0} to {@code w-4}, the five written first. */
    public static final int HOT = 5;
    private static final int READ_ROUNDS = 3;
    private static final String RECENCY_INTERVAL = "recency-interval";
    private static final String PERIODIC = "50ms";
    private static final long PERIODIC_WRITE_TIMEOUT_NANOS = 10_000_000_000L;

    /**
     * Opens (or reopens) the engine's store in {@code dir} with room for {@link #FIT} objects of {@link #SIZE} and a
     * half, with {@code extra} settings (names and values) laid over the engine's own; the scenario sets only
     * {@code recency-interval}, the setting every engine with a recency file takes.
     */
    @FunctionalInterface
    public interface Opener {
        ObjectStore open(Path dir, String... extra) throws Exception;
    }

    /** An engine's own checks on a store the scenario has open. */
    @FunctionalInterface
    public interface Check {
        void on(ObjectStore store) throws Exception;
    }

    private final Opener opener;
    private final String recencyFile;

    /** The scenario for an engine that opens its stores with {@code opener} and keeps {@code recencyFile} in them. */
    public RecencyScenario(Opener opener, String recencyFile) {
        this.opener = opener;
        this.recencyFile = recencyFile;
    }

    /** The key of the {@code i}th object written with {@code prefix}. */
    public static CacheKey key(String prefix, int i) {
        return CacheKey.of(prefix + "-" + i);
    }

    /** Writes {@code count} objects of {@link #SIZE}, {@code prefix-0} first. */
    public static void put(ObjectStore store, String prefix, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            StoreFixtures.put(store, key(prefix, i), TestContent.seed(prefix + i), SIZE, 16_384);
        }
    }

    /** Checks that {@code w-i} is in the store, whole. */
    public static void assertHolds(ObjectStore store, int i) throws Exception {
        try (StoredObject o = store.lookup(key("w", i)).orElseThrow()) {
            assertThat(o.availableLength()).isEqualTo(SIZE);
        }
    }

    /**
     * Fills the store with {@link #FIT} objects, then after a pause (so that reads and writes differ in time) reads
     * the five written first three times each; returns the time just before the reads.
     */
    public static long fillAndReadTheFirstFive(ObjectStore store) throws Exception {
        put(store, "w", FIT);
        assertThat(store.usage().objectCount()).as("all fit").isEqualTo(FIT);
        Thread.sleep(20); // the reads' times must be later than every write's (millisecond clock)
        long readsFrom = System.currentTimeMillis();
        for (int round = 0; round < READ_ROUNDS; round++) {
            for (int i = 0; i < HOT; i++) {
                assertHolds(store, i);
            }
        }
        return readsFrom;
    }

    /** Writes five new objects, checks that they evicted five, and returns which of the first {@link #FIT} are left. */
    public static List<Integer> survivorsAfterFiveNew(ObjectStore store) throws Exception {
        put(store, "n", 5);
        assertThat(store.stats().evictions()).as("five evicted for the five new").isEqualTo(5);
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < FIT; i++) {
            Optional<StoredObject> found = store.lookup(key("w", i));
            if (found.isPresent()) {
                found.get().close();
                left.add(i);
            }
        }
        return left;
    }

    /**
     * Fills a store in {@code dir} and reads the first five, closes it, checks that the recency file was written at
     * close, reopens and checks that the five new objects evict the five not read.
     */
    public void afterACloseAndReopen(Path dir) throws Exception {
        fillReadAndClose(dir);
        assertThat(dir.resolve(recencyFile)).as("written at close").isRegularFile();
        try (ObjectStore store = opener.open(dir)) {
            assertThat(store.usage().objectCount()).isEqualTo(FIT);
            assertThat(survivorsAfterFiveNew(store)).as("the five read survive, the five only written go")
                    .containsExactly(0, 1, 2, 3, 4);
        }
    }

    /**
     * Fills a store in {@code live} that writes its recency file every 50 ms and reads the first five, waits until a
     * periodic write holds the reads, runs {@code whileLive} on it, copies its files to {@code copy} as a SIGKILL
     * would leave them (all but {@code lockFile} and a recency write in progress), and checks that the copy, opened,
     * evicts the five not read.
     */
    public void afterACrash(Path live, Path copy, String lockFile, Check whileLive) throws Exception {
        try (ObjectStore store = opener.open(live, RECENCY_INTERVAL, PERIODIC)) {
            long readsFrom = fillAndReadTheFirstFive(store);
            // until a periodic write holds the reads (the writer runs every 50 ms, and only after a use)
            long deadline = System.nanoTime() + PERIODIC_WRITE_TIMEOUT_NANOS;
            while (!holdsReadsSince(live, readsFrom)) {
                assertThat(System.nanoTime() < deadline).as("a periodic recency write of the reads within 10 s")
                        .isTrue();
                Thread.sleep(10);
            }
            whileLive.on(store);
            copyAsKilled(live, copy, lockFile);
        }
        try (ObjectStore store = opener.open(copy, RECENCY_INTERVAL, PERIODIC)) {
            assertThat(store.usage().objectCount()).isEqualTo(FIT);
            assertThat(survivorsAfterFiveNew(store)).containsExactly(0, 1, 2, 3, 4);
        }
    }

    /**
     * Fills a store in {@code dir} and reads the first five, closes it, overwrites its recency file with bytes that
     * are not one, reopens and checks that all objects are there, runs {@code reopened} (where the engine checks its
     * fallback order), and checks that the file is written whole again at close.
     */
    public void withADamagedFile(Path dir, Check reopened) throws Exception {
        fillReadAndClose(dir);
        Files.write(dir.resolve(recencyFile), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
        assertThat(RecencyFile.read(dir, recencyFile, "test")).as("a damaged file gives no times").isEmpty();
        try (ObjectStore store = opener.open(dir)) {
            assertThat(store.usage().objectCount()).isEqualTo(FIT);
            reopened.on(store);
        }
        assertThat(RecencyFile.read(dir, recencyFile, "test")).as("rewritten whole at close").hasSize(FIT);
    }

    /**
     * Fills a store in {@code dir} and reads the first five, closes it, deletes its recency file, reopens and checks
     * that all objects are there, then runs {@code reopened} (where the engine checks its fallback order).
     */
    public void withoutAFile(Path dir, Check reopened) throws Exception {
        fillReadAndClose(dir);
        Files.delete(dir.resolve(recencyFile));
        try (ObjectStore store = opener.open(dir)) {
            assertThat(store.usage().objectCount()).isEqualTo(FIT);
            reopened.on(store);
        }
    }

    /** Opens a store in {@code dir}, fills it, reads the first five and closes it. */
    private void fillReadAndClose(Path dir) throws Exception {
        try (ObjectStore store = opener.open(dir)) {
            fillAndReadTheFirstFive(store);
        }
    }

    /** Whether the recency file in {@code dir} says the five objects read were used at {@code since} or later. */
    private boolean holdsReadsSince(Path dir, long since) {
        Map<Long, Long> used = RecencyFile.read(dir, recencyFile, "test");
        for (int i = 0; i < HOT; i++) {
            if (used.getOrDefault(key("w", i).hash64(), 0L) < since) {
                return false;
            }
        }
        return true;
    }

    /** Copies the tree under {@code from} to {@code to}, all but {@code lockFile} and the recency file's temporary. */
    private void copyAsKilled(Path from, Path to, String lockFile) throws Exception {
        String inProgress = recencyFile + ".tmp";
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                String name = p.getFileName().toString();
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!name.equals(lockFile) && !name.equals(inProgress)) {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
