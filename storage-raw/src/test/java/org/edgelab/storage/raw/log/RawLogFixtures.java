package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;

/** Helpers shared by the raw-log tests. Stateless. */
final class RawLogFixtures {

    /** What a lookup and full read of an object gave. */
    enum Outcome { EXACT, MISS, CORRUPT }

    private RawLogFixtures() {
    }

    static RawLogConfig config(Path dir, int disks, long capacity, long segment, RawLogConfig.Policy policy) {
        List<Path> paths = java.util.stream.IntStream.range(0, disks).mapToObj(i -> dir.resolve("disk" + i)).toList();
        return new RawLogConfig(paths, capacity, segment, policy, RawLogConfig.SyncMode.NONE, 0, false);
    }

    static RawLogShards open(RawLogConfig config) throws IOException {
        return RawLogShards.open("raw-log", config, SegmentChannels.FILES);
    }

    /** Sizes used by the tests: 1 byte to ~300 KB, a pure function of the index. */
    static long sizeOf(int i) {
        return 1 + (TestContent.seed("size-" + i) >>> 1) % 300_000;
    }

    /**
     * Looks the key up and reads it whole: EXACT if every byte matches (any wrong byte fails the
     * test), MISS if absent, CORRUPT if the engine reported it corrupt (it must then be a miss).
     */
    static Outcome check(RawLogShards store, CacheKey key, long size) throws IOException {
        Optional<StoredObject> found = store.lookup(key);
        if (found.isEmpty()) {
            return Outcome.MISS;
        }
        long seed = TestContent.seed(key.value());
        try (StoredObject o = found.get()) {
            if (o.availableLength() != size) {
                throw new AssertionError(key + " has length " + o.availableLength() + ", expected " + size);
            }
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            long pos = 0;
            while (pos < size) {
                buf.clear();
                int n = o.read(pos, buf);
                if (n <= 0) {
                    throw new AssertionError(key + " ends early at " + pos);
                }
                buf.flip();
                TestContent.assertMatches(key.value(), seed, pos, buf);
                pos += n;
            }
            return Outcome.EXACT;
        } catch (CorruptObjectException e) {
            if (store.lookup(key).isPresent()) {
                throw new AssertionError(key + " is still served after it was reported corrupt", e);
            }
            return Outcome.CORRUPT;
        }
    }

    /** Stores {@code n} objects {@code prefix0...} of {@code size} bytes, in pieces of 16 KiB. */
    static void put(RawLogShards store, String prefix, int n, long size) throws IOException {
        for (int i = 0; i < n; i++) {
            CacheKey k = CacheKey.of(prefix + i);
            StoreFixtures.put(store, k, TestContent.seed(k.value()), size, 16_384);
        }
    }

    /** How many of those objects are served whole and byte-exact; a miss, or a read cut by a failing disk, is not. */
    static int served(RawLogShards store, String prefix, int n, long size) throws IOException {
        int exact = 0;
        for (int i = 0; i < n; i++) {
            CacheKey k = CacheKey.of(prefix + i);
            try {
                if (check(store, k, size) == Outcome.EXACT) {
                    exact++;
                }
            } catch (org.edgelab.storage.api.StorageException e) {
                // its disk failed under the reader
            }
        }
        return exact;
    }

    /** Waits until the store's stats show disk {@code disk} in {@code state}; fails after {@code patience}. */
    static void awaitState(RawLogShards store, int disk, String state, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (!state.equals(store.stats().extra().get("disk." + disk + ".state"))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("disk " + disk + " not " + state + " within " + patience + ": " + store.stats().extra());
            }
            Thread.sleep(20);
        }
    }
}
