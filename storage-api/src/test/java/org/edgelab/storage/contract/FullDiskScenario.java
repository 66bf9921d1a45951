package org.edgelab.storage.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;

/**
 * The full-disk fault, the same for every disk engine: a store whose capacity (256 MB) is four
 * times the file system under it (a 64 MiB tmpfs or ext4, {@link ScratchMount}) takes 40 distinct 4 MiB
 * objects, each followed by a reader while it is written, as a cache's clients follow a miss.
 *
 * <p>What must hold: every write either commits or is refused with {@link StorageFullException}
 * (never another error); a refused write's follower has read every byte written before the
 * refusal, exactly, and then learns of the abort, so a cache can pass the rest through; every
 * committed object stays readable and byte-exact (a full file system is not a failed disk); once
 * room is made the store takes writes again; and after a SIGKILL mid-write on the full file
 * system and a restart, every committed object is there and byte-exact.
 *
 * <p>Engines supply how their settings put the store in a directory; the scenario opens it by
 * name through {@link StorageEngines}. Not thread-safe: one test runs it at a time.
 */
public final class FullDiskScenario {

    /** The size of the file system under the store. */
    public static final long FILE_SYSTEM = 64L << 20;
    /** The store's configured capacity: four times the file system. */
    public static final long CAPACITY = 256L << 20;
    /** Distinct objects written, each of {@link #OBJECT_SIZE}. */
    public static final int OBJECTS = 40;
    public static final long OBJECT_SIZE = 4L << 20;
    /** Room a filler file keeps on the file system until the scenario frees it. */
    private static final long FILLER = 8L << 20;
    private static final int CHUNK = 64 * 1024;
    private static final long TIMEOUT_SECONDS = 30;

    /** How an engine's settings put a store of {@code capacity} bytes in {@code dir}. */
    @FunctionalInterface
    public interface Settings {
        PluginSettings in(Path dir, long capacity);
    }

    /** What the writes did: objects committed and refused, and the bytes followers read of refused ones. */
    public record Outcome(int committed, int refused, long followedOfRefused) {
    }

    private final String engine;
    private final Settings settings;

    public FullDiskScenario(String engine, Settings settings) {
        this.engine = engine;
        this.settings = settings;
    }

    /** Opens the engine's store in {@code dir}. */
    public ObjectStore open(Path dir) throws IOException {
        return StorageEngines.open(engine, settings.in(dir, CAPACITY));
    }

