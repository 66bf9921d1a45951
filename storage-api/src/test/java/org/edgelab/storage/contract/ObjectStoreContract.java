package org.edgelab.storage.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.edgelab.storage.contract.StoreFixtures.metadata;
import static org.edgelab.storage.contract.StoreFixtures.put;
import static org.edgelab.storage.contract.StoreFixtures.verifyFileSlices;
import static org.edgelab.storage.contract.StoreFixtures.verifyRead;
import static org.edgelab.storage.contract.StoreFixtures.verifyViews;
import static org.edgelab.storage.contract.StoreFixtures.versioned;
import static org.edgelab.storage.contract.StoreFixtures.writeBody;
import static org.edgelab.storage.contract.StoreFixtures.writeUncommitted;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoreUsage;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link ObjectStore} engine passes (see the contract in {@link ObjectStore}'s
 * Javadoc). An engine's test extends this class and implements {@link #openStore}; JUnit 5 runs
 * the {@code @Test} methods and jqwik the {@code @Property} methods (both inherited).
 *
 * <p>Sizes the suite relies on: tests that do not fill the store use {@link #ROOMY} (64 MiB) and
 * objects up to a few MiB; tests that fill it use {@link #SMALL} (2 MiB) or {@link #TINY}
 * (1 MiB) with objects of at most a quarter of the capacity. An engine must accept, in an empty
 * store with no reader open, any object of at most a quarter of its capacity (evicting others as
 * needed): choose the engine's granularity (chunk, segment, region size) in {@link #openStore}
 * so that this holds, e.g. a sixteenth of the capacity or less.
 *
 * <p>Persistent engines override {@link #persistent()} to return true (and {@link #reopenStore}
 * if reopening differs from opening); the restart tests then run too.
 *
 * <p>Each test method uses its own stores on fresh directories and closes them; instances are
 * not shared between threads except by the concurrency tests themselves.
 */
public abstract class ObjectStoreContract {

    /** Capacity of tests that never fill the store. */
    protected static final long ROOMY = 64L << 20;
    /** Capacity of tests that fill the store. */
    protected static final long SMALL = 2L << 20;
    /** Capacity of the property tests that fill the store. */
    protected static final long TINY = 1L << 20;
    private static final long TIMEOUT_SECONDS = 10;

    private final List<StoreUnderTest> opened = new ArrayList<>();

    /**
     * Opens a new, empty store of the engine under test with the given capacity. {@code dir} is a
     * fresh, empty directory the engine may use for its files (deleted after the test).
     */
    protected abstract ObjectStore openStore(long capacityBytes, Path dir) throws Exception;

    /**
     * Reopens the store that was last opened on {@code dir} and then closed cleanly. Persistent
     * engines override this if reopening needs anything {@link #openStore} does not do.
     */
    protected ObjectStore reopenStore(long capacityBytes, Path dir) throws Exception {
        return openStore(capacityBytes, dir);
    }

    /** Returns whether committed objects survive a clean close and {@link #reopenStore}. */
    protected boolean persistent() {
        return false;
    }

    // ------------------------------------------------------------------ fixtures

    /** A store under test with its directory; closing closes the store and deletes the directory. */
    protected final class StoreUnderTest implements AutoCloseable {
        final long capacity;
        final Path dir;
        ObjectStore store;

        StoreUnderTest(long capacity) throws Exception {
            this.capacity = capacity;
            this.dir = Files.createTempDirectory("edgelab-contract-");
            try {
                this.store = openStore(capacity, dir);
            } catch (Exception | Error e) {
                deleteTree(dir);
                throw e;
            }
            if (store == null) {
                deleteTree(dir);
                throw new AssertionError("openStore returned null");
            }
        }

        /** Closes the store cleanly and opens it again on the same directory. */
        ObjectStore reopen() throws Exception {
            store.close();
            store = reopenStore(capacity, dir);
            return store;
        }

        @Override
        public void close() throws IOException {
            try {
                try {
                    store.close();
                } catch (IllegalStateException alreadyClosed) {
                    // the test closed it already
                }
            } finally {
                deleteTree(dir);
            }
        }
    }

    /** Opens a store of {@code capacity} that is closed after the current test. */
    protected final ObjectStore store(long capacity) throws Exception {
        StoreUnderTest s = new StoreUnderTest(capacity);
        opened.add(s);
        return s.store;
    }

    @AfterEach
    void closeStores() throws IOException {
        for (StoreUnderTest s : opened) {
            s.close();
        }
        opened.clear();
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static CacheKey key(String name) {
        return CacheKey.of(name);
    }

    private static long seed(CacheKey key) {
        return TestContent.seed(key.value());
    }

    private static void checkCapacity(ObjectStore store, long capacity) {
        StoreUsage u = store.usage();
        if (u.usedBytes() > u.capacityBytes() || u.usedBytes() > capacity) {
            throw new AssertionError("capacity exceeded: " + u + " (requested capacity " + capacity + ")");
        }
        if (u.usedBytes() < 0 || u.objectCount() < 0) {
            throw new AssertionError("negative usage: " + u);
        }
    }

    private static <T> T await(CompletableFuture<T> f) throws Exception {
        try {
            return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("awaitLength did not complete within " + TIMEOUT_SECONDS + " s", e);
        }
    }

    private static void assertFullyReadable(StoredObject o, long seed, long size) throws IOException {
        assertThat(o.isComplete()).as("isComplete of a committed object").isTrue();
        assertThat(o.availableLength()).as("availableLength of '%s'", o.key()).isEqualTo(size);
        verifyRead(o, seed, 0, size, 64 * 1024);
        assertThat(o.read(size, ByteBuffer.allocate(16))).as("read at the end").isEqualTo(-1);
    }

    // ------------------------------------------------------------------ round trip

    @Test
    void committedObjectsReadBackByteExactAtAnyOffsetAndLength() throws Exception {
        ObjectStore store = store(ROOMY);
        long[] sizes = {1, 7, 4095, 4096, 65_536, 65_537, 1_000_003, (3L << 20) + 7};
        int[] chunkings = {1, 3, 1000, 4096, 65_536, 100_000, 1 << 20};
        Random random = new Random(42);
        for (int i = 0; i < sizes.length; i++) {
            CacheKey k = key("object-" + i);
            long size = sizes[i];
            int chunk = chunkings[i % chunkings.length];
            if (chunk == 1 && size > 10_000) {
                chunk = 777;
            }
            put(store, k, seed(k), size, chunk);
        }
        for (int i = 0; i < sizes.length; i++) {
            CacheKey k = key("object-" + i);
            long size = sizes[i];
            try (StoredObject o = store.lookup(k).orElseThrow(() -> new AssertionError(k + " not found"))) {
                assertThat(o.key()).isEqualTo(k);
                assertThat(o.metadata()).isEqualTo(metadata(size));
                assertFullyReadable(o, seed(k), size);
                for (int r = 0; r < 20; r++) {
                    long from = (long) (random.nextDouble() * size);
                    long len = Math.min(size - from, 1 + (long) (random.nextDouble() * Math.min(size, 300_000)));
                    verifyRead(o, seed(k), from, len, 1 + random.nextInt(70_000));
                    verifyViews(o, seed(k), from, len, 1 + random.nextInt(70_000));
                    verifyFileSlices(o, seed(k), from, len, 1 + random.nextInt(70_000));
                }
                assertThat(o.read(size + 100, ByteBuffer.allocate(8))).as("read past the end").isEqualTo(-1);
                assertThat(await(o.awaitLength(size + 1))).as("awaitLength on a committed object").isEqualTo(size);
            }
        }
    }

    @Test
    void emptyObjectIsStoredAndReadsAsEmpty() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("empty");
        try (ObjectWriter w = store.begin(k, metadata(0))) {
            w.commit();
        }
        try (StoredObject o = store.lookup(k).orElseThrow()) {
            assertThat(o.availableLength()).isZero();
            assertThat(o.isComplete()).isTrue();
            assertThat(o.read(0, ByteBuffer.allocate(10))).isEqualTo(-1);
            assertThat(o.metadata().length()).isZero();
        }
    }

    @Test
    void unknownLengthIsSetOnCommitAndExplicitMetadataIsKept() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("chunked");
        try (ObjectWriter w = writeUncommitted(store, k, metadata(ObjectMetadata.UNKNOWN_LENGTH), seed(k), 100_000, 8192)) {
            assertThat(w.written()).isEqualTo(100_000);
            assertThat(w.key()).isEqualTo(k);
            w.commit();
        }
        try (StoredObject o = store.lookup(k).orElseThrow()) {
            assertThat(o.metadata()).isEqualTo(metadata(100_000));
        }
        CacheKey k2 = key("explicit");
        ObjectMetadata fin = new ObjectMetadata(203, List.of(new HeaderField("X-A", "b")), 5000, 1, 2, 3);
        try (ObjectWriter w = writeUncommitted(store, k2, metadata(ObjectMetadata.UNKNOWN_LENGTH), seed(k2), 5000, 999)) {
            w.commit(fin);
        }
        try (StoredObject o = store.lookup(k2).orElseThrow()) {
            assertThat(o.metadata()).isEqualTo(fin);
            assertFullyReadable(o, seed(k2), 5000);
        }
    }

    @Test
    void keysAreOpaqueIncludingLongAndNonAsciiOnes() throws Exception {
        ObjectStore store = store(ROOMY);
        List<CacheKey> keys = List.of(key("http://example.com/a b?c=d&e=ü#€"), key("x".repeat(CacheKey.MAX_BYTES)),
                key("../../etc/passwd"), key("a/b\\c:d*e\"f<g>h|i\n\t"), key("A"), key("a"));
        for (CacheKey k : keys) {
            put(store, k, seed(k), 3000, 1000);
        }
        for (CacheKey k : keys) {
            try (StoredObject o = store.lookup(k).orElseThrow(() -> new AssertionError("lost key " + k))) {
                assertThat(o.key()).isEqualTo(k);
                assertFullyReadable(o, seed(k), 3000);
            }
        }
    }

    // ------------------------------------------------------------------ visibility, abort, replace

    @Test
    void objectIsInvisibleUntilCommit() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("pending");
        try (ObjectWriter w = writeUncommitted(store, k, metadata(200_000), seed(k), 200_000, 10_000)) {
            assertThat(store.lookup(k)).as("lookup before commit").isEmpty();
            w.commit();
            try (StoredObject o = store.lookup(k).orElseThrow(() -> new AssertionError("not visible after commit"))) {
                assertFullyReadable(o, seed(k), 200_000);
            }
        }
    }

    @Test
    void abortLeavesNothingAndKeepsTheEarlierVersion() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey fresh = key("aborted");
        ObjectWriter w = writeUncommitted(store, fresh, metadata(150_000), seed(fresh), 150_000, 4096);
        w.abort();
        w.abort();
        assertThat(store.lookup(fresh)).as("aborted object").isEmpty();
        assertThatThrownBy(() -> w.write(ByteBuffer.allocate(10))).as("write after abort")
                .isInstanceOfAny(IllegalStateException.class, IOException.class);
        assertThatThrownBy(w::commit).as("commit after abort").isInstanceOf(IllegalStateException.class);
        w.close();

        CacheKey existing = key("existing");
        put(store, existing, seed(existing), 70_000, 7000);
        long otherSeed = TestContent.seed("existing", 2);
        try (ObjectWriter w2 = writeUncommitted(store, existing, metadata(90_000), otherSeed, 90_000, 5000)) {
            w2.abort();
        }
        try (StoredObject o = store.lookup(existing).orElseThrow(() -> new AssertionError("abort removed the earlier version"))) {
            assertFullyReadable(o, seed(existing), 70_000);
        }
    }

    @Test
    void closingAnUncommittedWriterAbortsIt() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("abandoned");
        try (ObjectWriter w = writeUncommitted(store, k, metadata(ObjectMetadata.UNKNOWN_LENGTH), seed(k), 100_000, 3333)) {
            assertThat(w.written()).isEqualTo(100_000);
        }
        assertThat(store.lookup(k)).isEmpty();
        StoreStats s = store.stats();
        assertThat(s.writesAborted()).as("writesAborted").isGreaterThanOrEqualTo(1);
    }

    @Test
    void commitTwiceFailsAndWrongFinalLengthIsRejected() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("twice");
        try (ObjectWriter w = writeUncommitted(store, k, metadata(1000), seed(k), 1000, 100)) {
            w.commit();
            assertThatThrownBy(w::commit).isInstanceOf(IllegalStateException.class);
            w.abort();
        }
        try (StoredObject o = store.lookup(k).orElseThrow(() -> new AssertionError("abort after commit removed it"))) {
            assertFullyReadable(o, seed(k), 1000);
        }
        CacheKey bad = key("bad-length");
        try (ObjectWriter w = writeUncommitted(store, bad, metadata(ObjectMetadata.UNKNOWN_LENGTH), seed(bad), 1000, 100)) {
            assertThatThrownBy(() -> w.commit(metadata(999))).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(store.lookup(bad)).as("object whose commit was rejected").isEmpty();
    }

    @Test
    void commitReplacesAndOpenReadersKeepTheOldVersion() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("replaced");
        long v1 = TestContent.seed("replaced", 1);
        long v2 = TestContent.seed("replaced", 2);
        try (ObjectWriter w = writeUncommitted(store, k, versioned(300_000, 1), v1, 300_000, 65_536)) {
            w.commit();
        }
        try (StoredObject old = store.lookup(k).orElseThrow()) {
            try (ObjectWriter w = writeUncommitted(store, k, versioned(123_457, 2), v2, 123_457, 10_000)) {
                try (StoredObject stillOld = store.lookup(k).orElseThrow()) {
                    assertThat(stillOld.metadata().header("X-Version")).hasValue("1");
                }
                w.commit();
            }
            try (StoredObject now = store.lookup(k).orElseThrow()) {
                assertThat(now.metadata().header("X-Version")).hasValue("2");
                assertFullyReadable(now, v2, 123_457);
            }
            assertThat(old.metadata().header("X-Version")).hasValue("1");
            assertFullyReadable(old, v1, 300_000);
        }
        assertThat(store.usage().objectCount()).isEqualTo(1);
    }

    // ------------------------------------------------------------------ remove, metadata

    @Test
    void removeDeletesButOpenReadersKeepReading() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("removed");
        put(store, k, seed(k), 500_000, 50_000);
        try (StoredObject reader = store.lookup(k).orElseThrow()) {
            assertThat(store.remove(k)).isTrue();
            assertThat(store.lookup(k)).isEmpty();
            assertThat(store.remove(k)).as("second remove").isFalse();
            // reuse the freed space, then check the reader still sees its bytes
            for (int i = 0; i < 4; i++) {
                CacheKey other = key("after-remove-" + i);
                put(store, other, seed(other), 500_000, 50_000);
            }
            assertFullyReadable(reader, seed(k), 500_000);
        }
        assertThat(store.remove(key("never-stored"))).isFalse();
        assertThat(store.stats().removals()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void updateMetadataReplacesHeadersForNewReaders() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("revalidated");
        put(store, k, seed(k), 10_000, 4096);
        ObjectMetadata refreshed = metadata(10_000).refreshed(
                List.of(new HeaderField("ETag", "\"v1\""), new HeaderField("Cache-Control", "max-age=600")),
                5_000, 5_010, 605_010);
        try (StoredObject before = store.lookup(k).orElseThrow()) {
            assertThat(store.updateMetadata(k, refreshed)).isTrue();
            assertThat(before.metadata()).as("metadata of a reference opened before the update").isEqualTo(metadata(10_000));
            assertFullyReadable(before, seed(k), 10_000);
        }
        try (StoredObject after = store.lookup(k).orElseThrow()) {
            assertThat(after.metadata()).isEqualTo(refreshed);
            assertFullyReadable(after, seed(k), 10_000);
        }
        assertThat(store.updateMetadata(key("missing"), metadata(10))).isFalse();
    }

    // ------------------------------------------------------------------ capacity

    @Test
    void capacityIsNeverExceededWhileFilling() throws Exception {
        ObjectStore store = store(SMALL);
        StoreUsage initial = store.usage();
        assertThat(initial.capacityBytes()).as("capacityBytes").isPositive().isLessThanOrEqualTo(SMALL);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong maxSeen = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        Thread monitor = new Thread(() -> {
            while (!stop.get()) {
                try {
                    StoreUsage u = store.usage();
                    maxSeen.accumulateAndGet(u.usedBytes(), Math::max);
                    checkCapacity(store, SMALL);
                } catch (Throwable t) {
                    errors.add(t);
                    return;
                }
            }
        }, "usage-monitor");
        monitor.start();
        Random random = new Random(7);
        List<CacheKey> written = new ArrayList<>();
        Map<CacheKey, Long> sizes = new HashMap<>();
        try {
            for (int i = 0; i < 60; i++) {
                CacheKey k = key("fill-" + i);
                long size = 16_384 + random.nextInt((int) (SMALL / 4) - 16_384);
                try (ObjectWriter w = store.begin(k, metadata(i % 2 == 0 ? size : ObjectMetadata.UNKNOWN_LENGTH))) {
                    for (long pos = 0; pos < size; pos += 32_768) {
                        writeBody(w, seed(k), pos, Math.min(size, pos + 32_768), 32_768);
                        checkCapacity(store, SMALL);
                    }
                    w.commit();
                }
                checkCapacity(store, SMALL);
                written.add(k);
                sizes.put(k, size);
                try (StoredObject last = store.lookup(k).orElseThrow(() -> new AssertionError("just committed " + k + " is absent"))) {
                    assertFullyReadable(last, seed(k), size);
                }
            }
        } finally {
            stop.set(true);
            monitor.join();
        }
        assertThat(errors).isEmpty();
        int present = 0;
        for (CacheKey k : written) {
            Optional<StoredObject> o = store.lookup(k);
            if (o.isPresent()) {
                present++;
                try (StoredObject so = o.get()) {
                    assertFullyReadable(so, seed(k), sizes.get(k));
                }
            }
        }
        assertThat(present).as("objects still present").isPositive().isLessThan(written.size());
        assertThat(store.usage().objectCount()).as("usage().objectCount() against lookups").isEqualTo(present);
        assertThat(store.stats().evictions()).as("evictions").isPositive();
        assertThat(store.stats().evictedBytes()).as("evictedBytes").isPositive();
        assertThat(maxSeen.get()).isLessThanOrEqualTo(SMALL);
    }

    @Test
    void storageFullWhenReadersPinEverythingAndTheStoreRecovers() throws Exception {
        ObjectStore store = store(SMALL);
        long size = 128 * 1024;
        List<StoredObject> pinned = new ArrayList<>();
        boolean full = false;
        int limit = (int) (2 * SMALL / size) + 4;
        try {
            for (int i = 0; i < limit && !full; i++) {
                CacheKey k = key("pinned-" + i);
                try {
                    put(store, k, seed(k), size, 16_384);
                    pinned.add(store.lookup(k).orElseThrow(() -> new AssertionError("just committed " + k + " is absent")));
                } catch (StorageFullException e) {
                    full = true;
                    assertThat(store.lookup(k)).as("object whose write failed").isEmpty();
                }
                checkCapacity(store, SMALL);
            }
            assertThat(full).as("StorageFullException once readers pin " + limit + " objects of " + size
                    + " bytes in a store of " + SMALL).isTrue();
            for (StoredObject o : pinned) {
                assertFullyReadable(o, seed(o.key()), size);
            }
        } finally {
            pinned.forEach(StoredObject::close);
        }
        CacheKey after = key("after-unpin");
        put(store, after, seed(after), size, 16_384);
        try (StoredObject o = store.lookup(after).orElseThrow()) {
            assertFullyReadable(o, seed(after), size);
        }
        checkCapacity(store, SMALL);
    }

    @Test
    void objectLargerThanCapacityFailsCleanly() throws Exception {
        ObjectStore store = store(SMALL);
        CacheKey small = key("small");
        put(store, small, seed(small), 10_000, 4096);
        CacheKey huge = key("huge");
        assertThatThrownBy(() -> {
            try (ObjectWriter w = store.begin(huge, metadata(2 * SMALL))) {
                writeBody(w, seed(huge), 0, 2 * SMALL, 65_536);
                w.commit();
            }
        }).as("declared length above capacity").isInstanceOf(StorageFullException.class);
        checkCapacity(store, SMALL);
        assertThat(store.lookup(huge)).isEmpty();
        try (StoredObject o = store.lookup(small).orElseThrow(() -> new AssertionError("a write that could not fit evicted others"))) {
            assertFullyReadable(o, seed(small), 10_000);
        }
        assertThatThrownBy(() -> {
            try (ObjectWriter w = store.begin(huge, metadata(ObjectMetadata.UNKNOWN_LENGTH))) {
                for (long pos = 0; pos < 2 * SMALL; pos += 65_536) {
                    writeBody(w, seed(huge), pos, pos + 65_536, 65_536);
                    checkCapacity(store, SMALL);
                }
                w.commit();
            }
        }).as("unknown length growing above capacity").isInstanceOf(StorageFullException.class);
        checkCapacity(store, SMALL);
        assertThat(store.lookup(huge)).isEmpty();
        CacheKey next = key("next");
        put(store, next, seed(next), 100_000, 8192);
        try (StoredObject o = store.lookup(next).orElseThrow()) {
            assertFullyReadable(o, seed(next), 100_000);
        }
    }

    @Test
    void readersKeepReadingWhileTheirObjectIsEvicted() throws Exception {
        ObjectStore store = store(SMALL);
        CacheKey k = key("victim");
        long size = SMALL / 4;
        put(store, k, seed(k), size, 65_536);
        try (StoredObject reader = store.lookup(k).orElseThrow()) {
            for (int i = 0; i < 24; i++) {
                CacheKey other = key("pressure-" + i);
                put(store, other, seed(other), SMALL / 8, 65_536);
                checkCapacity(store, SMALL);
                long from = (i * 37_000L) % size;
                verifyRead(reader, seed(k), from, Math.min(20_000, size - from), 8192);
            }
            assertFullyReadable(reader, seed(k), size);
        }
        checkCapacity(store, SMALL);
    }

    // ------------------------------------------------------------------ blocking declaration

    /**
     * Runs {@code body} on a thread where BlockHound fails any blocking call when the engine says
     * {@code call} never blocks ({@code null}: a call the contract says never blocks in any engine),
     * else on the test's thread.
     */
    private <T> T asDeclared(ObjectStore store, StoreCall call, String what, java.util.concurrent.Callable<T> body)
            throws Exception {
        if (call != null && store.blockingCalls().contains(call)) {
            return body.call();
        }
        return BlockingCalls.onNonBlockingThread(what, body);
    }

    @Test
    void callsTheEngineDoesNotDeclareBlockingReturnWithoutBlocking() throws Exception {
        BlockingCalls.install();
        BlockingCalls.drain();
        ObjectStore store = store(ROOMY);
        java.util.Set<StoreCall> declared = store.blockingCalls();
        assertThat(declared).as("blockingCalls()").isNotNull();
        assertThat(store.blockingCalls()).as("blockingCalls() is constant").isEqualTo(declared);
        CacheKey k = key("declared");
        long s = seed(k);
        int size = 300_000;
        ByteBuffer chunk = ByteBuffer.allocate(size);
        TestContent.fill(s, 0, chunk);
        chunk.flip();
        asDeclared(store, null, "engineName", store::engineName);
        ObjectWriter w = asDeclared(store, StoreCall.BEGIN, "begin", () -> store.begin(k, metadata(size)));
        StoredObject follower = asDeclared(store, StoreCall.FOLLOW, "follow", w::follow);
        asDeclared(store, StoreCall.WRITE, "write", () -> {
            w.write(chunk.slice(0, size / 2));
            return null;
        });
        CompletableFuture<Long> half = asDeclared(store, null, "awaitLength, written, key", () -> {
            w.key();
            w.written();
            follower.key();
            follower.metadata();
            follower.isComplete();
            follower.availableLength();
            return follower.awaitLength(size / 2);
        });
        assertThat(await(half)).isGreaterThanOrEqualTo(size / 2);
        asDeclared(store, StoreCall.READ, "read of a follower", () -> follower.read(0, ByteBuffer.allocate(1000)));
        asDeclared(store, StoreCall.WRITE, "write", () -> {
            w.write(chunk.slice(size / 2, size - size / 2));
            return null;
        });
        asDeclared(store, StoreCall.COMMIT, "commit", () -> {
            w.commit();
            return null;
        });
        asDeclared(store, StoreCall.ABORT, "close of a committed writer", () -> {
            w.close();
            return null;
        });
        asDeclared(store, StoreCall.RELEASE, "close of a follower", () -> {
            follower.close();
            return null;
        });
        StoredObject o = asDeclared(store, StoreCall.LOOKUP, "lookup", () -> store.lookup(k).orElseThrow());
        asDeclared(store, null, "metadata, availableLength, isComplete, awaitLength", () -> {
            o.key();
            o.metadata();
            o.isComplete();
            o.availableLength();
            return o.awaitLength(size);
        });
        asDeclared(store, StoreCall.READ, "read", () -> {
            verifyRead(o, s, 0, size, 64 * 1024);
            return null;
        });
        asDeclared(store, StoreCall.VIEW, "view and its bytes", () -> verifyViews(o, s, 0, size, 64 * 1024));
        asDeclared(store, StoreCall.FILE_SLICE, "fileSlice", () -> o.fileSlice(0, size));
        asDeclared(store, StoreCall.USAGE, "usage and stats", () -> {
            store.usage();
            return store.stats();
        });
        asDeclared(store, StoreCall.UPDATE_METADATA, "updateMetadata", () -> store.updateMetadata(k, versioned(size, 2)));
        asDeclared(store, StoreCall.RELEASE, "close", () -> {
            o.close();
            return null;
        });
        ObjectWriter aborted = store.begin(key("aborted"), metadata(ObjectMetadata.UNKNOWN_LENGTH));
        aborted.write(ByteBuffer.allocate(1000));
        asDeclared(store, StoreCall.ABORT, "abort", () -> {
            aborted.abort();
            return null;
        });
        asDeclared(store, StoreCall.REMOVE, "remove", () -> store.remove(k));
        BlockingCalls.assertNone("calls " + store.engineName() + " does not declare blocking (it declares "
                + declared + ")");
    }

    // ------------------------------------------------------------------ read-while-write

    @Test
    void followerSeesBytesAsTheyAreWrittenAndTheCommit() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("streaming");
        long s = seed(k);
        try (ObjectWriter w = store.begin(k, metadata(ObjectMetadata.UNKNOWN_LENGTH));
             StoredObject f = w.follow()) {
            assertThat(f.key()).isEqualTo(k);
            assertThat(f.availableLength()).isZero();
            assertThat(f.isComplete()).isFalse();
            assertThat(f.read(0, ByteBuffer.allocate(10))).as("read before any byte is written").isZero();
            CompletableFuture<Long> first = f.awaitLength(1);
            assertThat(first).as("awaitLength(1) before any write").isNotDone();
            writeBody(w, s, 0, 10_000, 10_000);
            assertThat(await(first)).isGreaterThanOrEqualTo(1);
            assertThat(f.availableLength()).isEqualTo(10_000);
            verifyRead(f, s, 0, 10_000, 3000);
            verifyViews(f, s, 0, 10_000, 3000);
            CompletableFuture<Long> later = f.awaitLength(500_000);
            writeBody(w, s, 10_000, 400_000, 65_536);
            assertThat(later).as("awaitLength beyond what is written").isNotDone();
            verifyRead(f, s, 5000, 395_000, 65_536);
            writeBody(w, s, 400_000, 600_000, 65_536);
            assertThat(await(later)).isGreaterThanOrEqualTo(500_000);
            CompletableFuture<Long> toEnd = f.awaitLength(Long.MAX_VALUE);
            writeBody(w, s, 600_000, 700_000, 65_536);
            assertThat(toEnd).isNotDone();
            w.commit();
            assertThat(await(toEnd)).as("awaitLength completes with the final length on commit").isEqualTo(700_000);
            assertThat(f.isComplete()).isTrue();
            assertFullyReadable(f, s, 700_000);
        }
        try (StoredObject o = store.lookup(k).orElseThrow()) {
            assertFullyReadable(o, s, 700_000);
        }
    }

    @Test
    void followerInAnotherThreadReadsEveryByteWhileTheWriterWrites() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("live");
        long s = seed(k);
        long size = 3L << 20;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (ObjectWriter w = store.begin(k, metadata(size))) {
            StoredObject f = w.follow();
            Future<Long> reader = pool.submit(() -> {
                try (f) {
                    return followToEnd(f, s);
                }
            });
            for (long pos = 0; pos < size; pos += 48_000) {
                writeBody(w, s, pos, Math.min(size, pos + 48_000), 48_000);
                if (pos % 480_000 == 0) {
                    Thread.sleep(2);
                }
            }
            w.commit();
            assertThat(reader.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(size);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Reads a followed object to its end, verifying every byte; returns the bytes read. */
    private static long followToEnd(StoredObject f, long seed) throws Exception {
        ByteBuffer buf = ByteBuffer.allocate(40_000);
        long pos = 0;
        while (true) {
            long available;
            try {
                available = f.awaitLength(pos + 1).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Exception cause) {
                    throw cause;
                }
                throw e;
            }
            if (available <= pos) {
                if (!f.isComplete()) {
                    throw new AssertionError("awaitLength(" + (pos + 1) + ") returned " + available + " before completion");
                }
                assertThat(f.read(pos, buf.clear())).isEqualTo(-1);
                return pos;
            }
            buf.clear().limit((int) Math.min(buf.capacity(), available - pos));
            int n = f.read(pos, buf);
            if (n <= 0) {
                throw new AssertionError("read at " + pos + " returned " + n + " with " + available + " available");
            }
            buf.flip();
            TestContent.assertMatches("follower of '" + f.key() + "'", seed, pos, buf);
            pos += n;
        }
    }

    @Test
    void followerOfAnAbortedWriteReadsWhatWasWrittenAndFailsBeyondIt() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("doomed");
        ObjectWriter w = writeUncommitted(store, k, metadata(ObjectMetadata.UNKNOWN_LENGTH), seed(k), 50_000, 10_000);
        try (StoredObject f = w.follow()) {
            verifyRead(f, seed(k), 0, 20_000, 10_000);
            CompletableFuture<Long> pending = f.awaitLength(1_000_000);
            w.abort();
            assertThatThrownBy(() -> pending.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(WriteAbortedException.class);
            assertThatThrownBy(() -> f.awaitLength(1_000_000).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(WriteAbortedException.class);
            assertThat(f.isComplete()).isFalse();
            assertThat(f.availableLength()).as("bytes written before the abort").isEqualTo(50_000);
            assertThat(await(f.awaitLength(50_000))).as("awaitLength within what was written").isEqualTo(50_000);
            verifyRead(f, seed(k), 0, 50_000, 7_000);
            assertThatThrownBy(() -> f.read(50_000, ByteBuffer.allocate(100))).isInstanceOf(WriteAbortedException.class);
            assertThatThrownBy(w::follow).as("follow() after the abort").isInstanceOf(IllegalStateException.class);
        } finally {
            w.close();
        }
        assertThat(store.lookup(k)).isEmpty();
    }

    @Test
    void followerOfAWriteTheStoreRefusesReadsWhatWasWrittenAndTheStoreCarriesOn() throws Exception {
        ObjectStore store = store(SMALL);
        CacheKey kept = key("kept");
        put(store, kept, seed(kept), 100_000, 8192);
        StoredObject keptReader = store.lookup(kept).orElseThrow(); // evicted or not, its reader keeps reading
        CacheKey huge = key("refused");
        long written;
        ObjectWriter w = store.begin(huge, metadata(ObjectMetadata.UNKNOWN_LENGTH));
        StoredObject f = w.follow();
        try (keptReader) {
            StorageFullException refused = null;
            for (long pos = 0; pos < 4 * SMALL && refused == null; pos += 65_536) {
                try {
                    writeBody(w, seed(huge), pos, pos + 65_536, 65_536);
                } catch (StorageFullException e) {
                    refused = e;
                }
                checkCapacity(store, SMALL);
            }
            assertThat(refused).as("a write growing past the capacity is refused mid-object").isNotNull();
            written = f.availableLength();
            assertThat(written).as("bytes a follower can read after the refusal").isPositive();
            verifyRead(f, seed(huge), 0, written, 50_000);
            assertThatThrownBy(() -> f.awaitLength(written + 1).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(WriteAbortedException.class);
            assertThatThrownBy(() -> f.read(written, ByteBuffer.allocate(10))).isInstanceOf(WriteAbortedException.class);
            assertThatThrownBy(() -> w.write(ByteBuffer.allocate(10))).as("writing on after the refusal")
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(w::commit).isInstanceOf(IllegalStateException.class);
            assertThat(store.lookup(huge)).isEmpty();
            assertFullyReadable(keptReader, seed(kept), 100_000);
        } finally {
            f.close();
            w.close();
        }
        CacheKey next = key("next");
        put(store, next, seed(next), 300_000, 16_384);
        try (StoredObject o = store.lookup(next).orElseThrow()) {
            assertFullyReadable(o, seed(next), 300_000);
        }
        checkCapacity(store, SMALL);
    }

    @Test
    void followAfterCommitFailsAndEarlierFollowersOutliveRemovalAndReplacement() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("outlived");
        long s = seed(k);
        StoredObject early;
        try (ObjectWriter w = store.begin(k, metadata(300_000))) {
            early = w.follow();
            writeBody(w, s, 0, 300_000, 32_768);
            w.commit();
            assertThatThrownBy(w::follow).as("follow() after commit").isInstanceOf(IllegalStateException.class);
        }
        try (early) {
            assertThat(early.isComplete()).isTrue();
            assertThat(store.remove(k)).isTrue();
            CacheKey other = key("replacement");
            put(store, k, seed(other), 50_000, 8192);
            assertFullyReadable(early, s, 300_000);
        }
        try (StoredObject o = store.lookup(k).orElseThrow()) {
            assertFullyReadable(o, seed(key("replacement")), 50_000);
        }
    }

    @Test
    void followersAtTheirOwnPaceIncludingOneOpenedMidWriteSeeEveryByte() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("paced");
        long s = seed(k);
        long size = 1_500_000;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (ObjectWriter w = store.begin(k, metadata(ObjectMetadata.UNKNOWN_LENGTH))) {
            StoredObject first = w.follow();
            StoredObject quitter = w.follow();
            Future<Long> eager = pool.submit(() -> {
                try (first) {
                    return followToEnd(first, s);
                }
            });
            writeBody(w, s, 0, size / 2, 20_000);
            verifyRead(quitter, s, 0, 10_000, 4096);
            quitter.close();
            assertThatThrownBy(() -> quitter.read(0, ByteBuffer.allocate(10))).as("read after close")
                    .isInstanceOf(IllegalStateException.class);
            quitter.close(); // idempotent
            StoredObject late = w.follow();
            assertThat(late.availableLength()).as("a follower opened mid-write sees what is written").isEqualTo(size / 2);
            Future<Long> slow = pool.submit(() -> {
                try (late) {
                    Thread.sleep(20);
                    return followToEnd(late, s);
                }
            });
            writeBody(w, s, size / 2, size, 70_000);
            w.commit();
            assertThat(eager.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(size);
            assertThat(slow.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(size);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void awaitCallbacksOnTheWritersThreadMayReadAndUseTheStore() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey other = key("neighbour");
        put(store, other, seed(other), 20_000, 4096);
        CacheKey k = key("called-back");
        long s = seed(k);
        try (ObjectWriter w = store.begin(k, metadata(ObjectMetadata.UNKNOWN_LENGTH));
             StoredObject f = w.follow()) {
            writeBody(w, s, 0, 1000, 1000);
            assertThat(f.awaitLength(1000)).as("awaitLength of bytes already written").isDone();
            assertThat(await(f.awaitLength(500))).isGreaterThanOrEqualTo(1000);
            AtomicLong checked = new AtomicLong(-1);
            CompletableFuture<Void> callback = f.awaitLength(100_000).thenAccept(available -> {
                try {
                    ByteBuffer b = ByteBuffer.allocate(100_000);
                    verifyRead(f, s, 0, 100_000, 100_000);
                    try (StoredObject o = store.lookup(other).orElseThrow()) {
                        o.read(0, b);
                    }
                    checked.set(available);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            writeBody(w, s, 1000, 150_000, 49_000);
            await(callback);
            assertThat(checked.get()).isGreaterThanOrEqualTo(100_000);
            w.commit();
        }
    }

    // ------------------------------------------------------------------ concurrency

    @Test
    void concurrentReadersAndAWriterNeverSeeTornData() throws Exception {
        ObjectStore store = store(SMALL * 4);
        int keys = 3;
        AtomicBoolean done = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicLong verifiedReads = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        List<Future<?>> tasks = new ArrayList<>();
        try {
            for (int r = 0; r < 3; r++) {
                int readerId = r;
                tasks.add(pool.submit(() -> {
                    Random random = new Random(readerId);
                    while (!done.get() && errors.isEmpty()) {
                        CacheKey k = key("hot-" + random.nextInt(keys));
                        try {
                            Optional<StoredObject> found = store.lookup(k);
                            if (found.isEmpty()) {
                                continue;
                            }
                            try (StoredObject o = found.get()) {
                                long version = Long.parseLong(o.metadata().header("X-Version").orElseThrow());
                                long size = versionSize(version);
                                assertThat(o.metadata().length()).isEqualTo(size);
                                assertFullyReadable(o, TestContent.seed(k.value(), version), size);
                                verifiedReads.incrementAndGet();
                            }
                        } catch (Throwable t) {
                            errors.add(t);
                        }
                    }
                }));
            }
            ConcurrentLinkedQueue<Future<Long>> followers = new ConcurrentLinkedQueue<>();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2000);
            int version = 0;
            while ((version < 200 && System.nanoTime() < deadline || version < 20) && errors.isEmpty()) {
                CacheKey k = key("hot-" + (version % keys));
                long size = versionSize(version);
                long seed = TestContent.seed(k.value(), version);
                try (ObjectWriter w = store.begin(k, versioned(size, version))) {
                    if (version % 4 == 0) {
                        awaitAllButNewest(followers, MAX_QUEUED_FOLLOWERS);
                        StoredObject f = w.follow();
                        followers.add(pool.submit(() -> {
                            try (f) {
                                return followToEnd(f, seed);
                            }
                        }));
                    }
                    writeBody(w, seed, 0, size, 8192 + version * 101);
                    w.commit();
                }
                version++;
            }
            done.set(true);
            for (Future<?> t : tasks) {
                t.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            for (Future<Long> f : followers) {
                f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } finally {
            done.set(true);
            pool.shutdownNow();
            pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        if (!errors.isEmpty()) {
            AssertionError e = new AssertionError("readers saw bad data: " + errors.peek(), errors.peek());
            errors.stream().skip(1).limit(5).forEach(e::addSuppressed);
            throw e;
        }
        assertThat(verifiedReads.get()).as("verified concurrent reads").isPositive();
    }

    /**
     * Followers open before they are queued and hold their object (and its storage) until they end: on
     * a loaded machine the pool ran them far behind the writer, and raw-log's small test store filled
     * with segments pinned by queued followers (StorageFullException). At most this many stay queued.
     */
    private static final int MAX_QUEUED_FOLLOWERS = 2;

    /**
     * Takes the oldest of {@code futures} off the queue, waiting for each (and rethrowing its failure),
     * until at most {@code keep} are left.
     */
    private static void awaitAllButNewest(ConcurrentLinkedQueue<Future<Long>> futures, int keep) throws Exception {
        while (futures.size() > keep) {
            futures.poll().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static long versionSize(long version) {
        return 1 + (version * 7919L) % 300_000;
    }

    // ------------------------------------------------------------------ stats, lifecycle

    @Test
    void statsCountersMove() throws Exception {
        ObjectStore store = store(ROOMY);
        StoreStats before = store.stats();
        CacheKey k = key("counted");
        put(store, k, seed(k), 20_000, 5000);
        try (StoredObject o = store.lookup(k).orElseThrow()) {
            verifyRead(o, seed(k), 0, 20_000, 20_000);
        }
        assertThat(store.lookup(key("absent"))).isEmpty();
        try (ObjectWriter w = writeUncommitted(store, key("dropped"), metadata(100), 1, 100, 100)) {
            w.abort();
        }
        store.remove(k);
        StoreStats after = store.stats();
        assertThat(after.writesBegun() - before.writesBegun()).as("writesBegun").isEqualTo(2);
        assertThat(after.writesCommitted() - before.writesCommitted()).as("writesCommitted").isEqualTo(1);
        assertThat(after.writesAborted() - before.writesAborted()).as("writesAborted").isEqualTo(1);
        assertThat(after.bytesWritten() - before.bytesWritten()).as("bytesWritten").isGreaterThanOrEqualTo(20_000);
        assertThat(after.bytesRead() - before.bytesRead()).as("bytesRead").isGreaterThanOrEqualTo(20_000);
        assertThat(after.lookups() - before.lookups()).as("lookups").isEqualTo(2);
        assertThat(after.lookupHits() - before.lookupHits()).as("lookupHits").isEqualTo(1);
        assertThat(after.removals() - before.removals()).as("removals").isEqualTo(1);
        assertThat(after.extra()).isNotNull();
    }

    @Test
    void closedStoreRejectsUse() throws Exception {
        ObjectStore store = store(ROOMY);
        CacheKey k = key("before-close");
        put(store, k, seed(k), 1000, 1000);
        assertThat(store.engineName()).isNotBlank();
        store.close();
        assertThatThrownBy(() -> store.lookup(k)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.begin(k, metadata(1))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.remove(k)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.updateMetadata(k, metadata(1000))).isInstanceOf(IllegalStateException.class);
    }

    // ------------------------------------------------------------------ persistence

    @Test
    void persistentStoreKeepsCommittedObjectsAcrossACleanRestart() throws Exception {
        Assumptions.assumeTrue(persistent(), "engine is not persistent");
        StoreUnderTest s = new StoreUnderTest(ROOMY);
        opened.add(s);
        ObjectStore store = s.store;
        Map<CacheKey, Long> kept = new HashMap<>();
        for (int i = 0; i < 12; i++) {
            CacheKey k = key("durable-" + i);
            kept.put(k, put(store, k, seed(k), 1 + i * 77_777L, 30_000));
        }
        CacheKey removed = key("durable-3");
        store.remove(removed);
        kept.remove(removed);
        CacheKey updated = key("durable-5");
        ObjectMetadata refreshed = metadata(kept.get(updated)).refreshed(
                List.of(new HeaderField("ETag", "\"v9\"")), 7, 8, 9);
        assertThat(store.updateMetadata(updated, refreshed)).isTrue();
        CacheKey abortedKey = key("never-committed");
        try (ObjectWriter w = writeUncommitted(store, abortedKey, metadata(10_000), seed(abortedKey), 10_000, 1000)) {
            w.abort();
        }
        CacheKey replaced = key("durable-7");
        long v2 = TestContent.seed(replaced.value(), 2);
        try (ObjectWriter w = writeUncommitted(store, replaced, metadata(4321), v2, 4321, 1000)) {
            w.commit();
        }
        kept.remove(replaced);

        ObjectStore reopened = s.reopen();
        for (Map.Entry<CacheKey, Long> e : kept.entrySet()) {
            try (StoredObject o = reopened.lookup(e.getKey())
                    .orElseThrow(() -> new AssertionError(e.getKey() + " lost in a clean restart"))) {
                assertFullyReadable(o, seed(e.getKey()), e.getValue());
                if (e.getKey().equals(updated)) {
                    assertThat(o.metadata()).isEqualTo(refreshed);
                } else {
                    assertThat(o.metadata()).isEqualTo(metadata(e.getValue()));
                }
            }
        }
        try (StoredObject o = reopened.lookup(replaced).orElseThrow()) {
            assertFullyReadable(o, v2, 4321);
        }
        assertThat(reopened.lookup(removed)).as("removed object after restart").isEmpty();
        assertThat(reopened.lookup(abortedKey)).as("aborted object after restart").isEmpty();
        assertThat(reopened.usage().objectCount()).isEqualTo(kept.size() + 1);
        checkCapacity(reopened, ROOMY);
    }

    @Test
    void persistentStoreDropsUncommittedWritesOnRestart() throws Exception {
        Assumptions.assumeTrue(persistent(), "engine is not persistent");
        StoreUnderTest s = new StoreUnderTest(ROOMY);
        opened.add(s);
        CacheKey k = key("in-flight");
        ObjectWriter w = writeUncommitted(s.store, k, metadata(ObjectMetadata.UNKNOWN_LENGTH), seed(k), 200_000, 8192);
        ObjectStore reopened = s.reopen();
        assertThat(reopened.lookup(k)).as("write in progress at close").isEmpty();
        try {
            w.close();
        } catch (RuntimeException ignored) {
            // the writer's store is closed; closing the writer may fail but must not resurrect it
        }
        assertThat(reopened.lookup(k)).isEmpty();
    }

    // ------------------------------------------------------------------ properties

    /** One step of a random operation sequence. */
    sealed interface Op permits WriteOp, RemoveOp, ReadOp {
    }

    /** How a write ends. */
    enum Ending { COMMIT, ABORT, CLOSE_UNCOMMITTED }

    record WriteOp(int key, int size, int chunk, Ending ending, boolean knownLength) implements Op {
    }

    record RemoveOp(int key) implements Op {
    }

    record ReadOp(int key, double from, double fraction) implements Op {
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<Integer> keys = Arbitraries.integers().between(0, 5);
        Arbitrary<Op> write = Combinators.combine(keys, Arbitraries.integers().between(0, 160_000), Arbitraries.integers().between(512, 70_000),
                        Arbitraries.of(Ending.class), Arbitraries.of(true, false))
                .as((k, size, chunk, ending, known) -> (Op) new WriteOp(k, size, chunk, ending, known));
        Arbitrary<Op> remove = keys.map(RemoveOp::new);
        Arbitrary<Op> read = Combinators.combine(keys, Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1))
                .as((k, from, fraction) -> (Op) new ReadOp(k, from, fraction));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, write), net.jqwik.api.Tuple.of(1, remove), net.jqwik.api.Tuple.of(4, read))
                .list().ofMinSize(1).ofMaxSize(30);
    }

    private record Version(long id, long seed, long size) {
    }

    @Property(tries = 50, shrinking = ShrinkingMode.BOUNDED)
    void randomOperationsAgreeWithAModel(@ForAll("operations") List<Op> ops) throws Exception {
        try (StoreUnderTest s = new StoreUnderTest(TINY)) {
            ObjectStore store = s.store;
            Map<Integer, Version> model = new HashMap<>();
            long nextVersion = 0;
            for (Op op : ops) {
                if (op instanceof WriteOp w) {
                    long id = nextVersion++;
                    CacheKey k = key("k" + w.key());
                    Version v = new Version(id, TestContent.seed(k.value(), id), w.size());
                    ObjectMetadata m = versioned(w.knownLength() ? w.size() : ObjectMetadata.UNKNOWN_LENGTH, id);
                    ObjectWriter writer = store.begin(k, m);
                    try {
                        writeBody(writer, v.seed(), 0, v.size(), w.chunk());
                        checkCapacity(store, TINY);
                        switch (w.ending()) {
                            case COMMIT -> {
                                writer.commit();
                                model.put(w.key(), v);
                            }
                            case ABORT -> writer.abort();
                            case CLOSE_UNCOMMITTED -> { }
                        }
                    } finally {
                        writer.close();
                    }
                } else if (op instanceof RemoveOp r) {
                    boolean removed = store.remove(key("k" + r.key()));
                    Version had = model.remove(r.key());
                    if (removed && had == null) {
                        fail("remove of k" + r.key() + " found an object the model does not have");
                    }
                } else if (op instanceof ReadOp r) {
                    CacheKey k = key("k" + r.key());
                    Version expected = model.get(r.key());
                    Optional<StoredObject> found = store.lookup(k);
                    if (found.isEmpty()) {
                        if (expected != null && store.stats().evictions() == 0) {
                            fail(k + " (version " + expected.id() + ") is absent and nothing was evicted");
                        }
                        if (expected != null) {
                            model.remove(r.key());
                        }
                        continue;
                    }
                    try (StoredObject o = found.get()) {
                        if (expected == null) {
                            fail(k + " is present (version " + o.metadata().header("X-Version").orElse("?")
                                    + ") but was never committed, or was removed");
                        }
                        assertThat(o.metadata().header("X-Version")).as("version of " + k).hasValue(Long.toString(expected.id()));
                        assertThat(o.availableLength()).isEqualTo(expected.size());
                        long from = (long) (r.from() * expected.size());
                        long len = (long) (r.fraction() * (expected.size() - from));
                        verifyRead(o, expected.seed(), from, len, 16_384);
                        verifyViews(o, expected.seed(), from, len, 16_384);
                        verifyFileSlices(o, expected.seed(), from, len, 16_384);
                    }
                }
                checkCapacity(store, TINY);
            }
            for (Map.Entry<Integer, Version> e : model.entrySet()) {
                Optional<StoredObject> found = store.lookup(key("k" + e.getKey()));
                if (found.isPresent()) {
                    try (StoredObject o = found.get()) {
                        assertFullyReadable(o, e.getValue().seed(), e.getValue().size());
                    }
                } else if (store.stats().evictions() == 0) {
                    fail("k" + e.getKey() + " is absent and nothing was evicted");
                }
            }
        }
    }

    @Property(tries = 60, shrinking = ShrinkingMode.BOUNDED)
    void committedBytesReadBackExactlyWhateverTheChunking(
            @ForAll @IntRange(min = 0, max = 400_000) int size,
            @ForAll @Size(min = 1, max = 8) List<@IntRange(min = 1, max = 100_000) Integer> chunking,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 0, max = 1000) Integer> readPoints,
            @ForAll @IntRange(min = 1, max = 70_000) int bufferSize) throws Exception {
        try (StoreUnderTest s = new StoreUnderTest(ROOMY)) {
            CacheKey k = key("chunked-" + size);
            long seed = seed(k);
            try (ObjectWriter w = s.store.begin(k, metadata(size))) {
                long pos = 0;
                for (int i = 0; pos < size; i++) {
                    int n = (int) Math.min(Math.max(chunking.get(i % chunking.size()), size < 5_000 ? 1 : 64), size - pos);
                    writeBody(w, seed, pos, pos + n, n);
                    pos += n;
                }
                w.commit();
            }
            try (StoredObject o = s.store.lookup(k).orElseThrow()) {
                assertFullyReadable(o, seed, size);
                for (int p : readPoints) {
                    long from = (long) size * p / 1000;
                    long len = Math.min(size - from, bufferSize * 3L);
                    verifyRead(o, seed, from, len, bufferSize);
                    verifyViews(o, seed, from, len, bufferSize);
                    verifyFileSlices(o, seed, from, len, bufferSize);
                }
            }
        }
    }

    @Property(tries = 40, shrinking = ShrinkingMode.BOUNDED)
    void capacityIsNeverExceededAndPinnedObjectsStayReadable(
            @ForAll @Size(min = 1, max = 30) List<@IntRange(min = 1, max = 262_144) Integer> sizes,
            @ForAll @Size(min = 30, max = 30) List<Boolean> pins,
            @ForAll @IntRange(min = 0, max = 29) int hugeAt) throws Exception {
        try (StoreUnderTest s = new StoreUnderTest(TINY)) {
            ObjectStore store = s.store;
            List<StoredObject> pinned = new ArrayList<>();
            Map<StoredObject, Long> pinnedSeeds = new HashMap<>();
            Map<StoredObject, Long> pinnedSizes = new HashMap<>();
            try {
                for (int i = 0; i < sizes.size(); i++) {
                    CacheKey k = key("p" + i);
                    long size = i == hugeAt ? TINY + 1 : sizes.get(i);
                    boolean fitsForSure = size <= TINY / 4 && pinned.isEmpty();
                    try (ObjectWriter w = store.begin(k, metadata(i % 2 == 0 ? size : ObjectMetadata.UNKNOWN_LENGTH))) {
                        for (long pos = 0; pos < size; pos += 50_000) {
                            writeBody(w, seed(k), pos, Math.min(size, pos + 50_000), 50_000);
                            checkCapacity(store, TINY);
                        }
                        w.commit();
                        if (size > TINY) {
                            fail("an object of " + size + " bytes was committed in a store of " + TINY);
                        }
                    } catch (StorageFullException e) {
                        if (fitsForSure) {
                            throw new AssertionError("StorageFullException for " + size + " bytes in an unpinned store of "
                                    + TINY, e);
                        }
                        assertThat(store.lookup(k)).isEmpty();
                    }
                    checkCapacity(store, TINY);
                    if (pins.get(i)) {
                        Optional<StoredObject> o = store.lookup(k);
                        if (o.isPresent()) {
                            pinned.add(o.get());
                            pinnedSeeds.put(o.get(), seed(k));
                            pinnedSizes.put(o.get(), size);
                        }
                    } else if (!pinned.isEmpty()) {
                        StoredObject o = pinned.remove(0);
                        assertFullyReadable(o, pinnedSeeds.get(o), pinnedSizes.get(o));
                        o.close();
                    }
                }
                for (StoredObject o : pinned) {
                    assertFullyReadable(o, pinnedSeeds.get(o), pinnedSizes.get(o));
                }
            } finally {
                pinned.forEach(StoredObject::close);
            }
            checkCapacity(store, TINY);
        }
    }

    @Property(tries = 30, shrinking = ShrinkingMode.BOUNDED)
    void followersSeeEveryByteOrTheAbort(
            @ForAll @IntRange(min = 0, max = 300_000) int size,
            @ForAll @IntRange(min = 1, max = 70_000) int chunk,
            @ForAll boolean commit) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (StoreUnderTest s = new StoreUnderTest(ROOMY)) {
            CacheKey k = key("followed");
            long seed = seed(k);
            Future<Long> follower;
            try (ObjectWriter w = s.store.begin(k, metadata(ObjectMetadata.UNKNOWN_LENGTH))) {
                StoredObject f = w.follow();
                follower = pool.submit(() -> {
                    try (f) {
                        return followToEnd(f, seed);
                    }
                });
                writeBody(w, seed, 0, size, Math.max(chunk, size / 200 + 1));
                if (commit) {
                    w.commit();
                }
            }
            try {
                long read = follower.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (!commit) {
                    fail("follower of an aborted write finished normally after " + read + " bytes");
                }
                assertThat(read).isEqualTo(size);
            } catch (ExecutionException e) {
                if (commit || !(e.getCause() instanceof WriteAbortedException)) {
                    throw new AssertionError("follower failed", e.getCause());
                }
            }
            assertThat(s.store.lookup(k).isPresent()).isEqualTo(commit);
        } finally {
            pool.shutdownNow();
        }
    }
}
