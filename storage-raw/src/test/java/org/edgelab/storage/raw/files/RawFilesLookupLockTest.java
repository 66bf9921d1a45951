package org.edgelab.storage.raw.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.edgelab.storage.raw.io.ReadAhead;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hit never waits for the file-system calls made under the store's lock: an eviction's unlink or a publish's rename
 * into place (which the kernel may keep for hundreds of milliseconds when it throttles a busy ext4 journal) does not
 * hold up a lookup of another object. A lookup that opens a key's path just after a newer version was renamed onto
 * it neither deletes the new file nor misses: it serves the new version whole. And a metadata update's in-place header
 * rewrite never lands in a newer version renamed onto the path after the update's lookup.
 */
class RawFilesLookupLockTest {

    private static final CacheKey STORED = CacheKey.of("stored-before");
    private static final CacheKey FILLER = CacheKey.of("evicted-first");
    private static final CacheKey WRITTEN = CacheKey.of("written-while-stalled");
    private static final long SIZE = 1L << 20;
    private static final int CHUNK = 64 * 1024;

    @TempDir
    Path dir;

    private final StallingFileOps fileOps = new StallingFileOps();

    private RawFilesStore open(long capacity) throws IOException {
        return RawFilesStore.open(dir, capacity, "lru", SyncMode.NONE, "1:2", ReadAhead.parse("off"), 0, fileOps);
    }

    private Path fileOf(CacheKey key) {
        return new FileLayout(dir, FileLayout.parseLevels("1:2")).pathOf(key);
    }

    @Test
    void aLookupAndItsReadCompleteWhileAnEvictionIsStuckInAnUnlinkUnderTheStoreLock() throws Exception {
        // Two objects fill two thirds of the store: the third one's begin evicts the least recently used, FILLER.
        try (RawFilesStore store = open(3 * SIZE)) {
            StoreFixtures.put(store, FILLER, TestContent.seed(FILLER.value()), SIZE, CHUNK);
            StoreFixtures.put(store, STORED, TestContent.seed(STORED.value()), SIZE, CHUNK);
            fileOps.deleteTarget = fileOf(FILLER);

            CompletableFuture<Void> written = writeInBackground(store, WRITTEN, TestContent.seed(WRITTEN.value()), SIZE);
            assertThat(fileOps.stuck.await(10, TimeUnit.SECONDS)).as("the eviction reached the unlink").isTrue();
            Thread.sleep(50); // let it settle in the unlink: the lookup below must not depend on the writer's timing

            assertHitWhileStuck(store, written, "an eviction stuck in an unlink");
            written.get(10, TimeUnit.SECONDS);
            assertThat(fileOf(FILLER)).doesNotExist();
            assertThat(store.lookup(FILLER)).isEmpty();
            assertServed(store, WRITTEN, TestContent.seed(WRITTEN.value()), SIZE);
            assertServed(store, STORED, TestContent.seed(STORED.value()), SIZE);
            assertThat(store.stats().evictions()).isEqualTo(1);
        }
    }

    @Test
    void aLookupAndItsReadCompleteWhileAPublishIsStuckInItsRenameUnderTheStoreLock() throws Exception {
        try (RawFilesStore store = open(16 * SIZE)) {
            StoreFixtures.put(store, STORED, TestContent.seed(STORED.value()), SIZE, CHUNK);
            fileOps.moveTarget = fileOf(WRITTEN);

            CompletableFuture<Void> written = writeInBackground(store, WRITTEN, TestContent.seed(WRITTEN.value()), SIZE);
            assertThat(fileOps.stuck.await(10, TimeUnit.SECONDS)).as("the publish reached the rename").isTrue();
            Thread.sleep(50); // let it settle in the rename

            assertHitWhileStuck(store, written, "a publish stuck in its rename");
            written.get(10, TimeUnit.SECONDS);
            assertServed(store, WRITTEN, TestContent.seed(WRITTEN.value()), SIZE);
        }
    }

    @Test
    void aLookupRacingAReplacementOfItsKeyServesTheNewVersionAndNeverDeletesIt() throws Exception {
        CacheKey key = CacheKey.of("replaced");
        long oldSeed = TestContent.seed("version 1");
        long newSeed = TestContent.seed("version 2");
        long newSize = SIZE + 4096; // another length: the old entry's header check fails on the new file
        try (RawFilesStore store = open(16 * SIZE)) {
            StoreFixtures.put(store, key, oldSeed, SIZE, CHUNK);
            fileOps.moveTarget = fileOf(key);
            fileOps.stallAfterMove = true; // the new file is in place, the index still names the old one

            CompletableFuture<Void> written = writeInBackground(store, key, newSeed, newSize);
            assertThat(fileOps.stuck.await(10, TimeUnit.SECONDS)).as("the publish renamed the new version").isTrue();

            CompletableFuture<Void> hit = new CompletableFuture<>();
            Thread reader = new Thread(() -> {
                try {
                    Optional<StoredObject> found = store.lookup(key);
                    assertThat(found).as("a lookup racing the replacement found the object").isPresent();
                    try (StoredObject o = found.get()) {
                        assertThat(o.metadata().length()).isEqualTo(newSize);
                        StoreFixtures.verifyRead(o, newSeed, 0, newSize, CHUNK);
                    }
                    hit.complete(null);
                } catch (Throwable t) {
                    hit.completeExceptionally(t);
                }
            }, "racing-reader");
            reader.start();
            awaitParkedOrDone(reader); // it opened the new file and waits for the publish to end, or it is done
            fileOps.device.countDown();

            written.get(10, TimeUnit.SECONDS);
            assertThat(fileOf(key)).as("the new version's file").exists();
            hit.get(10, TimeUnit.SECONDS);
            assertServed(store, key, newSeed, newSize);
            StoreStats stats = store.stats();
            assertThat(stats.corruptObjectsDropped()).as("nothing was dropped as corrupt").isZero();
            assertThat(stats.extra()).containsEntry("committedBytes", Files.size(fileOf(key)))
                    .containsEntry("reservedBytes", 0L).containsEntry("pinnedBytes", 0L);
            assertThat(store.usage().objectCount()).isEqualTo(1);
        }
    }

