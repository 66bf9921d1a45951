package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that starts failing while serving (an injected I/O error on its segment channels):
 * its objects become misses, it shows FAILING then OFFLINE, and the other disk keeps serving and
 * taking writes. (Tests run as root, so {@code chmod 000} would not make a directory unreadable.)
 */
class RawLogDiskFailureTest {

    @TempDir
    Path dir;

    @Test
    void aFailingDisksObjectsBecomeMissesWhileTheOtherDiskServesAndTakesWrites() throws Exception {
        AtomicBoolean disk1Fails = new AtomicBoolean();
        SegmentChannels faulty = (disk, file) -> disk == 1
                ? new FaultyChannel(SegmentChannels.FILES.open(disk, file), disk1Fails::get)
                : SegmentChannels.FILES.open(disk, file);
        RawLogConfig config = new RawLogConfig(List.of(dir.resolve("d0"), dir.resolve("d1")), 16L << 20, 1L << 20,
                RawLogConfig.Policy.FIFO, RawLogConfig.SyncMode.NONE, 0, false);
        try (RawLogShards store = RawLogShards.open("raw-log", config, faulty)) {
            int n = 40;
            long size = 100_000;
            for (int i = 0; i < n; i++) {
                CacheKey k = CacheKey.of("obj-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), size, 16_384);
            }
            assertThat(store.stats().extra()).containsEntry("disk.0.state", "ONLINE").containsEntry("disk.1.state", "ONLINE");

            disk1Fails.set(true);
            int served = 0;
            int missed = 0;
            for (int i = 0; i < n; i++) {
                CacheKey k = CacheKey.of("obj-" + i);
                if (readsBackExactly(store, k, size)) {
                    served++;
                } else {
                    missed++;
                }
            }
            System.out.printf("raw-log disk failure: %d objects served from disk 0, %d lost with disk 1; stats %s%n",
                    served, missed, store.stats().extra());
            assertThat(served).as("objects on the healthy disk").isPositive();
            assertThat(missed).as("objects on the failed disk").isPositive();
            assertThat(store.stats().extra().get("disk.1.state")).isIn("FAILING", "OFFLINE");
            assertThat(store.stats().extra()).containsEntry("disk.0.state", "ONLINE");
            assertThat(store.usage().objectCount()).isEqualTo(served);
            // no reader pins disk 1 any more, so it has been retired
            assertThat(store.stats().extra()).containsEntry("disk.1.state", "OFFLINE");

            for (int i = 0; i < 30; i++) {
                CacheKey k = CacheKey.of("after-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), size, 16_384);
            }
            for (int i = 0; i < 30; i++) {
                CacheKey k = CacheKey.of("after-" + i);
                assertThat(readsBackExactly(store, k, size)).as("%s written after the failure", k).isTrue();
            }
        }
    }

    /**
     * Objects of several segments, written by concurrent writers, each live wholly on one disk: when one of two disks
     * fails, exactly the objects of the other one are still served, byte-exact. (With one log spread over both disks,
     * every such object had extents on both, and a failure of either lost nearly all of them.)
     */
    @Test
    void aFailedDiskLosesOnlyTheObjectsItHoldsEvenWhenTheySpanSegments() throws Exception {
        AtomicBoolean disk1Fails = new AtomicBoolean();
        SegmentChannels faulty = (disk, file) -> disk == 1
                ? new FaultyChannel(SegmentChannels.FILES.open(disk, file), disk1Fails::get)
                : SegmentChannels.FILES.open(disk, file);
        RawLogConfig config = new RawLogConfig(List.of(dir.resolve("d0"), dir.resolve("d1")), 32L << 20, 1L << 20,
                RawLogConfig.Policy.FIFO, RawLogConfig.SyncMode.NONE, 0, false);
        try (RawLogShards store = RawLogShards.open("raw-log", config, faulty)) {
            int n = 6;
            long size = (2L << 20) + 12_345; // three segments' worth of extents
            java.util.concurrent.ExecutorService writers = java.util.concurrent.Executors.newFixedThreadPool(3);
            try {
                List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
                for (int i = 0; i < n; i++) {
                    CacheKey k = CacheKey.of("big-" + i);
                    done.add(writers.submit(() -> {
                        StoreFixtures.put(store, k, TestContent.seed(k.value()), size, 16_384);
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<?> f : done) {
                    f.get();
                }
            } finally {
                writers.shutdownNow();
            }
            int onDisk0 = 0;
            for (int i = 0; i < n; i++) {
                onDisk0 += store.homeDiskOf(CacheKey.of("big-" + i)) == 0 ? 1 : 0;
            }
            assertThat(store.usage().objectCount()).isEqualTo(n);
            assertThat(onDisk0).as("objects whose disk is disk 0").isBetween(1, n - 1);

            disk1Fails.set(true);
            for (int i = 0; i < n; i++) {
                CacheKey k = CacheKey.of("big-" + i);
                // the first read of a disk-1 object meets the fault and takes the disk out
                readsBackExactly(store, k, size);
            }
            for (int i = 0; i < n; i++) {
                CacheKey k = CacheKey.of("big-" + i);
                assertThat(readsBackExactly(store, k, size)).as("%s, on disk %d", k, store.homeDiskOf(k))
                        .isEqualTo(store.homeDiskOf(k) == 0);
            }
            assertThat(store.usage().objectCount()).isEqualTo(onDisk0);
            assertThat(store.stats().extra()).containsEntry("objectsLostToDiskFailure", (long) (n - onDisk0))
                    .containsEntry("disk.0.state", "ONLINE");
        }
    }

    @Test
    void aDiskThatCannotBeOpenedIsOfflineAndTheOthersServe() throws Exception {
        Path notADirectory = dir.resolve("file");
        java.nio.file.Files.writeString(notADirectory, "not a directory");
        RawLogConfig config = new RawLogConfig(List.of(dir.resolve("d0"), notADirectory), 16L << 20, 1L << 20,
                RawLogConfig.Policy.FIFO, RawLogConfig.SyncMode.NONE, 0, false);
        try (RawLogShards store = RawLogShards.open("raw-log", config, SegmentChannels.FILES)) {
            assertThat(store.stats().extra()).containsEntry("disk.0.state", "ONLINE").containsEntry("disk.1.state", "OFFLINE");
            for (int i = 0; i < 20; i++) {
                CacheKey k = CacheKey.of("o-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), 200_000, 65_536);
                assertThat(readsBackExactly(store, k, 200_000)).isTrue();
            }
        }
    }

    private static boolean readsBackExactly(org.edgelab.storage.api.ObjectStore store, CacheKey k, long size) throws IOException {
        Optional<StoredObject> found = store.lookup(k);
        if (found.isEmpty()) {
            return false;
        }
        try (StoredObject o = found.get()) {
            ByteBuffer buf = ByteBuffer.allocate((int) size);
            try {
                while (buf.hasRemaining() && o.read(buf.position(), buf) > 0) {
                    // keep reading
                }
            } catch (IOException e) {
                return false; // the object's disk failed under the reader
            }
            buf.flip();
            TestContent.assertMatches(k.value(), TestContent.seed(k.value()), 0, buf);
            return buf.remaining() == size;
        }
    }
}
