package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.edgelab.storage.raw.io.FileAdvice;
import org.edgelab.storage.raw.io.PageCacheProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code direct-io=true}: bodies of every size around the block and stage boundaries, known and
 * unknown length, followed while written, read back byte-exact before and after a restart; hits
 * read past the page cache (counted with {@code mincore(2)}) and copied rather than lent as file slices; and a
 * smoke comparison of buffered and O_DIRECT write rates (printed, not asserted: the lead measures
 * on a quiet machine).
 */
class RawLogDirectIoTest {

    private static final long[] SIZES = {0, 1, 4095, 4096, 4097, 262_143, 262_144, 262_145, 1_000_003, (3L << 20) + 7};
    private static final int[] CHUNKS = {1000, 4096, 65_536, 100_000, 1 << 20, 7777};

    @TempDir
    Path dir;

    private RawLogConfig config(Path where, boolean direct) {
        RawLogConfig c = RawLogFixtures.config(where, 2, 96L << 20, 1L << 20, RawLogConfig.Policy.FIFO);
        return new RawLogConfig(c.disks(), c.capacityBytes(), c.segmentSize(), c.policy(), c.sync(),
                c.checkpointIntervalMillis(), direct);
    }

    @Test
    void everySizeAndChunkingReadsBackExactlyBeforeAndAfterARestart() throws Exception {
        RawLogConfig config = config(dir, true);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RawLogShards store = RawLogFixtures.open(config)) {
            String status = store.stats().extra().get("directIo").toString();
            System.out.println("raw-log direct-io: " + status);
            assertThat(status).matches("on \\(block \\d+ B\\): bodies written and read past the page cache|off: .+");
            for (int i = 0; i < SIZES.length; i++) {
                CacheKey k = CacheKey.of("d-" + i);
                long seed = TestContent.seed(k.value());
                ObjectMetadata m = StoreFixtures.metadata(i % 2 == 0 ? SIZES[i] : ObjectMetadata.UNKNOWN_LENGTH);
                try (ObjectWriter w = store.begin(k, m)) {
                    Future<Long> follower = null;
                    if (i % 3 == 0) {
                        StoredObject f = w.follow();
                        follower = pool.submit(() -> {
                            try (f) {
                                return follow(f, seed);
                            }
                        });
                    }
                    StoreFixtures.writeBody(w, seed, 0, SIZES[i], CHUNKS[i % CHUNKS.length]);
                    w.commit();
                    if (follower != null) {
                        assertThat(follower.get(20, TimeUnit.SECONDS)).isEqualTo(SIZES[i]);
                    }
                }
                assertThat(RawLogFixtures.check(store, k, SIZES[i])).isEqualTo(RawLogFixtures.Outcome.EXACT);
            }
        } finally {
            pool.shutdownNow();
        }
        try (RawLogShards store = RawLogFixtures.open(config)) {
            for (int i = 0; i < SIZES.length; i++) {
                assertThat(RawLogFixtures.check(store, CacheKey.of("d-" + i), SIZES[i]))
                        .isEqualTo(RawLogFixtures.Outcome.EXACT);
            }
        }
    }

    @Test
    void hitsAreReadPastThePageCacheAndCopiedNotLentAsFileSlices() throws Exception {
        PageCacheProbe.assumeDevice(dir);
        long size = (3L << 20) + 7;
        CacheKey k = CacheKey.of("direct-hit");
        long seed = TestContent.seed(k.value());
        try (RawLogShards store = RawLogFixtures.open(config(dir, true))) {
            String status = store.stats().extra().get("directIo").toString();
            org.junit.jupiter.api.Assumptions.assumeTrue(status.startsWith("on"), "no O_DIRECT here: " + status);
            assertThat(store.stats().extra().get("zeroCopy").toString()).startsWith("off: direct-io");
            StoreFixtures.put(store, k, seed, size, 65_536);
            List<Path> segmentFiles;
            try (var files = java.nio.file.Files.walk(dir)) {
                segmentFiles = files.filter(java.nio.file.Files::isRegularFile).toList();
            }
            for (Path f : segmentFiles) {
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                    ch.force(false); // records written through the page cache: dirty pages cannot be dropped
                    FileAdvice.advise(ch, FileAdvice.DONTNEED);
                }
            }
            try (StoredObject o = store.lookup(k).orElseThrow()) {
                assertThat(o.fileSlice(0, size)).as("file slices with direct-io").isEmpty();
                StoreFixtures.verifyRead(o, seed, 0, size, 256 << 10);
            }
            long resident = 0;
            for (Path f : segmentFiles) {
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                    resident += ch.size() == 0 ? 0 : PageCacheProbe.resident(ch, 0, ch.size());
                }
            }
            // the lookup reads the commit record through the page cache: a page or two, against 769 of body
            assertThat(resident).as("pages resident after a hit of %d bytes", size).isLessThanOrEqualTo(4);
        }
    }

    /** Reads a followed object to its end, checking every byte; returns the bytes read. */
    private static long follow(StoredObject f, long seed) throws Exception {
        ByteBuffer buf = ByteBuffer.allocate(50_000);
        long pos = 0;
        while (true) {
            long available = f.awaitLength(pos + 1).get(20, TimeUnit.SECONDS);
            if (pos >= available && f.isComplete()) {
                return pos;
            }
            buf.clear();
            int n = f.read(pos, buf);
            if (n < 0) {
                return pos;
            }
            buf.flip();
            TestContent.assertMatches("followed", seed, pos, buf);
            pos += n;
        }
    }

    @Test
    void bufferedAndDirectWriteRatesSmoke() throws Exception {
        for (boolean direct : List.of(false, true)) {
            try (RawLogShards store = RawLogFixtures.open(config(dir.resolve(direct ? "direct" : "buffered"), direct))) {
                ByteBuffer chunk = ByteBuffer.allocateDirect(256 * 1024);
                long started = System.nanoTime();
                int objects = 48;
                for (int i = 0; i < objects; i++) {
                    try (ObjectWriter w = store.begin(CacheKey.of("r-" + i), StoreFixtures.metadata(1L << 20))) {
                        for (int c = 0; c < 4; c++) {
                            w.write(chunk.clear());
                        }
                        w.commit();
                    }
                }
                store.checkpoint(); // includes forcing what was written through the page cache
                double seconds = (System.nanoTime() - started) / 1e9;
                System.out.printf("raw-log write smoke (%s): %d MiB in %.2f s = %.0f MiB/s (includes the fsync)%n",
                        store.stats().extra().get("directIo"), objects, seconds, objects / seconds);
                assertThat(store.usage().objectCount()).isEqualTo(objects);
            }
        }
    }
}