    @Test
    void aMetadataUpdateRacingAReplacementRewritesTheOldVersionsHeaderNeverTheNewOnes() throws Exception {
        CacheKey key = CacheKey.of("updated-and-replaced");
        long oldSeed = TestContent.seed("version 1");
        long newSeed = TestContent.seed("version 2"); // same length, another checksum
        try (RawFilesStore store = open(16 * SIZE)) {
            StoreFixtures.put(store, key, oldSeed, SIZE, CHUNK);
            fileOps.rewriteTarget = fileOf(key);

            CompletableFuture<Boolean> updated = CompletableFuture.supplyAsync(() -> {
                try {
                    return store.updateMetadata(key, StoreFixtures.metadata(SIZE));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            assertThat(fileOps.stuck.await(10, TimeUnit.SECONDS)).as("the update looked up and reached the open").isTrue();
            CompletableFuture<Void> written = writeInBackground(store, key, newSeed, SIZE);
            try {
                // The replacement must wait for the rewrite: were it renamed onto the path now, the rewrite would
                // open the new version's file and give it the old version's checksum.
                written.get(1, TimeUnit.SECONDS);
            } catch (TimeoutException expected) {
                // it waits for the store's lock
            }
            fileOps.device.countDown();

            assertThat(updated.get(10, TimeUnit.SECONDS)).isTrue();
            written.get(10, TimeUnit.SECONDS);
            assertServed(store, key, newSeed, SIZE);
            assertThat(store.stats().corruptObjectsDropped()).as("nothing was dropped as corrupt").isZero();
        }
    }

    /** Writes and commits {@code key} on a thread of its own; the future completes when the commit returns. */
    private static CompletableFuture<Void> writeInBackground(RawFilesStore store, CacheKey key, long seed, long size) {
        CompletableFuture<Void> written = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try (ObjectWriter w = StoreFixtures.writeUncommitted(store, key, StoreFixtures.metadata(size),
                    seed, size, CHUNK)) {
                w.commit();
                written.complete(null);
            } catch (Throwable t) {
                written.completeExceptionally(t);
            }
        }, "stalled-writer");
        writer.start();
        return written;
    }

    /** Looks STORED up and reads it whole (and asks what else a request asks) while the writer is stuck. */
    private void assertHitWhileStuck(RawFilesStore store, CompletableFuture<Void> written, String stuck)
            throws Exception {
        CompletableFuture<Void> hit = CompletableFuture.runAsync(() -> {
            try {
                assertServed(store, STORED, TestContent.seed(STORED.value()), SIZE);
                assertThat(store.lookup(CacheKey.of("never-stored"))).isEmpty();
                assertThat(store.lookup(WRITTEN)).as("not committed yet").isEmpty();
                assertThat(store.usage().objectCount()).isEqualTo(1);
                assertThat(store.stats().extra()).containsKey("reservedBytes");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            hit.get(10, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("a lookup waited for " + stuck + " (the store's lock)", e);
        } finally {
            assertThat(written).as("the writer is still stuck").isNotDone();
            fileOps.device.countDown();
        }
    }

    private static void assertServed(RawFilesStore store, CacheKey key, long seed, long size) throws IOException {
        Optional<StoredObject> found = store.lookup(key);
        assertThat(found).as("'%s' is served", key.value()).isPresent();
        try (StoredObject o = found.get()) {
            assertThat(o.metadata().length()).isEqualTo(size);
            StoreFixtures.verifyRead(o, seed, 0, size, CHUNK);
        }
    }

    /** Waits until {@code t} is parked (on a lock) or has ended; fails after 10 s. */
    private static void awaitParkedOrDone(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.isAlive() && t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            assertThat(System.nanoTime()).as("the reader parked or ended").isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    /**
     * The store's file-system calls, one of which (the unlink of {@code deleteTarget}, or the rename onto
     * {@code moveTarget}, before or after it is done) waits for {@code device} like a throttled journal would.
     * Thread-safe.
     */
    private static final class StallingFileOps implements FileOps {

        final CountDownLatch stuck = new CountDownLatch(1);
        final CountDownLatch device = new CountDownLatch(1);
        volatile Path deleteTarget;
        volatile Path moveTarget;
        volatile boolean stallAfterMove;
        volatile Path rewriteTarget;

        @Override
        public void delete(Path path) throws IOException {
            if (path.equals(deleteTarget)) {
                stall();
            }
            FileOps.DIRECT.delete(path);
        }

        @Override
        public void moveIntoPlace(Path from, Path to) throws IOException {
            boolean target = to.equals(moveTarget);
            if (target && !stallAfterMove) {
                stall();
            }
            FileOps.DIRECT.moveIntoPlace(from, to);
            if (target && stallAfterMove) {
                stall();
            }
        }

        @Override
        public FileChannel openForRewrite(Path path) throws IOException {
            if (path.equals(rewriteTarget)) {
                stall();
            }
            return FileOps.DIRECT.openForRewrite(path);
        }

        private void stall() throws IOException {
            stuck.countDown();
            try {
                if (!device.await(30, TimeUnit.SECONDS)) {
                    throw new IOException("the test never released the stalled call");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while stalled", e);
            }
        }
    }
}
