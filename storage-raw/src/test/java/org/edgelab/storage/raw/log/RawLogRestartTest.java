package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restarts: a filled cache of 100,000 objects serves its first hit within seconds of start, from
 * the checkpoint and, with the checkpoint gone, from a scan of the log; objects written after the
 * last checkpoint come back through the scan.
 */
class RawLogRestartTest {

    private static final int OBJECTS = 100_000;
    private static final int SIZE = 512;

    @TempDir
    Path dir;

    private PluginSettings settings() {
        return PluginSettings.of("disks", dir.resolve("d0") + "," + dir.resolve("d1"), "capacity", "256m",
                "segment-size", "16m", "checkpoint-interval", "0");
    }

    @Test
    void aFilledCacheOf100kObjectsServesItsFirstHitWithinSecondsOfStart() throws Exception {
        ByteBuffer body = ByteBuffer.allocate(SIZE);
        long writeStart = System.nanoTime();
        try (ObjectStore store = StorageEngines.open("raw-log", settings())) {
            for (int i = 0; i < OBJECTS; i++) {
                CacheKey k = CacheKey.of("http://origin/object/" + i);
                TestContent.fill(TestContent.seed(k.value()), 0, body.clear());
                try (ObjectWriter w = store.begin(k, StoreFixtures.metadata(SIZE))) {
                    w.write(body.flip());
                    w.commit();
                }
            }
            assertThat(store.usage().objectCount()).isEqualTo(OBJECTS);
            System.out.printf("raw-log: wrote %d objects of %d B in %d ms; index %s bytes/object%n", OBJECTS, SIZE,
                    (System.nanoTime() - writeStart) / 1_000_000, store.stats().extra().get("indexBytesPerObject"));
        }

        long fromCheckpoint = restartToFirstHit("checkpoint");
        deleteCheckpoints();
        long fromScan = restartToFirstHit("full log scan");
        assertThat(fromCheckpoint).as("restart-to-first-hit from the checkpoint, ms (target < 5 s)").isLessThan(5_000);
        assertThat(fromScan).as("restart-to-first-hit from a log scan, ms").isLessThan(30_000);
    }

    private long restartToFirstHit(String how) throws IOException {
        CacheKey probe = CacheKey.of("http://origin/object/" + (OBJECTS - 1));
        long start = System.nanoTime();
        try (ObjectStore store = StorageEngines.open("raw-log", settings())) {
            try (StoredObject o = store.lookup(probe).orElseThrow(() -> new AssertionError("no hit after restart"))) {
                ByteBuffer buf = ByteBuffer.allocate(SIZE);
                o.read(0, buf);
                long elapsed = (System.nanoTime() - start) / 1_000_000;
                TestContent.assertMatches(probe.value(), TestContent.seed(probe.value()), 0, buf.flip());
                System.out.printf("raw-log restart-to-first-hit (%s, %d objects): %d ms; %s%n", how, OBJECTS, elapsed,
                        store.stats().extra().get("recovery"));
                assertThat(store.usage().objectCount()).isEqualTo(OBJECTS);
                for (int i = 0; i < OBJECTS; i += 997) {
                    CacheKey k = CacheKey.of("http://origin/object/" + i);
                    assertThat(RawLogFixtures.check((RawLogShards) store, k, SIZE)).isEqualTo(RawLogFixtures.Outcome.EXACT);
                }
                return elapsed;
            }
        }
    }

    @Test
    void objectsWrittenAfterTheLastCheckpointComeBackThroughTheScan() throws Exception {
        RawLogConfig config = RawLogFixtures.config(dir, 1, 32L << 20, 1L << 20, RawLogConfig.Policy.FIFO);
        try (RawLogShards store = RawLogFixtures.open(config)) {
            for (int i = 0; i < 40; i++) {
                CacheKey k = CacheKey.of("before-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), RawLogFixtures.sizeOf(i), 20_000);
            }
            store.checkpoint();
            Path saved = dir.resolve("saved.ckpt");
            Files.copy(dir.resolve("disk0").resolve(Checkpoint.FILE), saved);
            for (int i = 0; i < 40; i++) {
                CacheKey k = CacheKey.of("after-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), RawLogFixtures.sizeOf(i), 20_000);
            }
            store.remove(CacheKey.of("before-0"));
            store.close();
            // as if the process had died after the first checkpoint
            Files.copy(saved, dir.resolve("disk0").resolve(Checkpoint.FILE), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        try (RawLogShards store = RawLogFixtures.open(config)) {
            assertThat(store.lookup(CacheKey.of("before-0"))).as("removed after the checkpoint").isEmpty();
            for (int i = 1; i < 40; i++) {
                assertThat(RawLogFixtures.check(store, CacheKey.of("before-" + i), RawLogFixtures.sizeOf(i)))
                        .isEqualTo(RawLogFixtures.Outcome.EXACT);
            }
            for (int i = 0; i < 40; i++) {
                assertThat(RawLogFixtures.check(store, CacheKey.of("after-" + i), RawLogFixtures.sizeOf(i)))
                        .isEqualTo(RawLogFixtures.Outcome.EXACT);
            }
            assertThat(store.usage().objectCount()).isEqualTo(79);
        }
    }

    private void deleteCheckpoints() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(p -> p.getFileName().toString().equals(Checkpoint.FILE)).toList()) {
                Files.delete(p);
            }
        }
    }
}