    /**
     * Writes the 40 objects into a store on {@code fs} (a filler file holds back 8 MiB), checks
     * each write and its follower as the class comment says, then frees the filler and checks
     * that a new object is taken. Returns what the writes did; the store is left open for the
     * engine's own checks (its disk states, say) and closed by the caller.
     */
    public Outcome fill(ObjectStore store, ScratchMount fs) throws Exception {
        Path filler = fs.dir().resolve("filler");
        Files.write(filler, new byte[(int) FILLER]);
        int committed = 0;
        int refused = 0;
        long followed = 0;
        List<CacheKey> stored = new ArrayList<>();
        ExecutorService readers = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < OBJECTS; i++) {
                CacheKey k = CacheKey.of("full-" + i);
                long seed = TestContent.seed(k.value());
                ObjectWriter w;
                try {
                    w = store.begin(k, StoreFixtures.metadata(OBJECT_SIZE));
                } catch (StorageFullException e) {
                    refused++;
                    continue;
                }
                try (w) {
                    StoredObject follower = w.follow();
                    Future<Followed> reading = readers.submit(() -> {
                        try (follower) {
                            return follow(follower, seed);
                        }
                    });
                    long before = 0;
                    StorageFullException refusal = null;
                    try {
                        for (long pos = 0; pos < OBJECT_SIZE; pos += CHUNK) {
                            before = w.written();
                            w.write(TestContent.chunk(seed, pos, (int) Math.min(CHUNK, OBJECT_SIZE - pos)));
                        }
                        before = w.written();
                        w.commit();
                    } catch (StorageFullException e) {
                        refusal = e;
                    }
                    Followed f = reading.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    if (refusal == null) {
                        assertThat(f.bytes).as("follower of committed %s", k).isEqualTo(OBJECT_SIZE);
                        assertThat(f.aborted).isFalse();
                        committed++;
                        stored.add(k);
                    } else {
                        assertThat(f.aborted).as("follower of %s learns of the refusal", k).isTrue();
                        assertThat(f.bytes).as("bytes of %s a follower read after the refusal (%s)", k, refusal.getMessage())
                                .isGreaterThanOrEqualTo(before);
                        assertThat(store.lookup(k)).as("refused %s", k).isEmpty();
                        followed += f.bytes;
                        refused++;
                    }
                }
            }
            assertThat(refused).as("writes refused by the full file system").isPositive();
            assertThat(committed).as("writes committed before it filled").isPositive();
            for (CacheKey k : stored) {
                assertExact(store, k, OBJECT_SIZE);
            }
            Files.delete(filler);
            CacheKey after = CacheKey.of("after-room");
            StoreFixtures.put(store, after, TestContent.seed(after.value()), 1L << 20, CHUNK);
            assertExact(store, after, 1L << 20);
            for (CacheKey k : stored) {
                assertExact(store, k, OBJECT_SIZE);
            }
        } finally {
            readers.shutdownNow();
        }
        return new Outcome(committed, refused, followed);
    }

    /**
     * Runs the crash child on {@code fs} until the store has refused five writes (it is full and
     * goes on writing), kills it with SIGKILL, reopens the store and checks every committed
     * object. Returns the check; fails if any committed object is missing or not byte-exact.
     */
    public CrashCheck killWhileFullAndRestart(ScratchMount fs, Path workDir) throws Exception {
        Path dir = fs.dir().resolve("store");
        CrashRun run = CrashHarness.writeAndKillOnceRefused(engine, settings.in(dir, CAPACITY), 5,
                Duration.ofSeconds(60), workDir);
        assertThat(run.killed()).as("the child was killed by SIGKILL; its errors:%n%s", run.childErrors()).isTrue();
        assertThat(CrashRun.skippedCount(workDir.resolve(CrashHarness.KEYS_FILE)))
                .as("writes refused before the kill; the child's errors:%n%s", run.childErrors())
                .isGreaterThanOrEqualTo(5);
        try (ObjectStore reopened = open(dir)) {
            CrashCheck check = CrashHarness.verify(reopened, run);
            assertThat(check.committedButAbsentKeys()).as("committed objects lost after SIGKILL on a full file system")
                    .isEmpty();
            assertThat(check.corruptDetected()).isZero();
            assertThat(check.present()).isGreaterThanOrEqualTo(run.committedCount());
            return check;
        }
    }

    private record Followed(long bytes, boolean aborted) {
    }

    /** Reads a followed object to its end or its abort, verifying every byte. */
    private static Followed follow(StoredObject f, long seed) throws Exception {
        ByteBuffer buf = ByteBuffer.allocate(CHUNK);
        long pos = 0;
        while (true) {
            long available;
            try {
                available = f.awaitLength(pos + 1).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof WriteAbortedException) {
                    return new Followed(pos, true);
                }
                throw e;
            }
            if (available <= pos) {
                assertThat(f.isComplete()).isTrue();
                return new Followed(pos, false);
            }
            buf.clear().limit((int) Math.min(buf.capacity(), available - pos));
            int n = f.read(pos, buf);
            assertThat(n).as("read at %d with %d available", pos, available).isPositive();
            buf.flip();
            TestContent.assertMatches("follower of " + f.key(), seed, pos, buf);
            pos += n;
        }
    }

    static void assertExact(ObjectStore store, CacheKey k, long size) throws IOException {
        Optional<StoredObject> found = store.lookup(k);
        assertThat(found).as("stored object %s", k).isPresent();
        try (StoredObject o = found.get()) {
            assertThat(o.availableLength()).isEqualTo(size);
            StoreFixtures.verifyRead(o, TestContent.seed(k.value()), 0, size, 256 * 1024);
        }
    }
}
