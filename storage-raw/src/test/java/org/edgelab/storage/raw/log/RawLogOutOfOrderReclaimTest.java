package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A reader pinning the oldest segment makes the log reclaim a newer one first. When that newer one held the record
 * that replaced or removed a key whose older record the pinned segment still holds, a restart must not bring the older
 * record back: not from a scan of the whole log, not from a checkpoint taken before the key was replaced or removed.
 */
class RawLogOutOfOrderReclaimTest {

    private static final long SIZE = 100_000;
    private static final CacheKey KEY = CacheKey.of("replaced-or-removed");
    private static final long FIRST = TestContent.seed("first version");
    private static final long SECOND = TestContent.seed("second version");
    private static final CacheKey PINNED = CacheKey.of("pinned-0");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, restart from {1}")
    @CsvSource({"replaced, scan", "replaced, checkpoint", "removed, scan", "removed, checkpoint"})
    void aRestartNeverServesTheRecordANewerOneSuperseded(String change, String restartFrom) throws Exception {
        // 8 segments of 1 MiB, fifo: nothing is re-appended, so the key's newest record goes with its segment
        RawLogConfig config = RawLogFixtures.config(dir, 1, 8L << 20, 1L << 20, RawLogConfig.Policy.FIFO);
        Path checkpoint = dir.resolve("disk0").resolve(Checkpoint.FILE);
        Path saved = dir.resolve("before-the-change.ckpt");
        try (RawLogShards store = RawLogFixtures.open(config)) {
            StoreFixtures.put(store, KEY, FIRST, SIZE, 16_384);
            RawLogFixtures.put(store, "pinned-", 2, SIZE); // beside the first version, in the oldest segment
            store.checkpoint();
            Files.copy(checkpoint, saved);
            try (StoredObject reader = store.lookup(PINNED).orElseThrow()) {
                RawLogFixtures.put(store, "later-", 12, SIZE); // the oldest segment is sealed behind these
                if (change.equals("replaced")) {
                    StoreFixtures.put(store, KEY, SECOND, SIZE, 16_384);
                } else {
                    assertThat(store.remove(KEY)).isTrue();
                }
                // three passes over the other segments: the one with the change is reclaimed while the reader pins
                // the oldest, and so is any segment a tombstone was carried into
                RawLogFixtures.put(store, "filler-", 3 * 80, SIZE);
                assertThat(store.lookup(KEY)).as("the change went with its segment").isEmpty();
                assertThat(reader.availableLength()).isEqualTo(SIZE);
                assertThat((Long) store.stats().extra().get("tombstonesCarried")).as("tombstones carried").isPositive();
            }
        }
        if (restartFrom.equals("scan")) {
            Files.delete(checkpoint);
        } else {
            // as if the process had died before a later checkpoint
            Files.copy(saved, checkpoint, StandardCopyOption.REPLACE_EXISTING);
        }
        try (RawLogShards store = RawLogFixtures.open(config)) {
            assertThat(RawLogFixtures.check(store, PINNED, SIZE)).as("the pinned segment was kept and replayed")
                    .isEqualTo(RawLogFixtures.Outcome.EXACT);
            Optional<StoredObject> found = store.lookup(KEY);
            assertThat(found).as("the first version, which the " + change + " key's newer record superseded").isEmpty();
        }
    }
}
