package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hit never waits for a write: the store's lock, which a writer holds across its small record writes (and which the
 * kernel may keep in {@code pwrite} for hundreds of milliseconds when it throttles dirty pages), is not taken by
 * lookups. Before the lookup lock, a lookup waited for every such write (docs/BENCHMARKS.md, 2026-12-06: whole seconds
 * with no hit served on loop-device ext4). And a segment that a lookup pins while it is being reclaimed is not reused
 * under the reader: it drains until its last pin goes.
 */
class RawLogLookupLockTest {

    private static final CacheKey STORED = CacheKey.of("stored-before");
    private static final CacheKey WRITTEN = CacheKey.of("written-while-stalled");
    private static final long SIZE = 1L << 20;

    @TempDir
    Path dir;

    @Test
    void aLookupAndItsReadCompleteWhileAWriterIsStuckInAWriteUnderTheStoreLock() throws Exception {
        CountDownLatch writerStuck = new CountDownLatch(1);
        CountDownLatch device = new CountDownLatch(1);
        Thread[] writer = new Thread[1];
        RawLogConfig config = RawLogFixtures.config(dir, 1, 32L << 20, 4L << 20, RawLogConfig.Policy.REINSERT);
        try (RawLogShards store = RawLogShards.open("raw-log", config, (disk, file) -> new FaultyChannel(
                SegmentChannels.FILES.open(disk, file), () -> {
                    if (Thread.currentThread() == writer[0]) { // every I/O of the writer waits for the "device"
                        writerStuck.countDown();
                        try {
                            device.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return false;
                }))) {
            StoreFixtures.put(store, STORED, TestContent.seed(STORED.value()), SIZE, 64 * 1024);

            CompletableFuture<Void> written = new CompletableFuture<>();
            writer[0] = new Thread(() -> {
                // its first write allocates an extent, whose header is written with the store's lock held
                try (ObjectWriter w = StoreFixtures.writeUncommitted(store, WRITTEN, StoreFixtures.metadata(SIZE),
                        TestContent.seed(WRITTEN.value()), SIZE, 64 * 1024)) {
                    w.commit();
                    written.complete(null);
                } catch (Throwable t) {
                    written.completeExceptionally(t);
                }
            }, "stalled-writer");
            writer[0].start();
            assertThat(writerStuck.await(10, TimeUnit.SECONDS)).as("the writer reached the device").isTrue();
            Thread.sleep(50); // let it settle in the write: the lookup below must not depend on the writer's timing

            CompletableFuture<Void> hit = CompletableFuture.runAsync(() -> {
                try {
                    Optional<StoredObject> found = store.lookup(STORED);
                    assertThat(found).isPresent();
                    try (StoredObject o = found.get()) {
                        StoreFixtures.verifyRead(o, TestContent.seed(STORED.value()), 0, SIZE, 64 * 1024);
                    }
                    assertThat(store.lookup(CacheKey.of("never-stored"))).isEmpty();
                    assertThat(store.usage().objectCount()).isEqualTo(1);
                    assertThat(store.stats().extra()).containsKey("segmentsDraining");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try {
                hit.get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("a lookup waited for a writer stuck in a write (the store's lock)", e);
            } finally {
                assertThat(written).as("the writer is still stuck in its write").isNotDone();
                device.countDown();
            }
            written.get(10, TimeUnit.SECONDS);
            Optional<StoredObject> found = store.lookup(WRITTEN);
            assertThat(found).isPresent();
            try (StoredObject o = found.get()) {
                StoreFixtures.verifyRead(o, TestContent.seed(WRITTEN.value()), 0, SIZE, 64 * 1024);
            }
        }
    }

    @Test
    void aSlotPinnedWhileItIsReclaimedIsNotReusedUntilItsLastPinIsReleased() throws Exception {
        long segment = 64 * 1024;
        ReentrantLock lock = new ReentrantLock();
        ReentrantLock lookupLock = new ReentrantLock();
        DiskHealth disks = new DiskHealth(List.of(dir.resolve("d0")), lock);
        SegmentSlots slots = new SegmentSlots(4, segment, disks, lock, lookupLock);
        for (Segment s : slots.all()) {
            Files.createDirectories(disks.dir(0));
            FileChannel ch = FileChannel.open(disks.dir(0).resolve(Segment.fileName(s.slot)), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE);
            ch.write(ByteBuffer.wrap(new byte[1]), segment - 1);
            s.open(ch);
        }
        slots.finishRecovery(1);
        PinSet reader = slots.newPins();
        Segment[] pinnedVictim = new Segment[1];
        slots.reclaimer(victim -> {
            if (pinnedVictim[0] == null) { // a lookup pins it while its warm objects are copied (no lookup lock held)
                lookupLock.lock();
                try {
                    slots.pin(reader, victim);
                } finally {
                    lookupLock.unlock();
                }
                pinnedVictim[0] = victim;
            }
        });
        byte[] key = "k".repeat(2000).getBytes(java.nio.charset.StandardCharsets.US_ASCII); // ~30 records a segment
        int length = RecordFormat.tombstoneLength(key);
        lock.lock();
        try {
            for (int i = 0; i < 1_000 && pinnedVictim[0] == null; i++) {
                slots.appendRecord(length, (slot, generation) -> RecordFormat.tombstone(generation, key), null);
            }
            Segment victim = pinnedVictim[0];
            assertThat(victim).as("a segment was reclaimed").isNotNull();
            long generation = victim.generation();
            assertThat(victim.state()).isEqualTo(SlotState.FREE);
            assertThat(slots.isQueuedFree(victim)).as("pinned: not queued for reuse").isFalse();
            assertThat(slots.drainingCount()).isEqualTo(1);
            for (int i = 0; i < 200; i++) { // the log goes round the other slots meanwhile
                long[] at = slots.appendRecord(length, (slot, g) -> RecordFormat.tombstone(g, key), null);
                assertThat((int) at[0]).as("a record went into the slot a reader still reads").isNotEqualTo(victim.slot);
            }
            assertThat(victim.generation()).as("never activated again while pinned").isEqualTo(generation);

            reader.release();
            for (int i = 0; i < 400 && victim.generation() == generation; i++) {
                slots.appendRecord(length, (slot, g) -> RecordFormat.tombstone(g, key), null);
            }
            assertThat(victim.generation()).as("reused once its last pin was released").isGreaterThan(generation);
            assertThat(slots.drainingCount()).isZero();
        } finally {
            lock.unlock();
            slots.closeAll();
        }
    }
}
