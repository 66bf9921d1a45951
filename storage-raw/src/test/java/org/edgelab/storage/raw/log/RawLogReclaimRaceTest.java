package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lookup races the reclaim of a segment holding the object's body: it read the index and is
 * reading the commit record (in another, pinned segment, without the store's lock) when the
 * body's segment is reclaimed. A reclaimed segment is free and will be overwritten when it is
 * activated next, so the lookup must be a miss: pinning it keeps nothing (pins only stop a
 * reclaim), and a reader over it would serve the next object's bytes for this one once they
 * were verified. Under load after a disk failure (half the segments, a burst of refills) this
 * race is frequent.
 */
class RawLogReclaimRaceTest {

    private static final long SEGMENT = 256 * 1024;

    @TempDir
    Path dir;

    @Test
    void aLookupRacingTheReclaimOfItsBodysSegmentIsAMissNotAReaderOfReusedBytes() throws Exception {
        AtomicReference<Runnable> onNextIo = new AtomicReference<>();
        SegmentChannels hooked = (disk, file) -> new FaultyChannel(SegmentChannels.FILES.open(disk, file), () -> {
            Runnable r = onNextIo.getAndSet(null);
            if (r != null) {
                r.run();
            }
            return false; // never fails: the hook only runs store calls at a chosen point of a lookup
        });
        RawLogConfig config = RawLogFixtures.config(dir, 1, 8 * SEGMENT, SEGMENT, RawLogConfig.Policy.FIFO);
        try (RawLogShards store = RawLogShards.open("raw-log", config, hooked)) {
            CacheKey a = CacheKey.of("spans-two-segments");
            long size = 300_000; // the first segment holds its first extents, the second the rest and the commit
            long seed = TestContent.seed(a.value());
            StoreFixtures.put(store, a, seed, size, 16_384);
            int[] fillers = {0};

            // The lookup's first I/O is the read of a's commit record, after it took the index entry
            // and pinned only the record's segment: write until the oldest segment (a's first extents)
            // has been reclaimed, and stop while it is still free, before anything reuses it.
            onNextIo.set(() -> {
                try {
                    while (store.stats().evictions() == 0) {
                        putFiller(store, fillers[0]++);
                    }
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            Optional<StoredObject> found = store.lookup(a);
            assertThat(onNextIo.get()).as("the hook ran inside the lookup").isNull();
            assertThat(store.stats().evictions()).as("a's first segment was reclaimed during the lookup").isPositive();
            if (found.isPresent()) {
                try (StoredObject o = found.get()) {
                    StoreFixtures.verifyRead(o, seed, 0, 4096, 4096); // verifies a's first extent: still intact
                    // The freed segment is activated again and overwritten by later writes; the reader's pin
                    // does not stop that. Then bytes of the extent verified above are read again, unchecked
                    // (extents here are at most a quarter segment).
                    for (int i = 0; i < 40; i++) {
                        putFiller(store, fillers[0]++);
                    }
                    StoreFixtures.verifyRead(o, seed, 4096, 16_384, 4096);
                }
            }
            assertThat(found).as("a lookup whose body's segment was reclaimed under it is a miss").isEmpty();
        }
    }

    private static void putFiller(RawLogShards store, int i) throws IOException {
        CacheKey k = CacheKey.of("filler-" + i);
        StoreFixtures.put(store, k, TestContent.seed(k.value()), 20_000, 16_384);
    }
}
